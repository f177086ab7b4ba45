"""Claims checked against the fields of a structured (JSON) record, not against passages.

Retrieval hands the alignment the passages that share most words with a claim, and for a
record those are often reviews that mention "upscale" while the field that rules on it
("Ambience upscale: false") ranks lower. A data-to-text answer is wrong when it affirms a
field the record denies, denies one it affirms, or gives opening hours the record does not
have, so these are checked field by field, whatever retrieval ranked first.

The core check knows any JSON schema; the business_listings rule pack adds its key words,
its affirming values and "a day the listing leaves out is closed" (conventions.py), as a
second set of facts computed only when the pack is on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...evidence.index import Passage, make_passage, per_index
from ...evidence.records import GENERIC_KEY_STEMS, Leaf, key_parts
from ...text.negation import is_negation
from ...text.words import stem, tokenize
from .conventions import LISTING_AFFIRMING, LISTING_KEY_STEMS
from .opening_hours import (
    DAY_NAMES,
    claimed_days,
    hours_agree,
    opening_of,
    says_closed,
    speaks_of_opening,
    unlisted_days,
    weekday,
    wrong_days,
)

if TYPE_CHECKING:  # pragma: no cover
    from ...evidence.index import DocumentIndex, EvidenceIndex

# A nested key this short or common ("lot", "live", "dj") needs its parent ("parking").
_DISTINCT_LEN = 6

_AFFIRMING = frozenset({"yes", "true"})
# "Reservations are not accepted": a cue after the key denies it when a word like these follows.
_DENIED_AFTER = frozenset(
    "available offered accepted provided allowed permitted included possible an option".split()
)
_SCOPE_ENDS = frozenset("but however although though while yet whereas".split())
_SCOPE = 8  # a denial reaches over a short list: "no Wi-Fi, outdoor seating, or valet"


@dataclass(frozen=True)
class Field:
    """A yes/no-like record field a claim can affirm or deny."""

    passage: Passage
    own: frozenset[str]  # stems of the field's own key ("upscale")
    joined: frozenset[str]  # the key's parts written as one word ("takeout", "wifi")
    parent: frozenset[str]  # stems of the enclosing key ("ambience"), if nested
    positive: bool

    @property
    def keys(self) -> frozenset[str]:
        """Stems a claim word may carry to name this field. A key of several words is named
        where the claim writes them together ("take out", "takeout"), not by each word:
        "does not take reservations" says nothing of takeout."""
        together = frozenset(stem(w) for w in self.joined)
        return together if len(self.own) > 1 else self.own | together


@dataclass(frozen=True)
class RecordFacts:
    """The fields and opening hours of a case's records, extracted once per document."""

    fields: tuple[Field, ...]
    hours: dict[int, tuple[Passage, tuple[int, int] | None]]  # weekday -> (leaf, open/close)
    week: Passage | None = None  # the whole opening-hours listing (cited for a missing day)
    closed: frozenset[int] = frozenset()  # weekdays whose hours say closed ("closed")
    missing_closed: bool = False  # a day the listing lacks is closed (business_listings)


@dataclass(frozen=True)
class Conflict:
    """A record field a claim contradicts, and the passage a reviewer is shown for it."""

    passage: Passage
    field: str  # 'attributes.RestaurantsTakeOut = false', or 'no hours.Sunday'


def record_facts(
    doc: DocumentIndex,
    generic: frozenset[str] = GENERIC_KEY_STEMS,
    affirming: frozenset[str] = _AFFIRMING,
) -> RecordFacts:
    """The checkable facts of one indexed document (empty for prose): `generic` key stems
    name no field, `affirming` values affirm theirs."""
    fields, hours, closed = [], {}, set()
    for p in doc.passages:
        leaf = p.leaf
        if leaf is None or leaf.unknown:
            continue
        key = leaf.key_words().split()
        day = weekday(key[0]) if key else None
        if day is not None and isinstance(leaf.value, str):
            hours[day] = (p, opening_of(leaf.value))
            if says_closed(leaf.value):
                closed.add(day)
        elif _is_flag(leaf, affirming):
            fields.append(_field(p, leaf, generic))
    week = _week(doc, [p for p, _ in hours.values()])
    return RecordFacts(tuple(fields), hours, week, frozenset(closed))


def _week(doc: DocumentIndex, days: list[Passage]) -> Passage | None:
    """One passage spanning every listed day, cited when a claim opens on a missing day."""
    if not days:
        return None
    start, end = min(p.start for p in days), max(p.end for p in days)
    return make_passage(doc.doc_id, start, end, doc.text[start:end], days[0].section)


def _is_flag(leaf: Leaf, affirming: frozenset[str]) -> bool:
    """A field whose value affirms or denies its key (true/false, yes/no/none)."""
    v = leaf.value
    return isinstance(v, bool) or leaf.negative or str(v).strip().lower() in affirming


