"""Which source a claim says it rests on ("according to the March 2024 leaflet").

A citation error is a true-looking fact pinned on the wrong document or version. To see it,
the judge must first know which document the claim names: by title words, and above all by
the dates and versions in the title, since old and new versions share every other word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...evidence.index import DocumentIndex
from ...text.quantities import Quantity, extract_quantities, quantity_matches
from ...text.words import content_stems, tokenize

_DOC_NOUN = (
    r"leaflets?|terms(?: and conditions)?|reference|guide|wording|faq|letter|manual|handbook"
    r"|communication|agreement|contract|pricing page|article|bulletin|documentation"
    r"|policy document|release notes|changelog"
)
_REFERENCES = [
    re.compile(r"\baccording to (?:the |your )?(?P<src>[^,.;:]{2,80})", re.I),
    re.compile(
        r"\b(?:as )?(?:stated|noted|described|mentioned|outlined|explained|specified|listed)"
        r" (?:in|by) (?:the |your )?(?P<src>[^,.;:]{2,80})",
        re.I,
    ),
    re.compile(
        rf"\b(?:the |your |under the |in the )(?P<src>(?:[\w.£$'-]+ ){{0,4}}?(?:{_DOC_NOUN}))\b",
        re.I,
    ),
]
_CUE = re.compile(
    rf"\b(?:according|stated|noted|described|mentioned|outlined|explained|specified|listed"
    rf"|{_DOC_NOUN})\b",
    re.I,
)
_GENERIC = frozenset(content_stems(tokenize("older newer current latest new old previous")))


@dataclass(frozen=True)
class SourceReference:
    """A mention of a source in a claim, with its span and what identifies it."""

    text: str
    start: int
    end: int
    stems: frozenset[str]
    quantities: tuple[Quantity, ...]


def find_reference(text: str) -> SourceReference | None:
    """The first source a claim names, if any."""
    if not _CUE.search(text):  # cheap gate: most claims name no source
        return None
    for pattern in _REFERENCES:
        m = pattern.search(text)
        if m:
            src = m.group("src").strip()
            start = m.start("src")
            return SourceReference(
                text=src,
                start=start,
                end=start + len(src),
                stems=frozenset(content_stems(tokenize(src))) - _GENERIC,
                quantities=tuple(extract_quantities(src)),
            )
    return None


def resolve_reference(ref: SourceReference, docs: list[DocumentIndex]) -> DocumentIndex | None:
    """The one document the reference names, or None when none or several fit equally.

    A date or version in the reference that the title contradicts rules a document out.
    """
    scored: list[tuple[float, DocumentIndex]] = []
    for doc in docs:
        score = _score(ref, doc)
        if score is not None and score > 0:
            scored.append((score, doc))
    scored.sort(key=lambda s: -s[0])
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def _score(ref: SourceReference, doc: DocumentIndex) -> float | None:
    shared = len(ref.stems & doc.title_stems) / max(len(ref.stems), 1)
    dated = 0
    for q in ref.quantities:
        if any(quantity_matches(q, t) for t in doc.title_quantities):
            dated += 1
        elif any(t.kind == q.kind or t.kind == "date" for t in doc.title_quantities):
            return None  # names another date or version than this document's
    if ref.stems and not shared and not dated:
        return None
    return shared + 2 * dated
