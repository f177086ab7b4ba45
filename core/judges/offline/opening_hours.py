"""Opening hours: which days and clock times a claim gives, checked against a record's week.

Data-to-text answers restate business hours ("open Tuesday to Saturday from noon to 9 PM"),
and getting one day wrong is a hallucination a word-overlap check cannot see: the numbers
all occur somewhere in the listing. Kept apart from record_checks.py, which maps the wrong
days back to the record fields a reviewer is shown.
"""

from __future__ import annotations

import re

from ...text.words import WEEK as _DAYS
from ...text.words import content_stems, tokenize

_DAY_WORD = {d: i for i, d in enumerate(_DAYS)} | {d + "s": i for i, d in enumerate(_DAYS)}
_DAY_ABBR = {d[:3].title(): i for i, d in enumerate(_DAYS)} | {"Tues": 1, "Thur": 3, "Thurs": 3}
_DAY = re.compile(
    r"\b(?:(?P<word>(?:mon|tues|wednes|thurs|fri|satur|sun)days?)|(?P<abbr>(?-i:Mon|Tues?|Wed|"
    r"Thu(?:rs?)?|Fri|Sat|Sun))\b\.?|(?P<group>weekdays?|weekends?|every ?day|daily|"
    r"seven days|7 days|all week))\b",
    re.I,
)
_ABBR_AS_DAY = re.compile(r"\.?\s*(?:[-–,:;/&]|\d|to\b|through\b|thru\b|and\b|$)", re.I)
_RANGE_JOIN = re.compile(r"^\s*(?:-|–|to|through|thru|until)\s*$", re.I)
_TIME = re.compile(
    r"\b(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ampm>[ap]\.?\s?m\b\.?)|"
    r"\b(?P<h24>\d{1,2}):(?P<m24>\d{2})\b|\b(?P<word>noon|midday|midnight)\b",
    re.I,
)
DAY_NAMES = tuple(d.title() for d in _DAYS)
_HOURS_VALUE = re.compile(r"^\s*(\d{1,2}):(\d{1,2})\s*-\s*(\d{1,2}):(\d{1,2})\s*$")
_CLOSED_WORDS = frozenset({"closed", "close"})
#: Words that make a time said of no day an opening hour ("opens at 9 AM", "hours 9-5").
_OPENING_WORDS = (
    frozenset("open opens opened opening closes closing hours operates operating operate".split())
    | _CLOSED_WORDS
)


def weekday(word: str) -> int | None:
    """'Monday' / 'mondays' -> 0; None for any other word."""
    return _DAY_WORD.get(word.lower())


def opening_of(value: str) -> tuple[int, int] | None:
    """An opening-hours value as (open, close) minutes after midnight: '11:30-22:0',
    '09:00–17:00', '9am-5pm', '9:30 a.m. to 5 p.m.'; None for anything else or '0:0-0:0'."""
    m = _HOURS_VALUE.match(value)
    if m:
        h1, m1, h2, m2 = (int(g) for g in m.groups())
        if h1 == m1 == h2 == m2 == 0:
            return None
        return (h1 * 60 + m1) % 1440, (h2 * 60 + m2) % 1440
    times = list(_TIME.finditer(value))
    if len(times) != 2 or value[: times[0].start()].strip():
        return None
    if not _RANGE_JOIN.match(value[times[0].end() : times[1].start()]):
        return None
    if value[times[1].end() :].strip():
        return None
    start, end = (_minutes(t) for t in times)
    if start is None or end is None:
        return None
    return start, end


def says_closed(value: str) -> bool:
    """An opening-hours value that gives no times and says the day is closed ('closed',
    'Closed all day'): a day that is closed, not one whose hours are unknown."""
    return bool(_CLOSED_WORDS & set(tokenize(value))) and not claimed_times(value)


