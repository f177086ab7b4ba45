"""Truth-preserving transforms: the claim says what the source sentence says.

The judge should find every one SUPPORTED; anything else is a false alarm the user would
see on a faithful answer.
"""

from __future__ import annotations

import re

from .transform import Source, Transform, replace_first, word_pattern

#: A clause dropped from a sentence holding one of these could drop a restriction, which
#: changes the truth; such sentences are left to the ``condition_dropped`` transform.
RESTRICTING = re.compile(
    r"\b(?:if|unless|only|except|provided|when|whenever|until|but|not|no|never|unused|"
    r"without|however|although|before|after|within|cannot|can't)\b",
    re.I,
)
_CLAUSE_BREAK = re.compile(
    r";\s+|,\s+(?:and|while|whereas)\s+|\s+and\s+(?=(?:it|they|we|you|this)\b)"
)
_MIN_WORDS = 4


def verbatim(s: Source) -> str | None:
    """The source sentence word for word (what a faithful answer most often does)."""
    return s.sentence


def clause(s: Source) -> str | None:
    """The longest independent clause of a sentence made of several; skips sentences with a
    condition, exception or negation anywhere (dropping the rest could change the truth)."""
    if RESTRICTING.search(s.sentence):
        return None
    parts = [p.strip(" ,;.") for p in _CLAUSE_BREAK.split(s.sentence)]
    parts = [p for p in parts if len(p.split()) >= _MIN_WORDS]
    if len(parts) < 2:
        return None
    return max(parts, key=len) + "."


_LEADING_CONDITION = re.compile(r"^(If|When|Whenever|Once)\s+([^,;]{3,}?),\s+(.+?)[.!]?$", re.S)
_TRAILING_CONDITION = re.compile(r"^(.{12,}?)\s+(if|when|whenever|once)\s+([^,;]{3,}?)[.!]?$", re.S)


_CLAUSES = re.compile(r"[;:]|,\s+(?:and|but|or|so|while|whereas)\s", re.I)


def reorder(s: Source) -> str | None:
    """Clauses reordered: 'If X, Y.' becomes 'Y if X.' and 'Y if X.' becomes 'If X, Y.'.
    Not when Y holds clauses of its own ('Y1; Y2', 'Y1, and Y2'): put after Y2, the
    condition would govern Y2 instead of Y1."""
    m = _LEADING_CONDITION.match(s.sentence.strip())
    if m and not _CLAUSES.search(m.group(3)):
        cue, cond, main = m.groups()
        return f"{main} {cue.lower()} {cond}."
    m = _TRAILING_CONDITION.match(s.sentence.strip())
    if m and "," not in m.group(1):
        main, cue, cond = m.groups()
        return f"{cue.capitalize()} {cond}, {main[:1].lower() + main[1:]}."
    return None


_SMALL = "zero one two three four five six seven eight nine ten eleven twelve".split()
#: A count, not a clock time ('8 p.m.') nor one end of a range ('6 to 8 inches': no one
#: writes 'six to 8').
_DIGIT_COUNT = re.compile(
    r"(?<![\w.,:/$£€-])(?<!\d\sto\s)(?<!\d-)([2-9]|1[0-2])(?!\s+(?:[ap]\.?m\b|to\s+\d|-\s*\d))(?=\s+[a-z])"
)
_WORD_COUNT = re.compile(r"(?<!-)\b(" + "|".join(_SMALL[2:]) + r")(?=\s+[a-z]+s\b)", re.I)
#: A month right before a number makes it a day of a date ('December 2'): no count.
_MONTH_BEFORE = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+$", re.I
)


def number_words(s: Source) -> str | None:
    """A small count spelled out ('3 days' -> 'three days') or written in digits (not a
    day of a date, nor a part of 'ninety-eight')."""
    m = next(
        (
            d
            for d in _DIGIT_COUNT.finditer(s.sentence)
            if not _MONTH_BEFORE.search(s.sentence[: d.start()])
        ),
        None,
    )
    if m:
        return s.sentence[: m.start()] + _SMALL[int(m.group(1))] + s.sentence[m.end() :]
    m = _WORD_COUNT.search(s.sentence)
    if m:
        return (
            s.sentence[: m.start()] + str(_SMALL.index(m.group(1).lower())) + s.sentence[m.end() :]
        )
    return None


