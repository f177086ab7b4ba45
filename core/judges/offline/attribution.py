"""Which source a claim says it rests on ("according to the March 2024 leaflet").

A citation error is a true-looking fact pinned on the wrong document or version. To see it,
the judge must first know which document the claim names: by title words, and above all by
the dates and versions in the title, since old and new versions share every other word.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...evidence.index import DocumentIndex
from ...text.gates import CaselessTest
from ...text.quantities import Quantity, extract_quantities, quantity_matches
from ...text.words import content_stems, proper_names, tokenize

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
    # A citation in brackets: "(Passage 2, point 4)", "(passage 1:4)", "(Source 3)". Its
    # numbers name a source and a place in it, not values the claim states.
    re.compile(
        r"\((?P<src>(?:passages?|documents?|docs?|sources?|references?|refs?)\s*#?\d[^()]{0,40})\)",
        re.I,
    ),
]
_CUE = CaselessTest(
    rf"\b(?:according|stated|noted|described|mentioned|outlined|explained|specified|listed"
    rf"|{_DOC_NOUN})\b|\((?:passage|document|doc|source|ref)"
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
    if not _CUE(text):  # cheap gate: most claims name no source
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


# A named place or party a claim says its content comes from: "4.0 stars on Google",
# "reviews from Yelp users", "(source: Zagat)", "according to the CDC", "Reuters reported".
_SAID_ON = re.compile(
    r"\b(?:stars?|rat(?:ed|ing|ings)|reviews?|reviewers|users|posted|announced|reported"
    r"|wrote|listed|featured)\b[^.;:!?]{0,40}?\b(?:on|from|via|at|by)\s+(?:the\s+)?(?P<src>"
    + r"[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,2})"
)
_SOURCE_TAG = re.compile(r"\((?:source|via|per):\s*(?P<src>[^)]{2,60})\)", re.I)
_SOURCE_CUE = CaselessTest(r"\b(?:on|from|via|at|by|source|according)\b")


def unnamed_sources(
    text: str, ref: SourceReference | None, known: Callable[[str], bool]
) -> list[str]:
    """The sources a claim pins its content on ("a rating of 4.0 stars on Google",
    "according to Yelp reviews") whose names no source document holds (`known` says whether
    the documents or the question name a name): the claim says where its content comes
    from, and the sources are not that place. A source the documents name in any of the
    ways the claim gives ("the Bureau of Labor Statistics (BLS)") is a reference to resolve
    (``resolve_reference``), not an invented source."""
    if ref is None and not _SOURCE_CUE(text):  # cheap gate
        return []
    said = [m.group("src") for p in (_SAID_ON, _SOURCE_TAG) for m in p.finditer(text)]
    if ref is not None:
        said.append(ref.text)
    unnamed: dict[str, None] = {}
    for source in said:
        names = proper_names(" " + source.strip(" .,"))
        if names and not any(known(n) for n in names):
            unnamed.update(dict.fromkeys(names))
    return list(unnamed)


def spelled_out(code: str, docs: list[DocumentIndex]) -> bool:
    """Whether a document spells the capitals `code` out as a run of capitalised words
    ("UN" for "United Nations", "the BBC" for "British Broadcasting Corporation"; "WWII"
    for "World War II", a number ending it written either way): a source named by its
    initials is a named source."""
    runs = [_initials_run(code)]
    numbered = _NUMBERED.match(code)
    if numbered and (letters := _initials_run(numbered[1])):
        numeral = numbered[2]
        runs.append(rf"{letters}\s+(?:{numeral}|{_ROMAN.get(numeral, numeral)})")
    patterns = [re.compile(rf"\b{r}\b") for r in runs if r]
    return any(p.search(d.text) for p in patterns for d in docs)


def _initials_run(code: str) -> str | None:
    """The pattern of capitalised words whose initials spell `code` (None: no such code)."""
    if not (2 <= len(code) <= 6 and code.isalpha() and code.isupper()):
        return None
    return r"\s+(?:(?:of|the|and|for|de)\s+)?".join(f"{c}[a-z]+" for c in code)


#: A code of capitals ending in a number, Roman or Arabic ("WWII", "WW2").
_NUMBERED = re.compile(r"^([A-Z]{2,6}?)(II|III|IV|VI{0,3}|IX|X|[1-9])$")
_ROMAN = {"II": "2", "III": "3", "IV": "4", "V": "5", "VI": "6", "VII": "7", "VIII": "8",
          "IX": "9", "X": "10"}  # fmt: skip
_ROMAN |= {v: k for k, v in _ROMAN.items()}


def initials_written(name: str, docs: list[DocumentIndex]) -> bool:
    """Whether a document writes the name's initials as one capitalised code ("FLSA" for
    "Fair Labor Standards Act"): the name the claim spells out is the one the source
    abbreviates. Three letters at least, so two words' chance initials ("US") name nothing."""
    initials = "".join(w[0] for w in name.split() if w[:1].isupper())
    if len(initials) < 3 or not initials.isalpha():
        return False
    pattern = re.compile(rf"\b{initials}\b")
    return any(pattern.search(d.text) for d in docs)