def _minutes(m: re.Match[str]) -> int | None:
    """One clock time in minutes after midnight ('9:30 PM' -> 1290); None if impossible."""
    if m.group("word"):
        return 720 if m.group("word").lower() in {"noon", "midday"} else 0
    h = int(m.group("h") or m.group("h24"))
    mins = int(m.group("m") or m.group("m24") or 0)
    if h > 24 or mins > 59:
        return None
    ampm = (m.group("ampm") or "").lower()
    if ampm.startswith("p") and h < 12:
        h += 12
    elif ampm.startswith("a") and h == 12:
        h = 0
    return (h * 60 + mins) % 1440


#: The words of an opening-hours statement: a record's week says them when it agrees with
#: the claim (its fields hold one day each, so word overlap finds only a day at a time).
HOURS_STEMS = frozenset(
    content_stems(
        tokenize(
            " ".join([*_DAY_WORD, *sorted(_OPENING_WORDS)])
            + " weekday weekdays weekend weekends daily am pm noon midnight operated till until"
        )
    )
)


def speaks_of_opening(text: str) -> bool:
    """The claim speaks of opening hours ("opens", "closes", "hours", "operates")."""
    return not _OPENING_WORDS.isdisjoint(tokenize(text))


def hours_agree(
    text: str,
    week: dict[int, tuple[int, int] | None],
    closed_days: frozenset[int] = frozenset(),
    missing_closed: bool = False,
) -> bool:
    """The claim gives opening hours (a day with a time, or a time of no day and opening
    words) and the record's week has hours for every day it gives a time for, none of them
    wrong (arguments as for `wrong_days`)."""
    statements = _hour_statements(text)
    timed = {d for days, times, _ in statements if times for d in days}
    # Times said of no day ("open all week, until 1:30 am") must each be one of the week's.
    loose = any(times and not days for days, times, _ in statements) and speaks_of_opening(text)
    # Days without times ("open from Tuesday to Sunday") agree when they are the week's own
    # (its days with hours; "0:0-0:0" is undecided).
    untimed = {d for days, times, shut in statements if not times and not shut for d in days}
    open_days = {d for d, hours in week.items() if hours is not None}
    every_day = bool(untimed) and untimed == open_days and speaks_of_opening(text)
    return (
        (bool(timed) or loose or every_day)
        and timed <= set(week)
        and not wrong_days(text, week, closed_days, missing_closed)
    )


def wrong_days(
    text: str,
    week: dict[int, tuple[int, int] | None],
    closed_days: frozenset[int] = frozenset(),
    missing_closed: bool = False,
) -> list[int]:
    """Weekdays (0 = Monday) whose opening hours the claim gets wrong, given the record's
    week (day -> opening and closing minute; None when undecided), the days it says are
    closed, and whether a day missing from the listing is closed (the business_listings
    pack's convention; otherwise such a day is unknown). Each day is judged by the narrowest
    part of the claim naming it ('daily 11-9, Fridays until 10'); times said of no day must
    be among the record's."""
    if not week:
        return []
    statements = _hour_statements(text)
    wrong: list[int] = []
    for d in range(7):
        said = [st for st in statements if d in st[0]]
        if not said:
            continue
        _, times, closed = min(said, key=lambda st: len(st[0]))
        if d not in week:
            if not closed and (d in closed_days or missing_closed):
                wrong.append(d)
            continue
        opening = week[d]
        if opening is None:
            continue  # "0:0-0:0" reads as closed to some and as open all day to others
        if closed:
            bad = not times
        elif len(times) >= 2:
            bad = not set(opening) <= times
        else:
            bad = bool(times) and not times <= set(opening)
        if bad:
            wrong.append(d)
    loose = {t for days, times, _ in statements if not days for t in times}
    if not speaks_of_opening(text):
        loose = set()  # "outdoor seating from 8 AM" gives the time of something else
    known = {t for o in week.values() if o for t in o}
    if loose and known and not loose <= known:
        wrong += [d for d, o in week.items() if o and d not in wrong]
    return wrong


