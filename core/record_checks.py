"""Claims checked against the fields of a structured (JSON) record, not against passages.

Retrieval hands the alignment the passages that share most words with a claim, and for a
record those are often reviews that mention "upscale" while the field that rules on it
("Ambience upscale: false") ranks lower. A data-to-text answer is wrong when it affirms a
field the record denies, denies one it affirms, or gives opening hours the record does not
have, so these are checked field by field, whatever retrieval ranked first.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .records import Leaf, key_parts
from .retrieval import Passage, make_passage
from .text import is_negation, stem, tokenize

if TYPE_CHECKING:  # pragma: no cover
    from .retrieval import DocumentIndex, EvidenceIndex

# Key words too generic to say which field a claim is about ("RestaurantsGoodForKids").
_GENERIC = frozenset(stem(w) for w in "restaurants business good for has is attribute".split())
# A nested key this short or common ("lot", "live", "dj") needs its parent ("parking").
_DISTINCT_LEN = 6

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_WORD = {d: i for i, d in enumerate(_DAYS)} | {d + "s": i for i, d in enumerate(_DAYS)}
_DAY_ABBR = {d[:3].title(): i for i, d in enumerate(_DAYS)} | {"Tues": 1, "Thur": 3, "Thurs": 3}
_DAY = re.compile(
    r"\b(?:(?P<word>(?:mon|tues|wednes|thurs|fri|satur|sun)days?)|(?P<abbr>(?-i:Mon|Tues?|Wed|"
    r"Thu(?:rs?)?|Fri|Sat|Sun))\b\.?|(?P<group>weekdays?|weekends?|every ?day|daily|"
    r"seven days|7 days|all week))\b",
    re.I,
)
_RANGE_JOIN = re.compile(r"^\s*(?:-|–|to|through|thru|until)\s*$", re.I)
_TIME = re.compile(
    r"\b(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ampm>[ap]\.?\s?m\b\.?)|"
    r"\b(?P<h24>\d{1,2}):(?P<m24>\d{2})\b|\b(?P<word>noon|midday|midnight)\b",
    re.I,
)
_HOURS_VALUE = re.compile(r"^\s*(\d{1,2}):(\d{1,2})\s*-\s*(\d{1,2}):(\d{1,2})\s*$")
_CLOSED_WORDS = frozenset({"closed", "close"})
_AFFIRMING = frozenset({"yes", "true", "free", "paid", "full_bar", "beer_and_wine"})
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


@dataclass(frozen=True)
class RecordFacts:
    """The fields and opening hours of a case's records, extracted once per document."""

    fields: tuple[Field, ...]
    hours: dict[int, tuple[Passage, tuple[int, int] | None]]  # weekday -> (leaf, open/close)
    week: Passage | None = None  # the whole opening-hours listing: a day it lacks is closed


@dataclass(frozen=True)
class Conflict:
    """A record field a claim contradicts, and the passage a reviewer is shown for it."""

    passage: Passage
    field: str  # 'attributes.RestaurantsTakeOut = false', or 'no hours.Sunday'


def record_facts(doc: DocumentIndex) -> RecordFacts:
    """The checkable facts of one indexed document (empty for prose)."""
    fields, hours = [], {}
    for p in doc.passages:
        leaf = p.leaf
        if leaf is None or leaf.unknown:
            continue
        day = _DAY_WORD.get(leaf.key_words().split()[0].lower()) if leaf.key_words() else None
        if day is not None and isinstance(leaf.value, str):
            hours[day] = (p, _opening(leaf.value))
        elif _is_flag(leaf):
            fields.append(_field(p, leaf))
    return RecordFacts(tuple(fields), hours, _week(doc, [p for p, _ in hours.values()]))


def _week(doc: DocumentIndex, days: list[Passage]) -> Passage | None:
    """One passage spanning every listed day, cited when a claim opens on a missing day."""
    if not days:
        return None
    start, end = min(p.start for p in days), max(p.end for p in days)
    return make_passage(doc.doc_id, start, end, doc.text[start:end], days[0].section)


def _is_flag(leaf: Leaf) -> bool:
    """A field whose value affirms or denies its key (true/false, yes/no/none, 'free')."""
    v = leaf.value
    return isinstance(v, bool) or leaf.negative or str(v).strip().lower() in _AFFIRMING


