"""Values a source states under another wording than the claim's: a record's own field, a
number that belongs to a name or label, a person's age, and an end of a range.

The word-level alignment cannot find these. A record's field ("business_stars: 3.5" for
"rated 3.5 stars") is one short passage the claim's other words do not point to; a label's
number ("Big Brother 25", "step 4", "passage 3" for the document ``passage_3``) carries no
unit and sits beside words about something else; an age has its unit only in the claim
("a 37-year-old" for "Louis Jordan, 37,"); a range ("6-8 hours") is one fact, stated by a
passage that gives both its ends as a range even where that passage holds few of the claim's
other words (a claim that joins several sentences). The judge's number checks ask these after the
evidence the claim is aligned to, before looking for a rival value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from ..text.bounds import range_of
from ..text.quantities import Quantity, comparable, extract_quantities, quantity_matches
from ..text.words import capitalised_first_word, content_stems, is_content, tokenize
from .index import DocumentIndex, EvidenceIndex, Passage, per_index


@lru_cache(maxsize=65_536)
def value_context(text: str, q: Quantity, window: tuple[int, int]) -> frozenset[str]:
    """Content stems around a value: `window` characters (before, after) what it is about.
    Memoised: each passage's values are compared with every claim of the case."""
    before, after = window
    around = text[max(0, q.start - before) : q.start] + " " + text[q.end : q.end + after]
    return frozenset(content_stems(tokenize(around)))


def record_states(body: str, mine: frozenset[str], q: Quantity, index: EvidenceIndex) -> bool:
    """A record states `q`: one of its own fields (`field_states`) or the length of one of
    its lists (`list_counted`)."""
    return field_states(mine, q, index) or list_counted(body, q, index)


def field_states(mine: frozenset[str], q: Quantity, index: EvidenceIndex) -> bool:
    """A record field outside any list states `q`, a word of its key stands around the
    value in the claim (`mine`: the claim's context stems), and no other such field gives
    another value: the record says what the value is of ("business_stars: 3.5" backs "rated
    3.5 stars"; "price_adult: 30" beside "price_child: 15" backs no "price of 30")."""
    same = other = False
    for p in _keyed_fields(index):
        for o in p.quantities:
            match = quantity_matches(q, o)
            if not (match or comparable(q, o)) or not mine & _key_stems(p, o):
                continue
            if match:
                same = True
            else:
                other = True
    return same and not other


def _keyed_fields(index: EvidenceIndex) -> Iterable[Passage]:
    """The record fields that hold one value of the record itself (not an item of a list,
    such as one review among many)."""
    for d in index.docs:
        for p in d.passages:
            if p.leaf is not None and not any(k.isdigit() for k in p.leaf.path):
                yield p


def _key_stems(p: Passage, o: Quantity) -> frozenset[str]:
    """The content stems before the field's value: its key, in words."""
    return frozenset(content_stems(tokenize(p.text[: o.start])))


#: The word right before a value, when it is all that stands between the value and a gap.
_LABEL_WORD = re.compile(r"([A-Za-z][\w'-]*)\s+$")


def labelled(body: str, q: Quantity, index: EvidenceIndex) -> bool:
    """`q` is a bare number that, with the word before it, is a label the sources hold
    ("Big Brother 25", "step 4"), or names a document ("passage 3" for ``passage_3``): it
    says which thing is meant, not a value that must be found beside the claim's words."""
    if q.kind != "number" or q.unit:
        return False
    m = _LABEL_WORD.search(body, max(0, q.start - 40), q.start)
    if m is None or m.end() != q.start:
        return False
    word, number = m.group(1), body[q.start : q.end]
    docs: Sequence[DocumentIndex] = index.docs
    if not any(ch.isalpha() for ch in number):  # a label must hold the number as written
        docs = [d for d in docs if number in d.doc_id or number in d.text]
        if not docs:
            return False
    label = re.compile(rf"\b{re.escape(word)}[\s_-]+{re.escape(number)}(?![\d.,]\d)", re.I)
    if any(label.fullmatch(d.doc_id) for d in docs):
        return True
    return is_content(word.lower()) and any(label.search(d.text) for d in docs)


#: The claim gives an age: "a 37-year-old", "37 years old" (the quantity ends at "year(s)").
_AGE_SAID = re.compile(r"[-\s]old\b")