def unlisted_days(text: str, week: dict[int, tuple[int, int] | None]) -> list[int]:
    """Weekdays the claim gives opening times for that the record's week leaves out ("open
    10 AM to 8 PM every day" where the listing has no Sunday): unless a rule pack says such
    a day is closed, the record leaves it unknown, and the claim fills that gap."""
    if not week or not speaks_of_opening(text):
        return []
    statements = _hour_statements(text)
    out = []
    for d in range(7):
        said = [st for st in statements if d in st[0]]
        if d not in week and said:
            _, times, closed = min(said, key=lambda st: len(st[0]))
            if times and not closed:
                out.append(d)
    return out


_SEGMENT = re.compile(r";|\band\b|\bbut\b|\bwhile\b|\bexcept(?:ion)?\b", re.I)
_DAY_NAME = r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
#: The end of a list of days before its 'and': 'Tuesdays, Wednesdays,' / 'Tuesday, Wednesday'.
_DAY_LIST_END = re.compile(rf"{_DAY_NAME},\s*{_DAY_NAME},?\s*$", re.I)
_DAY_FILLER = re.compile(r"^[\s,]*(?:(?:on|from|to|through|thru|the|every|and|-|–)[\s,]*)*$", re.I)


def _hour_statements(text: str) -> list[tuple[set[int], set[int], bool]]:
    """(days, times, says closed) per part of the claim: 'Monday to Thursday 5-9 PM and
    Fridays until 10 PM' gives each day group its own times. A part that only lists days
    ('Fridays and Saturdays ... until 10 PM') lends them to the next part."""
    out: list[tuple[set[int], set[int], bool]] = []
    carried: set[int] = set()
    for part in (g for seg in _segments(text) for g in _time_first_groups(seg)):
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


def _segments(text: str) -> list[str]:
    """The parts of a claim split at ';', 'and', 'but', 'while', 'except'; an 'and' inside a
    list of three days or more ('Tuesdays, Wednesdays, and Thursdays') ends no part."""
    if "day," not in text and "days," not in text:  # no list of days: the plain split
        return _SEGMENT.split(text)
    parts, start = [], 0
    for m in _SEGMENT.finditer(text):
        if (
            m.group().lower() == "and"
            and _DAY_LIST_END.search(text, 0, m.start())
            and _DAY.match(text[m.end() :].lstrip())
        ):
            continue
        parts.append(text[start : m.start()])
        start = m.end()
    return [*parts, text[start:]]


def _time_first_groups(part: str) -> list[str]:
    """'4-8 PM on Tuesdays, Wednesdays, 4-9 PM on Fridays': comma pieces that each give
    their times before their days; a piece without times belongs to the piece before it.
    Any other part is one group."""
    if "," not in part or len(_TIME.findall(part)) < 2:
        return [part]
    pieces = part.split(",")
    timed = [_TIME.search(p) for p in pieces]
    if sum(t is not None for t in timed) < 2:
        return [part]
    groups: list[str] = []
    for piece, t in zip(pieces, timed, strict=True):
        day = _DAY.search(piece)
        if t and day and day.start() < t.start():
            return [part]  # 'Monday 9-5, Tuesday 10-6': days first, read as before
        if t or not groups:
            groups.append(piece)
        else:
            groups[-1] += "," + piece
    return groups


def claimed_days(text: str) -> set[int]:
    """Weekdays a claim names (0 = Monday), ranges ('Tuesday to Saturday') expanded."""
    found: list[tuple[int, int, set[int]]] = []
    for m in _DAY.finditer(text):
        if m.group("abbr") and not _ABBR_AS_DAY.match(text, m.end()):
            continue  # "Sun Valley", "Wed" as a name: only 'Mon-Fri', 'Sat 9 AM', 'Tue,' count
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
    return {t for t in map(_minutes, _TIME.finditer(text)) if t is not None}
