"""Unpack an uploaded, zipped suite folder safely.

An upload is untrusted: entries that would land outside the target folder (absolute paths,
``..``), links, and archives that expand past a size limit are refused before anything is
written, so a crafted zip cannot overwrite files or fill the disk. Entries that are
encrypted, use an unknown compression method, clash with each other (a file and a folder of
the same name, one name twice) or carry over-long names are refused up front too; a damaged
entry (bad CRC, corrupt deflate data) is reported by name when it is read.
"""

from __future__ import annotations

import io
import lzma
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from ..errors import SuiteError

MAX_BYTES = 200 * 1024 * 1024
MAX_FILES = 10_000
MAX_NAME_BYTES = 255  # one path component, as most file systems allow
MAX_PATH_BYTES = 1024
_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}


def _check(info: zipfile.ZipInfo) -> str | None:
    """Why an entry may not be extracted, or None."""
    name = PurePosixPath(info.filename)
    if name.is_absolute() or ".." in name.parts or "\\" in info.filename:
        return f"{info.filename}: path leaves the suite folder"
    if (info.external_attr >> 16) & 0o170000 == 0o120000:
        return f"{info.filename}: symbolic links are not allowed"
    if info.flag_bits & 0x1:
        return f"{info.filename}: encrypted entries are not supported"
    if info.compress_type not in _METHODS:
        return f"{info.filename}: unknown compression method {info.compress_type}"
    if len(info.filename.encode("utf-8", "replace")) > MAX_PATH_BYTES or any(
        len(part.encode("utf-8", "replace")) > MAX_NAME_BYTES for part in name.parts
    ):
        return f"{info.filename[:60]}...: name too long"
    return None


def _clashes(infos: list[zipfile.ZipInfo]) -> list[str]:
    """Entries that cannot all be extracted: one name twice, or a file where a folder is."""
    problems: list[str] = []
    files: set[PurePosixPath] = set()
    for info in infos:
        name = PurePosixPath(info.filename)
        if name in files:
            problems.append(f"{info.filename}: appears more than once in the archive")
        files.add(name)
    for info in infos:
        for parent in PurePosixPath(info.filename).parents:
            if parent in files:
                problems.append(f"{parent}: is a file and a folder in the archive")
                return problems
    return problems


def _extract(archive: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path) -> None:
    """Write one entry; damaged data or a file system refusal is a SuiteError naming it."""
    target = dest.joinpath(*PurePosixPath(info.filename).parts)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(info) as src, open(target, "wb") as out:
            out.write(src.read())
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError) as exc:
        raise SuiteError([f"{info.filename}: damaged entry in the archive: {exc}"]) from None
    except (NotImplementedError, RuntimeError) as exc:  # unsupported method, password needed
        raise SuiteError([f"{info.filename}: cannot be extracted: {exc}"]) from None
    except OSError as exc:
        raise SuiteError([f"{info.filename}: cannot be extracted: {exc.strerror or exc}"]) from None


def extract_suite_archive(data: bytes, dest: Path | str) -> Path:
    """Extract a zipped suite into ``dest`` and return the suite folder inside it.

    A zip holding one top-level folder (the usual ``zip -r suite.zip suite/``) yields that
    folder; otherwise ``dest`` itself. Raises SuiteError naming what is wrong.
    """
    dest = Path(dest)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, OSError) as exc:
        raise SuiteError([f"upload: not a zip archive ({exc})"]) from None
    infos = [i for i in archive.infolist() if not i.is_dir()]
    problems = [p for p in map(_check, archive.infolist()) if p] or _clashes(infos)
    if len(infos) > MAX_FILES:
        problems.append(f"upload: {len(infos)} files, more than {MAX_FILES}")
    if sum(i.file_size for i in infos) > MAX_BYTES:
        problems.append(f"upload: expands to more than {MAX_BYTES // 2**20} MiB")
    if problems:
        raise SuiteError(problems)
    dest.mkdir(parents=True, exist_ok=True)
    for info in infos:
        _extract(archive, info, dest)
    tops = {PurePosixPath(i.filename).parts[0] for i in infos if i.filename.strip("/")}
    tops.discard("__MACOSX")
    if len(tops) == 1 and (dest / next(iter(tops))).is_dir():
        return dest / next(iter(tops))
    return dest
