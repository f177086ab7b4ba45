"""Unpack an uploaded, zipped suite folder safely.

An upload is untrusted: entries that would land outside the target folder (absolute paths,
``..``), links, and archives whose headers declare more than the size limit are refused
before anything is written, so a crafted zip cannot overwrite files or fill the disk. The
declared sizes are only a first filter: every entry is then streamed in chunks of
``CHUNK_BYTES`` with the bytes it *actually* expands to counted against the same limit (and
against its own declared size), so a zip bomb whose headers lie stops after at most one
chunk past the limit, never expanded in memory. Entries that are
encrypted, use an unknown compression method, clash with each other (a file and a folder of
the same name, one name twice) or carry over-long names are refused up front too; a damaged
entry (bad CRC, corrupt deflate data) is reported by name when it is read.
"""

from __future__ import annotations

import io
import lzma
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from ..errors import SuiteError

MAX_BYTES = 200 * 1024 * 1024
MAX_ARCHIVE_BYTES = 50 * 1024 * 1024  # the zip itself, as uploaded (the dashboard's limit)
CHUNK_BYTES = 1024 * 1024
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


class _Budget:
    """Bytes the archive may still expand to, counted as they are actually written."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def take(self, info: zipfile.ZipInfo, written: int, n: int) -> None:
        """Count ``n`` more bytes of ``info``; refuse past the limit or its declared size."""
        self.left -= n
        if self.left < 0:
            raise SuiteError(
                [f"{info.filename}: upload expands to more than {MAX_BYTES // 2**20} MiB"]
            )
        if written + n > info.file_size:
            raise SuiteError(
                [
                    f"{info.filename}: damaged entry in the archive: expands past its declared "
                    f"size of {info.file_size} bytes"
                ]
            )


def _stream(archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, budget: _Budget) -> None:
    """Copy one entry chunk by chunk, counting the actual bytes (never the declared ones)."""
    written = 0
    with archive.open(info) as src, open(target, "wb") as out:
        while chunk := src.read(CHUNK_BYTES):
            budget.take(info, written, len(chunk))
            out.write(chunk)
            written += len(chunk)


def _extract(archive: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path, budget: _Budget) -> None:
    """Write one entry; damaged data or a file system refusal is a SuiteError naming it."""
    target = dest.joinpath(*PurePosixPath(info.filename).parts)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _stream(archive, info, target, budget)
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError) as exc:
        raise SuiteError([f"{info.filename}: damaged entry in the archive: {exc}"]) from None
    except (NotImplementedError, RuntimeError) as exc:  # unsupported method, password needed
        raise SuiteError([f"{info.filename}: cannot be extracted: {exc}"]) from None
    except OSError as exc:
        raise SuiteError([f"{info.filename}: cannot be extracted: {exc.strerror or exc}"]) from None


def extract_suite_archive(data: bytes | BinaryIO, dest: Path | str) -> Path:
    """Extract a zipped suite into ``dest`` and return the suite folder inside it.

    ``data`` is the zip's bytes or a seekable binary file (an upload is read from where it
    lies, never copied whole into memory again); a zip above ``MAX_ARCHIVE_BYTES`` is refused.

    A zip holding one top-level folder (the usual ``zip -r suite.zip suite/``) yields that
    folder; otherwise ``dest`` itself. Raises SuiteError naming what is wrong.
    """
    dest = Path(dest)
    source = io.BytesIO(data) if isinstance(data, bytes | bytearray) else data
    size = source.seek(0, io.SEEK_END)
    source.seek(0)
    if size > MAX_ARCHIVE_BYTES:
        raise SuiteError(
            [f"upload: the zip is {size} bytes, above {MAX_ARCHIVE_BYTES // 2**20} MiB"]
        )
    try:
        archive = zipfile.ZipFile(source)
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
    budget = _Budget(MAX_BYTES)
    for info in infos:
        _extract(archive, info, dest, budget)
    tops = {PurePosixPath(i.filename).parts[0] for i in infos if i.filename.strip("/")}
    tops.discard("__MACOSX")
    if len(tops) == 1 and (dest / next(iter(tops))).is_dir():
        return dest / next(iter(tops))
    return dest


@contextmanager
def suite_source(path: Path | str) -> Iterator[Path]:
    """The suite folder ``path`` names: the folder itself, or, for a zip file (what the
    dashboard's upload takes), the suite extracted by ``extract_suite_archive`` with the
    same limits into a temporary folder that is removed afterwards. A SuiteError raised
    inside names the zip (``suite.zip: cases.jsonl:3: ...``), never the temporary folder."""
    path = Path(path)
    if not (path.is_file() and zipfile.is_zipfile(path)):
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="halgate-suite-") as tmp, open(path, "rb") as data:
        work = Path(tmp)
        try:
            yield extract_suite_archive(data, work / "suite")
        except SuiteError as exc:
            raise SuiteError([_in_zip(p, path, work) for p in exc.problems]) from None


def _in_zip(problem: str, zip_path: Path, work: Path) -> str:
    """A problem as the user knows the files: relative to the zip, not the scratch folder."""
    for scratch in (f"{work.resolve()}/suite/", f"{work}/suite/"):
        problem = problem.replace(scratch, "")
    if problem.startswith("upload: "):
        problem = problem.removeprefix("upload: ")
    return f"{zip_path}: {problem}"
