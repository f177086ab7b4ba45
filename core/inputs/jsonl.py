"""Read a suite's JSONL files a line at a time, every problem named by file, line and field.

Lines end at ``\n`` only (U+2028 and U+0085 inside a JSON string are text), a line above
``limits.MAX_LINE_BYTES`` is refused without being held, and a record whose text field is
above its limit (``limits.oversized_field``) or holds a lone surrogate is a problem of its
own line; the rest of the file is still read, so every problem is shown in one go.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .limits import MAX_LINE_BYTES, fits_every_limit, oversized_field


class _Problems:
    """Collects problems so that all of them are shown in one go."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: Path, line: int | None, field: str, message: str) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        self.items.append(f"{where}: {field}: {message}")


def _read_text(path: Path, problems: _Problems) -> str | None:
    """The file as UTF-8 text, or None after recording why it cannot be read."""
    if path.is_dir():
        problems.add(path, None, "(file)", "is a directory, not a file")
        return None
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.add(path, None, "(file)", f"cannot read: {exc.strerror or exc}")
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.add(path, line, "(file)", f"not UTF-8 text (byte {exc.start})")
        return None


def _json_value(raw: str) -> Any:
    """json.loads, with nesting too deep for the parser reported like any invalid JSON."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


# Text decoded as UTF-8 holds no surrogate, so one can come only from a JSON escape
# (\uD800-\uDFFF); a line without one needs no field-by-field check, and a false hit
# (an escaped backslash before "ud800") only costs that check.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def _surrogate_field(obj: dict[str, Any]) -> str | None:
    """The first field holding a lone surrogate (\\ud800 escapes): no UTF-8 file can hold it."""
    for key, value in obj.items():
        try:
            json.dumps({key: value}, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return str(key).encode("utf-8", "replace").decode("utf-8")
    return None


def _raw_lines(path: Path, problems: _Problems) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line, split at ``\n`` only (U+2028 and U+0085 are text
    inside a JSON string, not line ends); read a line at a time, so a line above
    ``MAX_LINE_BYTES`` is refused without being held, and so is a file that is not UTF-8."""
    if path.is_dir():
        problems.add(path, None, "(file)", "is a directory, not a file")
        return
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed by the with below, after the check
    except OSError as exc:
        problems.add(path, None, "(file)", f"cannot read: {exc.strerror or exc}")
        return
    with f:
        lineno, offset = 0, 0
        while raw := f.readline(MAX_LINE_BYTES + 1):
            lineno += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                problems.add(
                    path,
                    lineno,
                    "(line)",
                    f"longer than {MAX_LINE_BYTES} bytes, the limit of a line",
                )
                while raw and not raw.endswith(b"\n"):  # skip the rest, a chunk at a time
                    raw = f.readline(2**20)
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                problems.add(path, lineno, "(file)", f"not UTF-8 text (byte {offset + exc.start})")
                return
            offset += len(raw)
            yield lineno, text.rstrip("\r\n")


def read_jsonl(path: Path, problems: _Problems) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line; bad lines become problems.

    A text field above its limit (``limits.oversized_field``) is a problem too; the text of
    a document is left to the document limit.
    """
    documents = path.name in ("documents.jsonl", "cases.jsonl")
    for lineno, raw in _raw_lines(path, problems):
        if not raw.strip():
            continue
        try:
            obj = _json_value(raw)
        except json.JSONDecodeError as exc:
            problems.add(path, lineno, "(json)", f"invalid JSON: {exc.msg} (column {exc.colno})")
            continue
        except ValueError as exc:
            problems.add(path, lineno, "(json)", f"invalid JSON: {exc}")
            continue
        if not isinstance(obj, dict):
            problems.add(path, lineno, "(json)", "expected a JSON object")
            continue
        field = _surrogate_field(obj) if _SURROGATE_ESCAPE.search(raw) else None
        if field is not None:
            problems.add(path, lineno, field, "contains a lone surrogate (an invalid \\u escape)")
            continue
        oversized = None if fits_every_limit(len(raw)) else oversized_field(obj, documents)
        if oversized is not None:
            problems.add(path, lineno, *oversized)
            continue
        yield lineno, obj
