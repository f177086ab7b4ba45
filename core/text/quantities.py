"""Numbers, units and dates found in text, normalised so that equal facts compare equal:
"50 mg" and "0.05 g", "fifty" and "50", "2,000" and "2000", "3.5%" and "3.5 percent",
"12 March 2024" and "March 12, 2024" must match, and "30 days" vs "14 days" must not (a
changed number is the strongest single signal of a hallucination)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .lexicon import trie_pattern

_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        "january jan,february feb,march mar,april apr,may,june jun,july jul,august aug,"
        "september sep sept,october oct,november nov,december dec".split(",")
    )
    for m in names.split()
}
# The lookahead lets the regex engine skip most positions before trying the alternation.
_MONTH = r"(?=[jfmasond])(?P<mon>" + trie_pattern(sorted(_MONTHS)) + r")\.?"
# Every month name starts with one of these; a text without any needs only ISO dates.
_MONTH_PREFIXES = frozenset(m[:3] for m in _MONTHS)
_ORD = r"(?:st|nd|rd|th)?"
_DATES = [
    re.compile(rf"\b(?P<d>\d{{1,2}}){_ORD}(?:\s+of)?\s+{_MONTH},?\s+(?P<y>\d{{4}})\b", re.I),
    re.compile(rf"\b{_MONTH}\s+(?P<d>\d{{1,2}}){_ORD},?\s+(?P<y>\d{{4}})\b", re.I),
    re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"),
    re.compile(rf"\b{_MONTH},?\s+(?P<y>\d{{4}})\b", re.I),
    re.compile(rf"\b(?P<d>\d{{1,2}}){_ORD}(?:\s+of)?\s+{_MONTH}(?![a-z])", re.I),
    re.compile(rf"\b{_MONTH}\s+(?P<d>\d{{1,2}}){_ORD}\b", re.I),
]
_TIME = re.compile(  # the leading lookahead only skips positions fast
    r"(?=\d)(?:\b(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>[ap])\.?m\b\.?"
    r"|\b(?P<h24>\d{1,2}):(?P<m24>\d{2}|0)\b)",
    re.I,
)

# A phone number: "+44 20 7946 0100", "(555) 010-9999", "0800 123 456" (8+ digits in 3+
# groups, or a leading +); read as one identifier, compared digit for digit.
_PHONE = re.compile(
    r"(?<![\w.])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,5}\)[ .-]?)?\d{2,5}(?:[ .-]\d{2,5}){2,4}(?!\w|\.\d)"
    r"|(?<![\w.])\+\d{1,3}[ .-]?\d{2,5}(?:[ .-]?\d{2,5}){1,4}(?!\w|\.\d)"
)

# "24/7", "1/2": one quantity, not two numbers (dates with years are matched before).
_RATIO = re.compile(r"(?<![\w./])\d{1,4}/\d{1,4}(?![\w/])")
_VERSION = re.compile(r"\b(?:v|version\s+)(?P<v>\d+(?:\.\d+)*)\b", re.I)

# unit spelling -> (base unit, factor to base); a base may span several lines
_UNITS: dict[str, tuple[str, float]] = {}
_UNIT_TABLE = """
% = %:1 percent:1 per cent:1 pct:1
mg = mg:1 milligrams:1 milligram:1 mcg:0.001 µg:0.001 ug:0.001 g:1000 grams:1000 gram:1000
mg = kg:1000000 kilograms:1000000
ml = ml:1 millilitres:1 milliliters:1 l:1000 litres:1000 liters:1000 litre:1000 liter:1000
s = s:1 sec:1 secs:1 second:1 seconds:1 min:60 mins:60 minute:60 minutes:60
s = h:3600 hr:3600 hrs:3600 hour:3600 hours:3600
day = day:1 days:1 week:7 weeks:7 wk:7 wks:7 business days:1 working days:1
day = business day:1 working day:1 calendar days:1 calendar day:1 consecutive days:1
day = clear days:1 consecutive weeks:7
month = month:1 months:1 calendar months:1 calendar month:1 consecutive months:1
year = year:1 years:1 yr:1 yrs:1
m = km:1000 kilometres:1000 kilometers:1000 m:1 metres:1 meters:1 cm:0.01 mm:0.001
m = mile:1609.344 miles:1609.344 ft:0.3048 feet:0.3048
byte = kb:1e3 mb:1e6 gb:1e9 tb:1e12
x = times:1 x:1
iu = iu:1 units:1 unit:1
lb = lb:1 lbs:1 pounds:1
oz = oz:1 ounces:1 ounce:1
deg = degrees:1 degree:1 °c:1 °f:1
usd = dollars:1 dollar:1 usd:1
eur = euros:1 euro:1 eur:1
"""
for _line in _UNIT_TABLE.strip().splitlines():
    _base, _spec = _line.split(" = ")
    for _name, _factor in re.findall(r"([^:]+?):([\d.e]+)(?:\s|$)", _spec):
        _UNITS[_name.strip()] = (_base, float(_factor))
UNIT_WORDS = frozenset(u for u in _UNITS if " " not in u and len(u) > 1 and u.isalpha())


_UNIT = trie_pattern(sorted(_UNITS))
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "billion": 1e9, "bn": 1e9}
_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp"}
_NUMBER = re.compile(
    r"(?=[$€£\d])(?<![\w.])(?<![^\d],)(?-i:(?<![A-Z]-))(?:(?P<cur>[$€£])\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<ord>st|nd|rd|th)?(?:\s?(?P<scale>thousand|million|billion|bn|k)(?![a-z]))?"
    rf"(?:-?\s?(?P<unit>{_UNIT})(?![a-z]))?",
    re.I,
)
_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
#: Each spelled number word and its value (also read by text/values.py).
WORD_VALUES: dict[str, float] = {w: i for i, w in enumerate(_ONES)}
WORD_VALUES |= {w: 20 + 10 * i for i, w in enumerate(_TENS)}
WORD_VALUES |= {"dozen": 12, "twice": 2, "hundred": 100}
WORD_VALUES |= {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_NUMWORD = trie_pattern(sorted(WORD_VALUES))
_WORD_NUMBER = re.compile(
    rf"\b(?P<words>(?:{_NUMWORD})(?:(?:\s+and\s+|[\s-])(?:{_NUMWORD}))*)\b"
    rf"(?:[\s-]?(?P<unit>{_UNIT})(?![a-z]))?",  # 'three days', 'a three-hour show'
    re.I,
)


_ANY_DIGIT = re.compile(r"\d")
_LETTERS = re.compile(r"[a-z]+")
_ISO_DATES = [p for p in _DATES if "(?P<mon>" not in p.pattern]


def _dates_for(folded: str, words: list[str]) -> list[re.Pattern[str]]:
    """The date patterns worth running: all only if a run of letters (`words`) opens a month."""
    if not _MONTH_PREFIXES.isdisjoint([w[:3] for w in words]):
        return _DATES
    return _ISO_DATES if "-" in folded else []


# Cheap necessary conditions, so most sentences skip the costlier patterns: a phone
# number has three digit groups joined by spaces, dots or dashes (or a leading +); a time
# has a colon or an am/pm; a ratio a slash; an ISO date a dash; a version a 'v' before a
# digit or the word "version".
_PHONE_GATE = re.compile(r"\d\d[ .-]\d{2,5}[ .-]\d\d|\+\d")
_AM_PM = re.compile(r"\d\s*[ap]\.?m", re.I)
_V_DIGIT = re.compile(r"v\d")


def _kinds_for(text: str, folded: str) -> list[tuple[str, re.Pattern[str]]]:
    """The version, ratio and time patterns worth running on `text` (case-folded: `folded`)."""
    kinds = [("version", _VERSION)] if "version" in folded or _V_DIGIT.search(folded) else []
    if "/" in text:
        kinds.append(("ratio", _RATIO))
    if ":" in text or _AM_PM.search(text):
        kinds.append(("time", _TIME))
    return kinds


def _may_have_number_words(words: list[str]) -> bool:
    # A cheap superset of "some \b<number word>\b matches", checked before the big regex.
    return not WORD_VALUES.keys().isdisjoint(words)


class Quantity(NamedTuple):
    """One number, date or time in a text, with its value in a base unit (a named tuple:
    a long document holds hundreds of thousands, and a tuple is made five times faster)."""

    kind: str  # "number" | "date" | "time" | "version" | "ratio" | "phone"
    value: float | str  # float for numbers and times (minutes); "YYYY-MM-DD" style for dates
    unit: str  # base unit ("" when none): "%", "mg", "s", "day", "usd", ...
    start: int
    end: int

    @property
    def key(self) -> tuple[str, float | str]:
        """What two equal quantities share."""
        return (self.unit, self.value)


def extract_quantities(text: str) -> list[Quantity]:
    """Every date, time and number in `text`, in order of appearance."""
    return list(_extract(text))


class _Found:
    """The quantities of one text so far and the spans they take (dates before phones
    before plain numbers: a later pattern may not claim a span an earlier one took)."""

    def __init__(self) -> None:
        self.quantities: list[Quantity] = []
        self.taken: list[tuple[int, int]] = []

    def free(self, m: re.Match[str]) -> bool:
        s, e = m.span()
        for a, b in self.taken:  # a plain loop: this runs for every number of every passage
            if s < b and a < e:
                return False
        return True

    def add(self, q: Quantity) -> None:
        self.quantities.append(q)
        self.taken.append((q.start, q.end))


@lru_cache(maxsize=100_000)
def _extract(text: str) -> tuple[Quantity, ...]:
    # Memoised: documents and answers repeat across systems, runs and cases.
    found = _Found()
    folded = text.casefold()
    words = _LETTERS.findall(folded)
    if _ANY_DIGIT.search(text):
        _digit_quantities(text, folded, found, words)
    if _may_have_number_words(words):
        _word_quantities(text, found)
    if "a " in folded or "an " in folded:
        _period_quantities(text, found)
    return tuple(sorted(found.quantities, key=lambda q: q.start))


def _digit_quantities(text: str, folded: str, found: _Found, words: list[str]) -> None:
    """Dates, then phone numbers, versions, ratios and times, then plain numbers."""
    for m in (m for pattern in _dates_for(folded, words) for m in pattern.finditer(text)):
        if found.free(m):
            found.add(Quantity("date", _date_key(m), "", m.start(), m.end()))
    phones = _PHONE.finditer(text) if _PHONE_GATE.search(text) else ()
    for m in phones:  # before plain numbers
        if found.free(m) and sum(c.isdigit() for c in m.group()) >= 8:
            digits = "".join(c for c in m.group() if c.isdigit())
            found.add(Quantity("phone", digits, "", m.start(), m.end()))
    for kind, pattern in _kinds_for(text, folded):
        for m in pattern.finditer(text):
            if found.free(m):
                whole = (Quantity(kind, _QUANTITY_VALUE[kind](m), "", m.start(), m.end()),)
                for q in (kind == "ratio" and _season(m)) or whole:
                    found.add(q)
    for m in _NUMBER.finditer(text):
        if found.free(m):
            found.add(_number(m))


def _season(m: re.Match[str]) -> tuple[Quantity, ...]:
    """A season or fiscal year written with a slash ("1958/59", "2023/2024") as its two
    years, each a number of its own; () for any other ratio ("24/7", "1/2")."""
    first, _, second = m.group().partition("/")
    if len(first) != 4 or len(second) not in (2, 4) or not 1000 <= int(first) <= 2100:
        return ()
    year = int(first[: 4 - len(second)] + second)
    if year != int(first) + 1:
        return ()
    slash = m.start() + 5
    return (
        Quantity("number", float(first), "", m.start(), m.start() + 4),
        Quantity("number", float(year), "", slash, m.end()),
    )


def _word_quantities(text: str, found: _Found) -> None:
    for m in _WORD_NUMBER.finditer(text):
        if found.free(m) and _word_number_ok(m):
            value = _parse_words(m.group("words"))
            unit, factor = _UNITS.get((m.group("unit") or "").lower(), ("", 1.0))
            found.add(Quantity("number", _round(value * factor), unit, m.start(), m.end()))


def _period_quantities(text: str, found: _Found) -> None:
    for m in _ONE_PERIOD.finditer(text):
        if not found.free(m) or not _PERIOD_LEAD.search(text, max(0, m.start() - 12), m.start()):
            continue
        unit, factor = _UNITS[m.group("unit").lower()]
        found.add(Quantity("number", _round(factor), unit, m.start("one"), m.end()))


# "within a week", "more than a month", "for a year": one period, as a bound or a duration
# states it ("twice a week", "once a day" are rates, and stay words).
_ONE_PERIOD = re.compile(
    r"\b(?P<one>an?)\s+(?P<unit>week|month|year|day|hour|minute|second)(?![\w-])", re.I
)
# The word before it, looked for only where a period was found (scanning for the rarer
# "a week" first is three times faster than scanning for these words).
_PERIOD_LEAD = re.compile(
    r"\b(?:within|than|for|after|over|under|about|around|nearly|almost|least|most|up\s+to"
    r"|in|lasts?|lasting|takes?|taking)\s+$",
    re.I,
)


def _date_key(m: re.Match[str]) -> str:
    parts = m.groupdict()
    mon = _MONTHS[parts["mon"].lower()] if parts.get("mon") else int(parts["m"])
    year = parts.get("y") or ""
    day = parts.get("d")
    if not year:
        if day is None:  # every year-less pattern in _DATES has a day group
            raise ValueError(f"date match without year or day: {m.group(0)!r}")
        return f"--{mon:02d}-{int(day):02d}"
    return f"{year}-{mon:02d}" + (f"-{int(day):02d}" if day else "")


def _minutes(m: re.Match[str]) -> float:
    """Minutes since midnight of a '9am' or '14:30' match."""
    if m.group("h24"):
        return float(int(m.group("h24")) * 60 + int(m.group("m24")))
    hour = int(m.group("h")) % 12 + (12 if m.group("ap").lower() == "p" else 0)
    return float(hour * 60 + int(m.group("mi") or 0))


_QUANTITY_VALUE = {
    "version": lambda m: m.group("v"),
    "ratio": lambda m: m.group(0),
    "time": lambda m: _minutes(m),
}


def _number(m: re.Match[str]) -> Quantity:
    num, scale, unit_word, cur = m.group("num", "scale", "unit", "cur")
    value = float(num.replace(",", ""))
    if scale:
        value *= _SCALES.get(scale.lower(), 1.0)
    unit, factor = _UNITS.get(unit_word.lower(), ("", 1.0)) if unit_word else ("", 1.0)
    if cur:
        unit, factor = _CURRENCY[cur], 1.0
    return Quantity("number", _round(value * factor), unit, m.start(), m.end())


def _word_number_ok(m: re.Match[str]) -> bool:
    # "one" is too often a pronoun ("one of the plants") to count without a unit.
    return m.group("words").lower() != "one" or bool(m.group("unit"))


def _parse_words(words: str) -> float:
    total, current = 0.0, 0.0
    for w in re.split(r"[\s-]+", words.lower()):
        if w == "and":
            continue
        v = WORD_VALUES[w]
        if w == "hundred":
            current = max(current, 1) * 100
        elif v >= 1000:
            total += max(current, 1) * v
            current = 0
        else:
            current += v
    return total + current


def _round(x: float) -> float:
    if x.is_integer() and abs(x) < 1e6:  # the common case: already 6 significant digits
        return x
    return float(f"{x:.6g}")


def is_year(q: Quantity) -> bool:
    """A bare number that reads as a calendar year (1900-2100)."""
    return q.kind == "number" and not q.unit and 1900 <= float(q.value) <= 2100


def quantity_matches(q: Quantity, other: Quantity) -> bool:
    """True when `other` states the same quantity as `q` (units compatible, equal value)."""
    if q.kind == "date" or other.kind == "date":
        return _date_matches(q, other)
    if q.kind != other.kind:
        return False
    if q.kind in ("ratio", "phone"):
        return q.value == other.value
    if q.kind == "version":
        mine, theirs = str(q.value).split("."), str(other.value).split(".")
        return mine[: len(theirs)] == theirs[: len(mine)]  # "v2" matches "2.4"
    a, b = float(q.value), float(other.value)
    tolerance = 1e-9
    if q.unit and other.unit and q.unit != other.unit:
        pair = (q.unit, other.unit)
        if pair in _SAME_QUANTITY:
            factor, tolerance = _SAME_QUANTITY[pair]
            a *= factor
        elif pair[::-1] in _SAME_QUANTITY:
            factor, tolerance = _SAME_QUANTITY[pair[::-1]]
            b *= factor
        else:
            return False
    return abs(a - b) <= tolerance * max(1.0, abs(a))


#: Units of different bases that can state the same quantity: (unit, other) -> (how many
#: `other` one `unit` is, the relative tolerance). They match ("one year" is "12 months", "2
#: days" is "48 hours", "30 pounds" may be "£30"), but are never rivals (see comparable):
#: "sentenced to over five years" does not contradict "64 months". Months and years in days
#: vary in length, so they match within a tolerance ("26 weeks" is "six months", "12 weeks"
#: "three months", "52 weeks" "a year").
_SAME_QUANTITY: dict[tuple[str, str], tuple[float, float]] = {
    ("year", "month"): (12.0, 1e-9),
    ("day", "s"): (86_400.0, 1e-9),
    ("lb", "gbp"): (1.0, 1e-9),  # "pounds" is a weight or a currency
    ("month", "day"): (30.44, 0.1),
    ("year", "day"): (365.25, 0.02),
}


def _date_matches(q: Quantity, other: Quantity) -> bool:
    if q.kind == "date" and other.kind == "date":
        a, b = str(q.value), str(other.value)
        if a.startswith("--") or b.startswith("--"):
            return a[-5:] == b[-5:]
        return a == b or b.startswith(a + "-") or a.startswith(b + "-")
    date, num = (q, other) if q.kind == "date" else (other, q)
    return is_year(num) and str(date.value)[:4] == str(int(float(num.value)))


def comparable(q: Quantity, other: Quantity) -> bool:
    """True when two quantities measure the same kind of thing, so differing is a conflict
    (not phone numbers: another number there is invented, not a changed value)."""
    if q.kind != other.kind or q.kind == "phone":
        return False
    if q.kind == "number":
        if q.unit or other.unit:
            return q.unit == other.unit
        return is_year(q) == is_year(other)
    return True