def _field(p: Passage, leaf: Leaf, generic: frozenset[str]) -> Field:
    keys = leaf.keys
    own_parts = [w.lower() for w in key_parts(keys[-1])]
    specific = [w for w in own_parts if stem(w) not in generic]
    parents = key_parts(keys[-2]) if len(keys) > 2 else []
    return Field(
        passage=p,
        own=frozenset(stem(w) for w in specific),
        joined=frozenset({"".join(own_parts), "".join(specific)} - {""}),
        parent=frozenset(stem(w.lower()) for w in parents) - generic,
        positive=not leaf.negative,
    )


@per_index
def case_facts(index: EvidenceIndex) -> RecordFacts:
    """All records of a case together, by the core conventions (any JSON schema)."""
    return _merged([record_facts(d) for d in index.docs])


@per_index
def listing_facts(index: EvidenceIndex) -> RecordFacts:
    """All records of a case by the business_listings pack's conventions."""
    generic, affirming = GENERIC_KEY_STEMS | LISTING_KEY_STEMS, _AFFIRMING | LISTING_AFFIRMING
    return _merged([record_facts(d, generic, affirming) for d in index.docs], True)


def _merged(parts: list[RecordFacts], missing_closed: bool = False) -> RecordFacts:
    hours = {k: v for p in parts for k, v in p.hours.items()}  # a later record's day wins
    return RecordFacts(
        tuple(f for p in parts for f in p.fields),
        hours,
        next((p.week for p in parts if p.week), None),
        frozenset(d for p in parts for d in p.closed if hours[d] is p.hours[d]),
        missing_closed,
    )


def record_conflicts(text: str, tokens: tuple[str, ...], facts: RecordFacts) -> list[Conflict]:
    """Record fields the claim contradicts: flags it turns around, or opening hours it gets
    wrong. Each is returned as the field's passage, the evidence a reviewer is shown."""
    if not facts.fields and not facts.hours:
        return []
    if _REPORTED.search(text):
        return _hours_conflicts(text, facts)  # what a reviewer said, not the record's flags
    words = _ClaimWords.of(text, tokens)
    out = [Conflict(f.passage, describe(f.passage)) for f in facts.fields if _contradicts(f, words)]
    return out + _hours_conflicts(text, facts)


#: A claim that reports what a customer or reviewer said ("another customer mentioned that
#: they booked it for casual events") speaks of that review, not of the record's yes/no
#: fields ("Ambience.casual: false" describes the place, not the events a guest held there).
_REPORTED = re.compile(
    r"\b(?:customers?|reviewers?|guests?|diners?|patrons?|visitors?|users?)\s+(?:also\s+)?"
    r"(?:mentioned|mentions|said|says|noted|notes|stated|states|reported|reports|wrote|writes|"
    r"commented|comments|recalled|recalls|shared|shares)\b",
    re.I,
)


@dataclass(frozen=True)
class _ClaimWords:
    """A claim's words in the forms field keys are matched against, computed once per
    claim rather than once per field of the record."""

    text: str
    stems: tuple[str, ...]  # the stem of each token
    stem_set: frozenset[str]
    pairs: tuple[str, ...]  # each token joined to the next ("take" + "out")
    forms: frozenset[str]  # tokens and joined pairs
    denied: frozenset[int]

    @classmethod
    def of(cls, text: str, tokens: tuple[str, ...]) -> _ClaimWords:
        pairs = tuple(a + b for a, b in zip(tokens, tokens[1:], strict=False))
        stems = tuple(stem(t) for t in tokens)
        return cls(
            text,
            stems,
            frozenset(stems),
            pairs,
            frozenset(tokens) | frozenset(pairs),
            frozenset(denied_positions(tokens, _clause_starts(text, tokens))),
        )


#: Words that open a clause of its own after a comma ("…don't offer WiFi, they do feature
#: outdoor seating"; "Despite no street parking, a lot is available"): the denial ends there.
_CLAUSE_OPENERS = frozenset("they it we you he she there this these a an the its their".split())
_LIST_ITEM_WORDS = 3


def _clause_starts(text: str, tokens: tuple[str, ...]) -> frozenset[int]:
    """Token positions right after a comma that open a new clause (a list goes on: "no
    Wi-Fi, outdoor seating, or valet")."""
    if "," not in text:
        return frozenset()
    out, at = set(), 0
    for piece in text.split(","):
        words = tokenize(piece)
        # An article opens a clause ("a lot is available"), or a short item of a list ("not
        # street parking, a lot, or valet"), which the denial before it still reaches.
        item = words[:1] in (["a"], ["an"], ["the"]) and len(words) <= _LIST_ITEM_WORDS
        if (
            at
            and words
            and words[0] in _CLAUSE_OPENERS
            and not item
            and tokens[at : at + 1] == (words[0],)
        ):
            out.add(at)
        at += len(words)
    return frozenset(out)