def _field(p: Passage, leaf: Leaf) -> Field:
    keys = [k for k in leaf.path if not k.isdigit()]
    own_parts = [w.lower() for w in key_parts(keys[-1])]
    parents = key_parts(keys[-2]) if len(keys) > 2 else []
    parent = frozenset(stem(w.lower()) for w in parents) - _GENERIC
    return Field(
        passage=p,
        own=frozenset(stem(t) for t in own_parts) - _GENERIC,
        joined=frozenset({"".join(own_parts), "".join(t for t in own_parts if stem(t) not in
                                                      _GENERIC)} - {""}),
        parent=parent,
        positive=not leaf.negative,
    )


def _opening(value: str) -> tuple[int, int] | None:
    """'11:30-22:0' -> (690, 1320) minutes; None when closed ('0:0-0:0')."""
    m = _HOURS_VALUE.match(value)
    if not m:
        return None
    h1, m1, h2, m2 = (int(g) for g in m.groups())
    if h1 == m1 == h2 == m2 == 0:
        return None
    return (h1 * 60 + m1) % 1440, (h2 * 60 + m2) % 1440


_FACTS: dict[int, tuple[EvidenceIndex, RecordFacts]] = {}


def case_facts(index: EvidenceIndex) -> RecordFacts:
    """All records of a case together (memoised per evidence index)."""
    hit = _FACTS.get(id(index))
    if hit is not None and hit[0] is index:
        return hit[1]
    parts = [record_facts(d) for d in index.docs]
    facts = RecordFacts(
        tuple(f for p in parts for f in p.fields),
        {k: v for p in parts for k, v in p.hours.items()},
        next((p.week for p in parts if p.week), None),
    )
    if len(_FACTS) > 4096:
        _FACTS.clear()
    _FACTS[id(index)] = (index, facts)
    return facts


def record_conflicts(text: str, tokens: tuple[str, ...], facts: RecordFacts) -> list[Conflict]:
    """Record fields the claim contradicts: flags it turns around, or opening hours it gets
    wrong. Each is returned as the field's passage, the evidence a reviewer is shown."""
    if not facts.fields and not facts.hours:
        return []
    denied = denied_positions(tokens)
    out = [
        Conflict(f.passage, describe(f.passage))
        for f in facts.fields
        if _contradicts(f, text, tokens, denied)
    ]
    return out + _hours_conflicts(text, facts)


def denied_positions(tokens: tuple[str, ...]) -> set[int]:
    """Token positions a negation denies: up to a few words after the cue (to the end of
    the clause), and the subject of 'X is not available'."""
    out: set[int] = set()
    for i, tok in enumerate(tokens):
        if not is_negation(tok):
            continue
        for j in range(i + 1, min(i + 1 + _SCOPE, len(tokens))):
            if tokens[j] in _SCOPE_ENDS:
                break
            out.add(j)
        if i + 1 < len(tokens) and tokens[i + 1] in _DENIED_AFTER:
            out.update(range(max(0, i - 4), i))
    return out


def _contradicts(f: Field, text: str, tokens: tuple[str, ...], denied: set[int]) -> bool:
    stems = {stem(t) for t in tokens}
    joined = {a + b for a, b in zip(tokens, tokens[1:], strict=False)} | set(tokens)
    named = bool(f.own) and f.own <= stems or bool(f.joined & joined)
    if not named:
        return False
    if f.parent and not f.parent & stems:
        # Without its parent, a nested key must be a distinctive word the claim writes in
        # lower case: "lot" (of parking) or "street" in "State Street" is not about parking.
        if any(len(w) < _DISTINCT_LEN for w in f.own) or not _lowercase_in(f.own, text):
            return False
    keys = f.own | {stem(w) for w in f.joined}
    at = [i for i, t in enumerate(tokens) if stem(t) in keys]
    at += [i for i, (a, b) in enumerate(zip(tokens, tokens[1:], strict=False)) if a + b in f.joined]
    return any(i in denied for i in at) == f.positive


def _lowercase_in(own: frozenset[str], text: str) -> bool:
    words = re.findall(r"[A-Za-z]+", text)
    return all(any(stem(w) == s and w.islower() for w in words) for s in own)


