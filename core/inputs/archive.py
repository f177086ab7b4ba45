"""Unpack an uploaded, zipped suite folder safely.

An upload is untrusted: entries that would land outside the target folder (absolute paths,
``..``), links, and archives that expand past a size limit are refused before anything is
written, so a crafted zip cannot overwrite files or fill the disk.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path, PurePosixPath

from ..errors import SuiteError

MAX_BYTES = 200 * 1024 * 1024
MAX_FILES = 10_000


def _check(info: zipfile.ZipInfo) -> str | None:
    """Why an entry may not be extracted, or None."""
    name = PurePosixPath(info.filename)
    if name.is_absolute() or ".." in name.parts or "\\" in info.filename:
        return f"{info.filename}: path leaves the suite folder"
    if (info.external_attr >> 16) & 0o170000 == 0o120000:
        return f"{info.filename}: symbolic links are not allowed"
    return None


def extract_suite_archive(data: bytes, dest: Path | str) -> Path:
    """Extract a zipped suite into ``dest`` and return the suite folder inside it.

    A zip holding one top-level folder (the usual ``zip -r suite.zip suite/``) yields that
    folder; otherwise ``dest`` itself. Raises SuiteError naming what is wrong.
    """
    dest = Path(dest)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise SuiteError(["upload: not a zip archive"]) from None
    infos = [i for i in archive.infolist() if not i.is_dir()]
    problems = [p for p in map(_check, archive.infolist()) if p]
    if len(infos) > MAX_FILES:
        problems.append(f"upload: {len(infos)} files, more than {MAX_FILES}")
    if sum(i.file_size for i in infos) > MAX_BYTES:
        problems.append(f"upload: expands to more than {MAX_BYTES // 2**20} MiB")
    if problems:
        raise SuiteError(problems)
    dest.mkdir(parents=True, exist_ok=True)
    for info in infos:
        target = dest.joinpath(*PurePosixPath(info.filename).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(info) as src, open(target, "wb") as out:
            out.write(src.read())
    tops = {PurePosixPath(i.filename).parts[0] for i in infos if i.filename.strip("/")}
    tops.discard("__MACOSX")
    if len(tops) == 1 and (dest / next(iter(tops))).is_dir():
        return dest / next(iter(tops))
    return dest
