"""Locate a quoted passage in its source document, so invented evidence is never shown.

Both judges go through here: the offline judge to build its citations, the LLM judge to
check the quotes a model claims to have copied. Search is exact, then normalised (case,
whitespace, punctuation), then fuzzy via rapidfuzz above a threshold.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from rapidfuzz import fuzz

from ..models import Citation, Document
from ..models.claims import trusted_citation

DEFAULT_FUZZY_THRESHOLD = 90.0
# Shorter quotes match too easily by chance to be trusted fuzzily.
MIN_FUZZY_CHARS = 12
_KEEP = re.compile(r"[0-9a-z%$€£]")


def locate_quote(
    document: Document, quote: str, threshold: float = DEFAULT_FUZZY_THRESHOLD
) -> Citation:
    """Find `quote` in `document`; `verified=False, match="none"` when it is not there.

    The returned span always indexes the document's own text, so a reader can highlight
    it; `quote` is kept as given, so a judge's misquote stays visible.
    """
    text = document.text
    quote_stripped = quote.strip()
    if not quote_stripped:
        return _unverified(document, quote)
    idx = text.find(quote_stripped)
    if idx >= 0:
        return _cite(document, quote, idx, idx + len(quote_stripped), "exact")
    norm_text, index = _normalized(text)
    norm_quote, _ = _normalized(quote_stripped)
    if not norm_quote:
        return _unverified(document, quote)
    pos = norm_text.find(norm_quote)
    if pos >= 0:
        start, end = _to_original(text, index, pos, pos + len(norm_quote))
        return _cite(document, quote, start, end, "normalized")
    if len(norm_quote) < MIN_FUZZY_CHARS:
        return _unverified(document, quote)
    found = fuzz.partial_ratio_alignment(norm_quote, norm_text, score_cutoff=threshold)
    if found is None or found.dest_end <= found.dest_start:
        return _unverified(document, quote)
    start, end = _to_original(text, index, found.dest_start, found.dest_end)
    return _cite(document, quote, start, end, "fuzzy")


def quote_in_any(documents: list[Document], quote: str, doc_id: str | None = None) -> Citation:
    """Locate a quote in the named document, else in any of `documents` (first found wins).

    An LLM judge may name the wrong document for a real quote; the citation then points at
    the document that holds it, and the caller can compare doc ids to see the slip.
    """
    ordered = sorted(documents, key=lambda d: d.doc_id != doc_id)
    for doc in ordered:
        citation = locate_quote(doc, quote)
        if citation.verified:
            return citation
    fallback = doc_id or (documents[0].doc_id if documents else "")
    return Citation(doc_id=fallback, quote=quote, verified=False, match="none")


def _cite(
    document: Document,
    quote: str,
    start: int,
    end: int,
    match: Literal["exact", "normalized", "fuzzy"],
) -> Citation:
    return trusted_citation(document.doc_id, start, end, quote, match)


def _unverified(document: Document, quote: str) -> Citation:
    return Citation(doc_id=document.doc_id, quote=quote, verified=False, match="none")


@lru_cache(maxsize=256)
def _normalized(text: str) -> tuple[str, tuple[int, ...]]:
    """Text reduced to lowercase letters/digits single-space separated, with a map back.

    `index[i]` is the offset in the original text of normalised character `i` (for a space,
    the start of the gap it replaces).
    """
    chars: list[str] = []
    index: list[int] = []
    gap_start = -1
    for i, ch in enumerate(text.lower()):
        if ch.isalnum() or _KEEP.match(ch):
            if gap_start >= 0 and chars:
                chars.append(" ")
                index.append(gap_start)
            chars.append(ch)
            index.append(i)
            gap_start = -1
        elif gap_start < 0:
            gap_start = i
    return "".join(chars), tuple(index)


def _to_original(text: str, index: tuple[int, ...], start: int, end: int) -> tuple[int, int]:
    """Map a normalised [start, end) back to the original text, whitespace trimmed."""
    s, e = index[start], index[end - 1] + 1
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e
