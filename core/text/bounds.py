"""Which way a number bounds what it counts: "under 12", "12 or over", "no more than 6".

"Children under 12 can take the tablets" holds every word and number of "Adults and children
over 12 years: take 1 or 2 tablets", yet says the opposite. Only the bound word differs, and
bound words are stop words, so the word-level alignment cannot see the change: it is read
here, beside the number it belongs to. So are the two ends of a range ("6-8 hours") and a
value that is the whole of its span ("24 hours a day": how often, not an amount).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, NamedTuple

from .quantities import Quantity

Bound = Literal["at most", "at least"]

_OPPOSITE: dict[Bound, Bound] = {"at most": "at least", "at least": "at most"}

# The phrase just before a number, longest first; "no more than" bounds as "under" does.
_BEFORE: dict[str, Bound] = {
    "no more than": "at most",
    "not more than": "at most",
    "no greater than": "at most",
    "no later than": "at most",
    "no less than": "at least",
    "not less than": "at least",
    "no fewer than": "at least",
    "not fewer than": "at least",
    "less than": "at most",
    "fewer than": "at most",
    "younger than": "at most",
    "up to": "at most",
    "at most": "at most",
    "a maximum of": "at most",
    "maximum of": "at most",
    "maximum": "at most",
    "under": "at most",
    "below": "at most",
    "more than": "at least",
    "greater than": "at least",
    "older than": "at least",
    "at least": "at least",
    "a minimum of": "at least",
    "minimum of": "at least",
    "minimum": "at least",
    "over": "at least",
    "above": "at least",
    "exceeding": "at least",
}
# The phrase just after it: "12 or over", "65 and above", "3 or fewer".
_AFTER_WORDS: dict[str, Bound] = {
    "more": "at least",
    "over": "at least",
    "above": "at least",
    "older": "at least",
    "greater": "at least",
    "less": "at most",
    "fewer": "at most",
    "under": "at most",
    "below": "at most",
    "younger": "at most",
}
_AFTER = {f"{joint} {w}": b for joint in ("or", "and") for w, b in _AFTER_WORDS.items()}


def _alternation(phrases: dict[str, Bound]) -> str:
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in sorted(phrases, key=len)[::-1])


_LAST_WORDS = tuple({p.split()[-1] for p in _BEFORE} | {"of"})  # "under the age of"
_BEFORE_RE = re.compile(rf"\b(?P<phrase>{_alternation(_BEFORE)})\s+(?:the\s+age\s+of\s+)?$", re.I)
_AFTER_RE = re.compile(rf"^(?:\s+years?)?(?:\s+old)?\s+(?P<phrase>{_alternation(_AFTER)})\b", re.I)
# "do not take more than 6": a negation just before the bound turns it round. "do not give
# to children under 12" keeps it: the bound there is the children's, not the dose's.
_NEGATED = re.compile(r"(?:\bnot|\bnever|n't)\s+(?:\w+\s+)?$", re.I)


class Bounded(NamedTuple):
    """A value's bound and how the text puts it ("over 12", "6 or fewer")."""

    direction: Bound
    phrase: str


@lru_cache(maxsize=65_536)
def bound(text: str, q: Quantity) -> Bounded | None:
    """The bound `text` puts on its quantity `q`, or None where it states the value as such.
    Memoised: a passage's values are read again for every claim of its case."""
    start = max(0, q.start - 40)
    head = text[start : q.start]
    value = text[q.start : q.end]
    # Most numbers have no bound: a suffix test skips the regex search for them.
    before = _BEFORE_RE.search(head) if head.rstrip().lower().endswith(_LAST_WORDS) else None
    if before:
        phrase = " ".join(before.group("phrase").lower().split())
        found = _BEFORE[phrase]
        negated = (
            None if phrase.startswith(("no ", "not ")) else _NEGATED.search(head[: before.start()])
        )
        # "not take more than 6" is shown whole: its bound is the negation's.
        shown = text[start + (negated or before).start() : q.end]
        return Bounded(_OPPOSITE[found] if negated else found, " ".join(shown.split()))
    tail = text[q.end : q.end + 30]
    after = _AFTER_RE.search(tail) if " or " in tail or " and " in tail else None
    if after:
        phrase = " ".join(after.group("phrase").lower().split())
        shown = text[q.start : q.end + after.end()]
        return Bounded(_AFTER[phrase], " ".join(shown.split()))
    if text[q.end : q.end + 1] == "+" and q.kind == "number":
        return Bounded("at least", value + "+")  # "ages 12+"
    return None


#: What joins the two ends of a range: "6-8 hours", "6 – 8", "6 to 8 hours".
_RANGE_JOIN = re.compile(r"\s*(?:-|–|—|to)\s*", re.I)


def range_of(text: str, q: Quantity, quantities: Sequence[Quantity]) -> tuple[Quantity, ...]:
    """The two ends, low first, of the range `q` is an end of ("6-8 hours": the 6 and the
    8 hours), or () when `q` stands alone. `quantities` are the text's, in order."""
    for other in quantities:
        low, high = (other, q) if other.end <= q.start else (q, other)
        if low is not high and _RANGE_JOIN.fullmatch(text, low.end, high.start):
            return low, high
    return ()


#: "seven days a week", "24 hours a day": how often, not a value a source states (the
#: opening-hours checks read which days a claim says).
_ALL_THE_TIME = re.compile(r"\s*(?:a|per|each)\s+(?P<span>week|day)\b", re.I)


#: The whole of each span, as a quantity's (unit, value) states it.
_WHOLE_SPAN = {"week": ("day", 7.0), "day": ("s", 86_400.0)}


def all_the_time(text: str, q: Quantity) -> bool:
    """The claim's value is the whole of the span after it ("seven days a week"), or it
    says "24/7": how often, as "24 hours a day / 7 days a week" does."""
    if q.kind == "ratio" and q.value == "24/7":
        return True
    m = _ALL_THE_TIME.match(text, q.end) if q.unit in ("day", "s") else None
    if m is None or q.kind != "number":
        return False
    return (q.unit, float(q.value)) == _WHOLE_SPAN[m.group("span").lower()]


#: "3.5 out of 5 stars", "rated 8 out of 10": the number before "out of" and its top.
_OUT_OF = re.compile(r"(?P<score>\d+(?:\.\d+)?)\s*(?:stars?\s+)?out\s+of\s*$", re.I)
_RATING_AFTER = re.compile(r"\s*-?\s*(?:stars?|points?)\b", re.I)
_RATED_BEFORE = re.compile(r"\brat(?:ed|ing|ings)\b", re.I)
#: The tops rating scales are read on.
_SCALE_TOPS = frozenset({5.0, 10.0, 100.0})


def scale_top(text: str, q: Quantity) -> bool:
    """The claim's value is the top of the scale a rating is read on ("3.5 out of 5
    stars", "a rating of 8 out of 10"): it says how to read the rating, not a value a source
    must state. A count is no rating ("3 out of 5 patients" keeps its 5)."""
    if q.kind != "number" or q.unit or float(q.value) not in _SCALE_TOPS:
        return False
    before = text[max(0, q.start - 60) : q.start]
    m = _OUT_OF.search(before)
    if m is None or float(m.group("score")) > float(q.value):
        return False
    return bool(
        "." in m.group("score")
        or _RATING_AFTER.match(text, q.end)
        or _RATED_BEFORE.search(before[: m.start()])
    )