_MOST = 100  # '10 days' is not restated as '240 hours': no one writes that
_UNIT_STEPS = [("weeks?", "days", 7), ("days?", "hours", 24), ("hours?", "minutes", 60)]


def unit_converted(s: Source) -> str | None:
    """A period stated in another unit: '2 weeks' -> '14 days', '14 days' -> '2 weeks'."""
    for big, small, factor in _UNIT_STEPS:
        m = re.search(rf"(?<![\w.,])(\d+)\s+({big})\b", s.sentence)
        if m and int(m.group(1)) * factor <= _MOST:
            n = int(m.group(1)) * factor
            return s.sentence[: m.start()] + f"{n} {small}" + s.sentence[m.end() :]
        m = re.search(rf"(?<![\w.,])(\d+)\s+{small}\b", s.sentence)
        if m and int(m.group(1)) % factor == 0 and int(m.group(1)) >= factor:
            n = int(m.group(1)) // factor
            unit = big.rstrip("s?") + ("s" if n != 1 else "")
            return s.sentence[: m.start()] + f"{n} {unit}" + s.sentence[m.end() :]
    return None


#: Curated pairs that mean the same in any register; one word is replaced per claim.
SYNONYMS: list[tuple[str, str]] = [
    ("approximately", "about"),
    ("purchase", "buy"),
    ("purchased", "bought"),
    ("commence", "start"),
    ("assist", "help"),
    ("obtain", "get"),
    ("receive", "get"),
    ("prior to", "before"),
    ("additional", "extra"),
    ("permitted", "allowed"),
    ("however", "but"),
    ("immediately", "at once"),
    ("sufficient", "enough"),
    ("numerous", "many"),
    ("request", "ask for"),
    ("large", "big"),
    ("begin", "start"),
    ("choose", "pick"),
]


def synonym(s: Source) -> str | None:
    """One word replaced by a curated synonym ('purchase' -> 'buy')."""
    return replace_first(s.sentence, SYNONYMS)


_PLURAL = frozenset("you we they children people staff".split())
_MUST_NOT = re.compile(r"\b(\w+)\s+must\s+not\b", re.I)
_NOT_ALLOWED = re.compile(r"\b(?:is|are)\s+not\s+allowed\s+to\b", re.I)


def must_not_paraphrase(s: Source) -> str | None:
    """'X must not do' <-> 'X is (are) not allowed to do'."""
    m = _NOT_ALLOWED.search(s.sentence)
    if m:
        return s.sentence[: m.start()] + "must not" + s.sentence[m.end() :]
    m = _MUST_NOT.search(s.sentence)
    if m is None:
        return None
    subject = m.group(1).lower()
    verb = "are" if subject in _PLURAL or subject.endswith("s") else "is"
    if subject == "i":
        verb = "am"
    return s.sentence[: m.end(1)] + f" {verb} not allowed to" + s.sentence[m.end() :]


PRESERVING = [
    Transform("verbatim", "copy", True, "The sentence word for word.", verbatim, repeats=True),
    Transform("clause", "copy", True, "The longest clause of a sentence of several.", clause),
    Transform("reorder", "rewrite", True, "Condition clause moved before or after.", reorder),
    Transform(
        "number_words", "rewrite", True, "A small count spelled out or in digits.", number_words
    ),
    Transform("unit_converted", "rewrite", True, "'2 weeks' <-> '14 days'.", unit_converted),
    Transform("synonym", "rewrite", True, "One word replaced by a curated synonym.", synonym),
    Transform(
        "must_not_paraphrase",
        "rewrite",
        True,
        "'must not' <-> 'is not allowed to'.",
        must_not_paraphrase,
    ),
]

__all__ = ["PRESERVING", "SYNONYMS", "word_pattern"]