def _hours_conflicts(text: str, facts: RecordFacts) -> list[Conflict]:
    """Days the claim says are open (or closed) that the record says otherwise, and times
    the record does not give for the days they are said of. Each day is judged by the
    narrowest part of the claim that names it ('daily 11-9, Fridays until 10'); a day the
    listing leaves out is closed."""
    hours = facts.hours
    if not hours:
        return []
    statements = _hour_statements(text)
    wrong: list[Conflict] = []
    for d in range(7):
        said = [st for st in statements if d in st[0]]
        if not said:
            continue
        _, times, closed = min(said, key=lambda st: len(st[0]))
        if d not in hours:
            if not closed and facts.week is not None:
                wrong.append(Conflict(facts.week, f"no hours.{_DAYS[d].title()}"))
            continue
        passage, opening = hours[d]
        if opening is None:
            continue  # "0:0-0:0" reads as closed to some and as open all day to others
        if closed:
            bad = not times
        elif len(times) >= 2:
            bad = not set(opening) <= times
        else:
            bad = bool(times) and not times <= set(opening)
        if bad:
            wrong.append(Conflict(passage, describe(passage)))
    loose = {t for days, times, _ in statements if not days for t in times}
    known = {t for _, o in hours.values() if o for t in o}
    if loose and known and not loose <= known:
        listed = {c.passage for c in wrong}
        wrong.extend(
            Conflict(p, describe(p)) for p, o in hours.values() if o and p not in listed
        )
    return wrong[:3]


_SEGMENT = re.compile(r";|\band\b|\bbut\b|\bwhile\b|\bexcept\b", re.I)
_DAY_FILLER = re.compile(r"^[\s,]*(?:(?:on|from|to|through|thru|the|every|and|-|–)[\s,]*)*$", re.I)


def _hour_statements(text: str) -> list[tuple[set[int], set[int], bool]]:
    """(days, times, says closed) per part of the claim: 'Monday to Thursday 5-9 PM and
    Fridays until 10 PM' gives each day group its own times. A part that only lists days
    ('Fridays and Saturdays ... until 10 PM') lends them to the next part."""
    out: list[tuple[set[int], set[int], bool]] = []
    carried: set[int] = set()
    for part in _SEGMENT.split(text):
        days = claimed_days(part) | carried
        times = claimed_times(part)
        carried = set()
        if days and not times and _DAY_FILLER.match(_DAY.sub(" ", part)):
            carried = days
            continue
        closed = bool(_CLOSED_WORDS & set(tokenize(part)))
        if days or times:
            out.append((days, times, closed))
    if carried:
        out.append((carried, set(), False))
    return out


def claimed_days(text: str) -> set[int]:
    """Weekdays a claim names (0 = Monday), ranges ('Tuesday to Saturday') expanded."""
    found: list[tuple[int, int, set[int]]] = []
    for m in _DAY.finditer(text):
        found.append((m.start(), m.end(), _days_of(m)))
    days: set[int] = set()
    for i, (_, end, ds) in enumerate(found):
        days |= ds
        if i + 1 < len(found) and len(ds) == 1 and len(found[i + 1][2]) == 1:
            if _RANGE_JOIN.match(text[end : found[i + 1][0]]):
                a, b = next(iter(ds)), next(iter(found[i + 1][2]))
                days |= {(a + k) % 7 for k in range((b - a) % 7 + 1)}
    return days


def _days_of(m: re.Match[str]) -> set[int]:
    if m.group("word"):
        return {_DAY_WORD[m.group("word").lower()]}
    if m.group("abbr"):
        return {_DAY_ABBR[m.group("abbr")]}
    group = m.group("group").lower()
    if group.startswith("weekday"):
        return {0, 1, 2, 3, 4}
    if group.startswith("weekend"):
        return {5, 6}
    return set(range(7))


def claimed_times(text: str) -> set[int]:
    """Clock times a claim gives, in minutes after midnight ('9:30 PM' -> 1290)."""
    out = set()
    for m in _TIME.finditer(text):
        if m.group("word"):
            out.add(720 if m.group("word").lower() in {"noon", "midday"} else 0)
            continue
        h = int(m.group("h") or m.group("h24"))
        mins = int(m.group("m") or m.group("m24") or 0)
        if h > 24 or mins > 59:
            continue
        ampm = (m.group("ampm") or "").lower()
        if ampm.startswith("p") and h < 12:
            h += 12
        elif ampm.startswith("a") and h == 12:
            h = 0
        out.add((h * 60 + mins) % 1440)
    return out


def describe(passage: Passage) -> str:
    """A record field as the record writes it: 'attributes.RestaurantsTakeOut = false'."""
    leaf = passage.leaf
    if leaf is None:
        return passage.text
    return f"{'.'.join(leaf.path)} = {json.dumps(leaf.value)}"
