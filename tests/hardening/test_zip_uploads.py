"""#12 D: broken or hostile zipped suites are one SuiteError each, never a traceback."""

from __future__ import annotations

import io
import struct
import zipfile

import pytest
from halgate.errors import SuiteError
from halgate.inputs.archive import extract_suite_archive

TEXT = b"The maximum daily dose is 100 mg. " * 20


def zipped(entries: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def _patch_first_entry(data: bytes, fn) -> bytes:
    """Apply ``fn(bytearray, local_header_offset, central_header_offset)`` to the archive."""
    raw = bytearray(data)
    local = raw.index(b"PK\x03\x04")
    central = raw.index(b"PK\x01\x02")
    fn(raw, local, central)
    return bytes(raw)


def bad_crc() -> bytes:
    data = zipped({"s/cases.jsonl": TEXT}, zipfile.ZIP_STORED)
    return data.replace(TEXT[:20], b"X" * 20, 1)


def corrupt_deflate() -> bytes:
    data = zipped({"s/cases.jsonl": TEXT})

    def fn(raw, local, central):
        name_len, extra_len = struct.unpack_from("<HH", raw, local + 26)
        start = local + 30 + name_len + extra_len
        for i in range(start, start + 6):
            raw[i] = 0xFF

    return _patch_first_entry(data, fn)


def encrypted() -> bytes:
    def fn(raw, local, central):
        raw[local + 6] |= 0x1
        raw[central + 8] |= 0x1

    return _patch_first_entry(zipped({"s/cases.jsonl": TEXT}), fn)


def unknown_compression() -> bytes:
    def fn(raw, local, central):
        struct.pack_into("<H", raw, local + 8, 99)
        struct.pack_into("<H", raw, central + 10, 99)

    return _patch_first_entry(zipped({"s/cases.jsonl": TEXT}), fn)


CASES = {
    "bad CRC": (bad_crc, "cases.jsonl"),
    "corrupt deflate": (corrupt_deflate, "cases.jsonl"),
    "encrypted": (encrypted, "encrypted"),
    "unknown compression": (unknown_compression, "compression"),
    "file/folder clash": (
        lambda: zipped({"s/answers": b"x", "s/answers/candidate.jsonl": b"{}"}),
        "s/answers",
    ),
    "over-long name": (lambda: zipped({"s/" + "a" * 300 + ".txt": b"x"}), "long"),
    "duplicate entry": (
        lambda: _duplicate(),
        "more than once",
    ),
}


def _duplicate() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("s/cases.jsonl", b"1")
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            z.writestr("s/cases.jsonl", b"2")
    return buf.getvalue()


@pytest.mark.parametrize("kind", list(CASES))
def test_a_broken_archive_is_one_suite_error(kind, tmp_path):
    make, word = CASES[kind]
    with pytest.raises(SuiteError) as info:
        extract_suite_archive(make(), tmp_path / "out")
    assert len(info.value.problems) == 1, info.value.problems
    assert word in info.value.problems[0], info.value.problems