def age_stated(body: str, q: Quantity, names: Iterable[str], index: EvidenceIndex) -> bool:
    """The claim gives someone's age and a source gives the same age to one of the people
    it names, as news prose does: "Louis Jordan, 37,", "Jordan, aged 37" or "Tsarnaev, who
    was 19"."""
    if q.kind != "number" or q.unit != "year" or not _AGE_SAID.match(body, q.end):
        return False
    # The claim's first word too, when it has a capital: "Keating, a 21-year-old striker"
    # opens with a name the name finder cannot tell from a sentence's start.
    first = capitalised_first_word(body)
    names = [*names, first] if first else names
    people = {w for n in names for w in n.split() if len(w) > 1}
    if not people:
        return False
    n = re.escape(f"{float(q.value):g}")
    who = "|".join(re.escape(w) for w in sorted(people))
    age = re.compile(
        rf"\b(?:{who}),\s+(?:aged?\s+|who\s+(?:is|was)\s+)?{n}\b(?!\s*[-\d%$])"
        rf"|\b(?:{who})\s+\(\s*{n}\s*\)"
    )
    return any(age.search(d.text) for d in index.docs)


def range_stated(body: str, q: Quantity, sources: Callable[[], Iterable[Passage]]) -> bool:
    """`q` is an end of a range of the claim `body` ("6-8 hours") that one of the passages
    `sources` gives (asked only for such a claim) states with the same two ends ("cook on
    low for 6 - 8 hours")."""
    ends = range_of(body, q, extract_quantities(body))
    return bool(ends) and any(
        len(theirs := range_of(p.text, o, p.quantities)) == 2
        and all(map(quantity_matches, ends, theirs))
        for p in sources()
        for o in p.quantities
        if quantity_matches(q, o)
    )


def list_counted(body: str, q: Quantity, index: EvidenceIndex) -> bool:
    """`q` counts the items of a record's list, and the word it counts is a word of the
    list's key: "based on three customer reviews" where `review_info` holds three. The
    record states how many there are by listing them."""
    value = q.value
    if q.kind != "number" or q.unit or isinstance(value, str) or not value.is_integer():
        return False
    sizes = [key for key, n in _list_sizes(index) if n == value]
    if not sizes:
        return False  # the common case: no list of that length (or no record at all)
    counted = set(content_stems(tokenize(body[q.end : q.end + 40])[:3]))
    return any(not key.isdisjoint(counted) for key in sizes)


@per_index
def _list_sizes(index: EvidenceIndex) -> tuple[tuple[frozenset[str], int], ...]:
    """Each list of the case's records: its key's content stems and how many items it has."""
    items: dict[tuple[str, ...], set[str]] = {}
    for d in index.docs:
        for p in d.passages:
            path = p.leaf.path if p.leaf is not None else ()
            for i, k in enumerate(path):
                if k.isdigit() and i:
                    items.setdefault((d.doc_id, *path[:i]), set()).add(k)
    return tuple(
        (frozenset(content_stems(tokenize(key[-1]))), len(seen)) for key, seen in items.items()
    )


#: Values specific enough that a document stating one as written states the claim's, not a
#: chance match: dates, clock times, phone numbers, and amounts with their unit.
_SPECIFIC_KINDS = frozenset({"date", "time", "phone"})
#: Units of one dimension (a month and a year are rivals here, though never in `comparable`).
_DURATIONS = frozenset({"s", "day", "month", "year"})


def _same_kind(q: Quantity, o: Quantity) -> bool:
    return comparable(q, o) or (o.kind == "number" and {q.unit, o.unit} <= _DURATIONS)


def sources_state(q: Quantity, index: EvidenceIndex, near: Sequence[Passage]) -> bool:
    """A document states `q`, a specific value ("2:20 p.m.", "$295,000", "64 months"), and
    the passages the claim is aligned to (`near`) give no value of its kind: a claim that
    joins several sentences is aligned to one of them, and its other values stand in the
    others. Where its evidence gives a value of that kind ("one month's notice" for the
    claim's "one year's"), or for a bare number ("two", "10", "1965": the sources hold such
    numbers about many things), a match elsewhere is chance."""
    if q.kind not in _SPECIFIC_KINDS and not (q.kind == "number" and q.unit):
        return False
    if any(_same_kind(q, o) for p in near for o in p.quantities):
        return False
    return any(quantity_matches(q, o) for d in index.docs for o in d.quantities)
