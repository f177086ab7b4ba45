"""A value in a slot of the restated sentence changed: a number, a date, a period, or how
strongly the sentence asserts ('must' for 'may', 'all' for 'some').

The same one-slot alignment as the name, actor and bound swaps (``swapped.replaced_slots``),
read for values rather than parties.
"""

from __future__ import annotations

from functools import lru_cache

from ....evidence.index import Passage
from ....text.words import MONTHS, WEEKDAYS
from ..features import ClaimFeatures
from .swapped import replaced_slots

#: How strongly a word asserts: a claim that says 'must' or 'all' where the sentence says
#: 'may' or 'some' states more than it (and the other way round, less); 'must' for 'should'
#: makes advice an obligation; 'need not' for 'must not' lifts a ban (no obligation
#: either way, where the sentence forbids).
_STRENGTH = {
    **dict.fromkeys("may might could can".split(), "possibly"),
    **dict.fromkeys("must mustn't always will shall".split(), "certainly"),
    **dict.fromkeys("need needn't".split(), "needed"),
    **dict.fromkeys("should ought".split(), "advisedly"),
    **dict.fromkeys("some several many few most".split(), "some"),
    **dict.fromkeys("all every each none".split(), "all"),
}


def strength_changed(c: ClaimFeatures, p: Passage) -> str | None:
    """'CLAIM's word for PASSAGE's' when the claim asserts more or less strongly than the
    sentence it restates, in the same slot ('must' for 'may', 'all' for 'some')."""
    return _strength_changed(tuple(c.tokens), p.tokens)


@lru_cache(maxsize=50_000)
def _strength_changed(claim: tuple[str, ...], passage: tuple[str, ...]) -> str | None:
    for slot in replaced_slots(claim, passage, 2):
        got, had = _strength_word(slot[0]), _strength_word(slot[1])
        new, old = _STRENGTH.get(got), _STRENGTH.get(had)
        if (
            new
            and old
            and new != old
            and {new, old}
            in (
                {"possibly", "certainly"},
                {"advisedly", "certainly"},
                {"needed", "certainly"},
                {"some", "all"},
            )
        ):
            return f"'{' '.join(slot[0])}' for '{' '.join(slot[1])}'"
    return None


def _strength_word(run: tuple[str, ...]) -> str:
    """The one word of a slot that says how strongly: 'have to' is 'must'; the 'that' a
    slot takes along ('anything that may violate') is not it."""
    words = run[1:] if len(run) > 1 and run[0] == "that" else run
    if len(words) == 2 and words[1] == "to" and words[0] in ("have", "has", "had"):
        return "must"
    return words[0] if len(words) == 1 else ""


def swapped_number(c: ClaimFeatures, p: Passage) -> str | None:
    """'CLAIM's number for PASSAGE's' when the claim puts another number in the slot of
    one of the sentence it restates ('48 hours' for '24 hours'). The claim's words are
    read whole, the source it credits too ('According to an April 7 obituary'), as the
    passage's are."""
    return _number_changed(c.words, p.tokens)


@lru_cache(maxsize=50_000)
def _number_changed(claim: tuple[str, ...], passage: tuple[str, ...]) -> str | None:
    for slot in replaced_slots(claim, passage, 1):
        got, had = slot[0][-1], slot[1][-1]  # the value, not a determiner before it
        new, old = _number(got), _number(had)
        if _other_day(got, had) or _other_unit(got, had):
            pass  # 'October' for 'July', 'six-month' for 'six-week': another value
        elif new is None or old is None or new == old:
            continue
        elif _short_form(got, had):
            continue
        if claim.count(got) <= passage.count(got):
            # The sentence's own other value: which goes with which is not a slot, unless
            # the claim states it once more, in the slot of another ('the 2017 winner, and
            # ... the 2017 winner' for '2016 ... 2017').
            continue
        return f"'{got}' for '{had}'"
    return None


_CALENDAR = (MONTHS, WEEKDAYS)


def _day(word: str) -> str:
    """A weekday said of every week ('Fridays') as the day."""
    return word[:-1] if word.endswith("s") and word[:-1] in WEEKDAYS else word


def _other_day(a: str, b: str) -> bool:
    """Two different months, or two different weekdays ('Monday's' and 'Mondays' are
    Monday); 'may' in the slot of a month is the month (no modal stands where a month
    stood)."""
    a, b = (_day(w.removesuffix("'s")) for w in (a, b))
    if "may" in (a, b) and (a in MONTHS or b in MONTHS):
        return a != b
    return a != b and any(a in names and b in names for names in _CALENDAR)


def _other_unit(a: str, b: str) -> bool:
    """Two periods of time written out ('six-month' for 'six-week', 'one-day' for
    'one-week'; a slot of one word: the count before it matches)."""
    return a.removesuffix("s") != b.removesuffix("s") and {a, b} <= _PERIODS


#: Periods written out, singular and plural (an abbreviation such as 'min' or 'wk' is the
#: same period written otherwise, so none is here).
_PERIODS = frozenset(
    w + s
    for w in "second minute hour day week fortnight month year decade".split()
    for s in ("", "s")
)


def _short_form(a: str, b: str) -> bool:
    """A year and its short form ('2001-07' for '2001-2007'): the same year."""
    return a.endswith(b) or b.endswith(a)


def _number(token: str) -> float | None:
    try:
        return float(token.replace(",", ""))
    except ValueError:
        return None
