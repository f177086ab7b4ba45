"""Truth-changing transforms of values: a number, unit, date, weekday or time changed, or a
bound turned round ('under' -> 'over', 'at least' -> 'at most', 'before' -> 'after').

The judge should never find these SUPPORTED: the sources state another value.
"""

from __future__ import annotations

import re

from .transform import Source, Transform, replace_first

_NUMBER = re.compile(r"(?<![\w.,:/-])(\d{1,3}(?:,\d{3})*|\d+)(\.\d+)?(?![\w/]|[.,:]\d)")
_YEAR = re.compile(r"^(1[89]|20)\d\d$")


def _other_number(n: int, document: str) -> int | None:
    """A nearby number the document never states (so no passage backs it by chance)."""
    for cand in (n + 1, n * 2, n + 3, n + 7, max(n - 1, 0)):
        if cand != n and not re.search(rf"(?<![\d.,]){cand}(?![\d])", document):
            return cand
    return None


def number_changed(s: Source) -> str | None:
    """The first number (not a year) replaced by one the document never states."""
    for m in _NUMBER.finditer(s.sentence):
        digits = m.group(1).replace(",", "")
        if _YEAR.match(digits) or m.group(2):
            continue
        new = _other_number(int(digits), s.document)
        if new is not None:
            return s.sentence[: m.start()] + str(new) + s.sentence[m.end() :]
    return None


_UNIT_SWAPS = [
    ("days", "weeks"),
    ("day", "week"),
    ("weeks", "months"),
    ("week", "month"),
    ("months", "years"),
    ("month", "year"),
    ("years", "months"),
    ("hours", "days"),
    ("hour", "day"),
    ("minutes", "hours"),
    ("minute", "hour"),
    ("mg", "g"),
    ("kg", "g"),
    ("ml", "l"),
    ("km", "miles"),
]
_COUNTED_UNIT = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
    r"(\s*-?\s*)(" + "|".join(u for u, _ in _UNIT_SWAPS) + r")\b",
    re.I,
)


def unit_changed(s: Source) -> str | None:
    """The unit of a counted quantity changed ('14 days' -> '14 weeks')."""
    m = _COUNTED_UNIT.search(s.sentence)
    if m is None:
        return None
    new = dict(_UNIT_SWAPS)[m.group(3).lower()]
    return s.sentence[: m.start(3)] + new + s.sentence[m.end(3) :]


_MONTHS = (
    "January February March April May June July August September October November December"
).split()
_MONTH = re.compile(r"\b(" + "|".join(_MONTHS) + r")\b")
_YEAR_IN_TEXT = re.compile(r"(?<![\w.,])((?:19|20)\d\d)(?![\w])")


def date_changed(s: Source) -> str | None:
    """A month moved on by three, or else a year moved on by one."""
    m = _MONTH.search(s.sentence)
    if m:
        new = _MONTHS[(_MONTHS.index(m.group(1)) + 3) % 12]
        return s.sentence[: m.start()] + new + s.sentence[m.end() :]
    m = _YEAR_IN_TEXT.search(s.sentence)
    if m:
        return s.sentence[: m.start()] + str(int(m.group(1)) + 1) + s.sentence[m.end() :]
    return None


_DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_DAY = re.compile(r"\b(" + "|".join(_DAYS) + r")(s?)\b")


def weekday_changed(s: Source) -> str | None:
    """A weekday moved on by two ('Monday' -> 'Wednesday')."""
    m = _DAY.search(s.sentence)
    if m is None:
        return None
    new = _DAYS[(_DAYS.index(m.group(1)) + 2) % 7] + m.group(2)
    return s.sentence[: m.start()] + new + s.sentence[m.end() :]


_TIME = re.compile(r"\b(\d{1,2})(?::(\d\d))?\s*([ap])\.?m\.?\b|\b(\d{1,2}):(\d\d)\b", re.I)


def time_changed(s: Source) -> str | None:
    """A clock time moved by two hours ('9am' -> '11am', '17:30' -> '19:30')."""
    m = _TIME.search(s.sentence)
    if m is None:
        return None
    group = 1 if m.group(3) else 4
    hour = int(m.group(group))
    new = (hour + 1) % 12 + 1 if m.group(3) else (hour + 2) % 24  # two hours later
    return s.sentence[: m.start(group)] + str(new) + s.sentence[m.end(group) :]


BOUND_SWAPS: list[tuple[str, str]] = [
    ("no more than", "no less than"),
    ("no less than", "no more than"),
    ("not more than", "not less than"),
    ("at least", "at most"),
    ("at most", "at least"),
    ("more than", "less than"),
    ("less than", "more than"),
    ("fewer than", "more than"),
    ("up to", "at least"),
    ("a maximum of", "a minimum of"),
    ("a minimum of", "a maximum of"),
    ("under", "over"),
    ("over", "under"),
    ("above", "below"),
    ("below", "above"),
    ("before", "after"),
    ("after", "before"),
    ("earlier than", "later than"),
    ("later than", "earlier than"),
]


def bound_reversed(s: Source) -> str | None:
    """A bound turned round ('under 12' -> 'over 12', 'before' -> 'after'); 'up to' only
    before a number ('stepping up to the tee' bounds nothing)."""
    swaps = BOUND_SWAPS
    if not _UP_TO_NUMBER.search(s.sentence):
        swaps = [(old, new) for old, new in BOUND_SWAPS if old != "up to"]
    return replace_first(s.sentence, swaps)


_UP_TO_NUMBER = re.compile(r"\bup\s+to\s+(?:[$£€]\s?)?(?:\d|a\b|an\b|one\b|two\b|three\b)", re.I)


VALUES = [
    Transform(
        "number_changed", "value", False, "A number replaced by an unstated one.", number_changed
    ),
    Transform(
        "unit_changed", "value", False, "A quantity's unit changed (days -> weeks).", unit_changed
    ),
    Transform("date_changed", "value", False, "A month or year changed.", date_changed),
    Transform("weekday_changed", "value", False, "A weekday changed.", weekday_changed),
    Transform("time_changed", "value", False, "A clock time moved by two hours.", time_changed),
    Transform(
        "bound_reversed",
        "bound",
        False,
        "under/over, at least/at most, before/after.",
        bound_reversed,
    ),
]
