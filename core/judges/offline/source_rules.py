"""Which evidence counts: superseded document versions, null record fields, the document a
claim is pinned on.

Rules about the sources rather than the claim: an older dated document that a newer
version among the case's documents replaces is not evidence (unless the claim names it); a
record field that is null leaves its subject unknown, so a claim about it fills a gap; a
claim pinned on one document whose evidence or values sit in another is a citation error.
Split from alignment.py, which applies them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ...evidence.index import DocumentIndex, EvidenceIndex, Hit, Passage, per_index
from ...evidence.records import GENERIC_KEY_STEMS, key_parts
from ...text.quantities import Quantity, is_year, quantity_matches
from ...text.words import content_stems, stem, tokenize

if TYPE_CHECKING:
    from .features import Alignment, ClaimFeatures


def cover(wanted: set[str], have: frozenset[str]) -> float:
    """Share of the wanted stems that `have` contains (1.0 when nothing is wanted)."""
    return len(wanted & have) / len(wanted) if wanted else 1.0


def null_fields(
    wanted: set[str],
    hits: list[Hit],
    generic: frozenset[str] = GENERIC_KEY_STEMS,
    index: EvidenceIndex | None = None,
) -> list[str]:
    """Record fields that are null (unknown) and that the claim speaks about, with no other
    retrieved passage stating the same words (nor any of `index`'s with words closed up):
    the claim fills a gap the record left open (`generic`: key stems that name no field)."""
    out = []
    for h in hits:
        shared = (h.passage.unknown - generic) & wanted
        if shared and _names_head(h.passage, wanted) and not _stated(shared, hits, index):
            out.append(h.passage.text.split(":")[0])
    return out


def _names_head(p: Passage, wanted: set[str]) -> bool:
    """The claim names the field by its key's last word, the thing the key is about
    ('Seating' of 'OutdoorSeating', 'Groups' of 'GoodForGroups'; with the word before it
    when that last word is a stop word: 'takeout'), not only by a word that qualifies it:
    "the restaurant is praised for good food" speaks of no null 'RestaurantsGoodForGroups',
    nor "baked goods" of it."""
    heads = _head_stems(p.text.split(":")[0].split()[-1])
    return any(_same_word(w, h) for w in wanted for h in heads)


def _same_word(a: str, b: str) -> bool:
    """One stem is the other, or the other with a short ending ('rent' of "rents" and
    'rental' of 'BikeRental'; not 'restaur' and 'restaurantsreserv')."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and (short == long or len(short) >= 4 >= len(long) - len(short))


@lru_cache(maxsize=4096)
def _head_stems(key: str) -> frozenset[str]:
    """The stems that name a record key's head: its last content word, and its last two
    words joined ('RestaurantsTakeOut' -> 'take', 'takeout')."""
    parts = [w.lower() for w in key_parts(key)]
    content = [w for w in parts if content_stems([w])]
    heads = content_stems(content[-1:]) + content_stems(["".join(parts[-2:])])
    return frozenset(heads)


def _stated(stems: frozenset[str], hits: list[Hit], index: EvidenceIndex | None) -> bool:
    if any(stems <= o.passage.stems for o in hits if not o.passage.unknown):
        return True
    return index is not None and any(
        (missing := stems - p.stems) and all(w in closed for w in missing) and missing <= _joined(p)
        for p, closed in _closed_up(index)
    )


@per_index
def _closed_up(index: EvidenceIndex) -> list[tuple[Passage, str]]:
    """Each passage but a null field's, with its words run together: a review's "take out
    food" speaks of the null `RestaurantsTakeOut` that a claim's "takeout" names, and
    retrieval, which reads words as they are, does not find that review. The run-together
    text is a cheap first test; the word pairs are stemmed only where it passes."""
    return [(p, "".join(p.tokens)) for d in index.docs for p in d.passages if not p.unknown]


def _joined(p: Passage) -> set[str]:
    return {stem(a + b) for a, b in zip(p.tokens, p.tokens[1:], strict=False)}


#: "doesn't provide details on", "no information about", "it is unclear whether": what
#: follows is said to be unknown, as a null field says.
_UNKNOWN_CUE = re.compile(
    r"(?:\bno|\bnot|n't|\bwithout)\s+(?:\w+\s+){0,2}?(?:details?|information|mention)\s+"
    r"(?:on|about|of|regarding|for)\b"
    r"|\b(?:unclear|unknown|not clear|not known|uncertain)\s+(?:if|whether)\b",
    re.I,
)


#: "the music style is not mentioned", "no specific price listed": the clause's own words
#: are said to be unknown.
_UNSTATED_VERB = r"\b(?:mentioned|specified|listed|stated|indicated|disclosed)\b"
_UNSTATED = re.compile(rf"[^.;,]*\b(?:not|no|n't|never)\b[^.;,]*?{_UNSTATED_VERB}", re.I)
_UNSTATED_WORD = re.compile(_UNSTATED_VERB, re.I)


def unknown_said(text: str) -> set[str]:
    """The content stems the claim says are unknown ('no details on reservations or WiFi',
    'no music style is mentioned'): a null field named there is no gap the claim fills."""
    m = _UNKNOWN_CUE.search(text)
    said = set(content_stems(tokenize(text[m.end() :]))) if m else set()
    if not _UNSTATED_WORD.search(text):  # the clause search backtracks: skip it when idle
        return said
    for clause in _UNSTATED.finditer(text):
        said |= set(content_stems(tokenize(_listed_before(text, clause.start()))))
        said |= set(content_stems(tokenize(clause.group())))
    return said


#: An item of a list: a few words after a comma ("The ambience, music, Wi-Fi, and parking
#: details are not specified": the clause search stops at the last comma).
_LIST_ITEM = re.compile(r"(?:^|,)\s*(?P<item>[\w'-]+(?:\s+[\w'-]+){0,2})\s*,$")
_LIST_END = re.compile(r"\s*(?:and|or)\s", re.I)


def _listed_before(text: str, start: int) -> str:
    """The items of a list whose last item ('and parking details') opens the unstated
    clause at `start`: the clause says the whole list is unknown. Two items at least, so
    a clause before it ("They offer WiFi, and ...") is no list."""
    if not _LIST_END.match(text, start):
        return ""
    items = []
    head = text[:start].rstrip()
    while (m := _LIST_ITEM.search(head)) is not None:
        items.append(m.group("item"))
        head = head[: m.start() + 1] if head[m.start()] == "," else ""
    return " ".join(items) if len(items) >= 2 else ""


def current_hits(hits: list[Hit], index: EvidenceIndex, named: DocumentIndex | None) -> list[Hit]:
    """Hits without passages of superseded versions (an older dated document with the same
    title as a newer one), unless the claim names that document itself."""
    old = superseded(index)
    if not old:
        return hits
    keep = named.doc_id if named else None
    return [h for h in hits if h.passage.doc_id not in old or h.passage.doc_id == keep]


@per_index
def superseded(index: EvidenceIndex) -> frozenset[str]:
    """Ids of the case's documents that a newer version among them replaces."""
    dated = [d for d in index.docs if d.recency]
    return frozenset(
        d.doc_id
        for d in dated
        if any(e.recency > d.recency and _similar(e.title_stems, d.title_stems) for e in dated)
    )


def version_marks(quantities: Sequence[Quantity]) -> tuple[Quantity, ...]:
    """The claim's years, dates and versions: what may name a version of a source."""
    return tuple(q for q in quantities if q.kind in ("date", "version") or is_year(q))


def version_named(
    quantities: Sequence[Quantity], index: EvidenceIndex
) -> tuple[DocumentIndex, frozenset[str]] | None:
    """The one version of a document the claim's year, date or version picks ("under the
    2022 terms" -> the 2022 terms) when the case holds several versions of it, with the ids
    of its other versions: the claim is checked against that version, not its siblings."""
    marks = version_marks(quantities)
    if not marks:
        return None
    picked = [
        d
        for d in index.docs
        if any(quantity_matches(q, t) for q in marks for t in d.title_quantities)
    ]
    if len(picked) != 1:
        return None
    doc = picked[0]
    siblings = frozenset(
        d.doc_id for d in index.docs if d is not doc and _similar(d.title_stems, doc.title_stems)
    )
    return (doc, siblings) if siblings else None


def _similar(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) >= 0.6


def pinned_documents(
    claim: ClaimFeatures, found: Alignment, index: EvidenceIndex, named: DocumentIndex | None
) -> tuple[str | None, str | None]:
    """The document a claim is pinned on (`named`), and the one that holds its evidence or
    values when that is another (a citation mismatch)."""
    if named is None or not found.best or len(index.docs) < 2:
        return None, None
    wanted = set(claim.stems)
    own = max((cover(wanted, p.stems) for p in named.passages), default=0.0)
    others = [p for d in index.docs if d is not named for p in d.passages]
    other = max((cover(wanted, p.stems) for p in others), default=0.0)
    elsewhere = None
    if found.best.doc_id != named.doc_id and other > own:
        elsewhere = found.best.doc_id
    elif claim.quantities:
        elsewhere = _numbers_only_elsewhere(claim, named.passages, others)
    return named.doc_id, elsewhere


def _numbers_only_elsewhere(
    claim: ClaimFeatures, own: list[Passage], others: list[Passage]
) -> str | None:
    """The document that holds a number of the claim when every number is in other
    documents, but not all are in the named one; None otherwise."""

    def holding(q: Quantity, passages: list[Passage]) -> Passage | None:
        return next(
            (p for p in passages if any(quantity_matches(q, o) for o in p.quantities)), None
        )

    found = [holding(q, others) for q in claim.quantities]
    if any(p is None for p in found) or all(holding(q, own) is not None for q in claim.quantities):
        return None
    return next(p.doc_id for p in found if p is not None)
