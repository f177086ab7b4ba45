"""The size limits of a suite's input, in one place, and the check of a record's fields.

A suite is untrusted input: a question of megabytes made the judge run for minutes and an
answer of 20 MB took gigabytes. Every limit is counted in bytes of UTF-8 text as actually
read, never as a file or an archive declares it, and every refusal names the file, the line
and the field. Documents have their own, larger limit (``suite.MAX_DOCUMENT_BYTES``), so the
text of a document is the one field these limits leave alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

MAX_SUITE_BYTES = 200 * 1024 * 1024
"""All files of a suite folder together."""

MAX_LINE_BYTES = 6_000_000
"""One line of a JSONL file: a 5 MB document and its other fields fit."""

FIELD_LIMITS = {
    "question": 50_000,
    "answer": 200_000,
    "reference_answer": 200_000,
}
"""Bytes of a record's top-level text fields that the judge reads in full."""

MAX_FIELD_BYTES = 200_000
"""Any other text in a record: ids, titles, tags, a label's claim text and rationale."""

DOCUMENT_TEXT = re.compile(r"(documents\.\d+\.)?text")
"""Where a record carries a document's text (documents.jsonl, a case's inline documents)."""


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(dotted path, text) of every string in a JSON value, depth first."""
    stack = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((f"{where}.{i}" if where else str(i), v) for i, v in enumerate(item))


def fits_every_limit(line_chars: int) -> bool:
    """Whether a record read from a JSON line this long is surely within every field limit:
    decoding never makes a string longer than its JSON text, and a character is at most 4
    bytes of UTF-8. Most lines are, and are spared the walk over their fields."""
    return line_chars * 4 <= min(*FIELD_LIMITS.values(), MAX_FIELD_BYTES)


def oversized_field(record: dict[str, Any], documents: bool) -> tuple[str, str] | None:
    """(field, why) for the first text field above its limit, else None.

    ``documents``: the record may carry document text (left to the document limit).
    """
    for field, text in _strings(record):
        if documents and DOCUMENT_TEXT.fullmatch(field):
            continue
        limit = FIELD_LIMITS.get(field, MAX_FIELD_BYTES)
        if len(text) * 4 <= limit:  # cannot be over: spare the encoding of every field
            continue
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            return field, f"is {size} bytes, above the limit of {limit} bytes"
    return None