def denied_positions(tokens: tuple[str, ...], ends: frozenset[int] = frozenset()) -> set[int]:
    """Token positions a negation denies: up to a few words after the cue (to the end of
    the clause), and the subject of 'X is not available'. "Rather than trendy" and
    "instead of takeout" deny too."""
    out: set[int] = set()
    for i, tok in enumerate(tokens):
        contrast = tokens[i : i + 2] in (("rather", "than"), ("instead", "of"))
        if not (is_negation(tok) or contrast):
            continue
        first = i + 2 if contrast else i + 1
        for j in range(first, min(first + _SCOPE, len(tokens))):
            if (tokens[j] in _SCOPE_ENDS and j > i + 1) or j in ends:  # "not, however,"
                break
            out.add(j)
        if i + 1 < len(tokens) and tokens[i + 1] in _DENIED_AFTER:
            out.update(range(max(0, i - 4), i))
    return out


def _contradicts(f: Field, w: _ClaimWords) -> bool:
    named = bool(f.own) and f.own <= w.stem_set or bool(f.joined & w.forms)
    if not named:
        return False
    if f.parent and not f.parent & w.stem_set:
        # Without its parent, a nested key must be a distinctive word the claim writes in
        # lower case: "lot" (of parking) or "street" in "State Street" is not about parking.
        if any(len(x) < _DISTINCT_LEN for x in f.own) or not _lowercase_in(f.own, w.text):
            return False
    keys = f.keys
    at = [i for i, s in enumerate(w.stems) if s in keys]
    at += [i for i, pair in enumerate(w.pairs) if pair in f.joined]
    if not at and f.own <= w.stem_set:
        # Named word by word ("dogs are not allowed" for "DogsAllowed"): the field stands
        # where its words do. Without any place, no negation could be read, and every
        # false field the claim named was a conflict, whatever the claim said.
        at = [i for i, s in enumerate(w.stems) if s in f.own]
        if len({i in w.denied for i in at}) > 1:
            return False  # "no indoor seating, but outdoor tables": another thing is denied
    return bool(at) and any(i in w.denied for i in at) == f.positive


def _lowercase_in(own: frozenset[str], text: str) -> bool:
    words = re.findall(r"[A-Za-z]+", text)
    return all(any(stem(w) == s and w.islower() for w in words) for s in own)


def hours_confirmed(text: str, facts: RecordFacts) -> bool:
    """The claim gives opening hours and the records' week agrees with every day it names."""
    return bool(facts.hours) and hours_agree(
        text, _open_week(facts), facts.closed, facts.missing_closed
    )


def week_states(text: str, minute: int, facts: RecordFacts) -> bool:
    """A clock time (minutes after midnight) of a claim about opening hours that the
    records' week gives on a day the claim names, or on any day when it names none ("open
    all week, until 1:30 am"): each day is a field of its own, which the claim's words do
    not point to."""
    if not facts.hours or not speaks_of_opening(text):
        return False
    days = claimed_days(text) or set(facts.hours)
    return any(o is not None and minute in o for d, (_, o) in facts.hours.items() if d in days)


def _open_week(facts: RecordFacts) -> dict[int, tuple[int, int] | None]:
    return {d: opening for d, (_, opening) in facts.hours.items() if d not in facts.closed}


def _hours_conflicts(text: str, facts: RecordFacts) -> list[Conflict]:
    """The claim's wrong opening days as conflicts: the day's field, or the whole listing
    for a day it leaves out."""
    if not facts.hours:
        return []
    week = _open_week(facts)
    out = []
    for d in wrong_days(text, week, facts.closed, facts.missing_closed):
        if d in facts.hours:
            out.append(Conflict(facts.hours[d][0], describe(facts.hours[d][0])))
        elif facts.week is not None:
            out.append(Conflict(facts.week, f"no hours.{DAY_NAMES[d]}"))
    return out[:3]


def unlisted_hours(text: str, facts: RecordFacts) -> list[str]:
    """'hours.Sunday' for each day the claim gives times for that the listing leaves out,
    when no pack reads a missing day as closed (then it is a conflict, `_hours_conflicts`)."""
    if not facts.hours or facts.missing_closed:
        return []
    listed = {d: opening for d, (_, opening) in facts.hours.items()}
    return [f"hours.{DAY_NAMES[d]}" for d in unlisted_days(text, listed)]


def describe(passage: Passage) -> str:
    """A record field as the record writes it: 'attributes.RestaurantsTakeOut = false'."""
    leaf = passage.leaf
    if leaf is None:
        return passage.text
    return f"{'.'.join(leaf.path)} = {json.dumps(leaf.value)}"
