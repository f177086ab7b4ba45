"""Truth-changing transforms that swap who or what: a name for another name of the same
document, or the actor ('the customer pays' -> 'we pay').

Both keep every word of the sentence but one, so word overlap alone cannot catch them.
"""

from __future__ import annotations

import re

from ..text.words import MONTHS, STOPWORDS, WEEKDAYS, proper_names
from .transform import Source, Transform, replace_first, word_pattern


def name_swapped(s: Source) -> str | None:
    """The first name of the sentence replaced by another name of its document that the
    sentence does not hold (chosen with the seeded generator). Only clear names take part
    (:func:`_clear_name`), and never a part or the initials of a name the sentence holds:
    a swap the reader cannot tell from a paraphrase is no change of truth."""
    found = proper_names(s.sentence)
    here = [n for n in found if _clear_name(n, s.document)]
    if not here:
        return None
    others = [
        n
        for n in dict.fromkeys(s.names)
        if not any(_same_name(n, h) for h in found)
        and not word_pattern(_bare(n)).search(s.sentence)  # 'Storey' opening it
        and _clear_name(n, s.document)
    ]
    if not others:
        return None
    name = here[0]
    m = word_pattern(name).search(s.sentence)
    if m is None:
        return None
    other = _bare(s.rng.choice(others)) + name[len(_bare(name)) :]  # "Britain's" keeps its 's
    return s.sentence[: m.start()] + other + s.sentence[m.end() :]


#: The longest run read as one name ('Royal Australian Navy').
_NAME_WORDS = 4
#: Titles: 'Dr' alone names no one.
_TITLES = frozenset("mr mrs ms miss dr prof sir dame lord lady st".split())
_WORD = re.compile(r"[A-Za-z][\w'’.-]*")
_CALENDAR = WEEKDAYS | MONTHS | {"may"}


def _clear_name(name: str, document: str) -> bool:
    """A run the document writes as a name: one to four words, none of them a stop word
    ('My', 'There', 'While') or a title alone, no adjective compound ('Chicago-bred'),
    not all of them written in lower case elsewhere ('Story', but 'Nurse Okafor' for
    'Okafor'), and standing at least once amid prose
    (a capital in a Title Case headline says nothing)."""
    words = [_bare(w) for w in name.split()]
    if not 0 < len(words) <= _NAME_WORDS or words[-1].lower() in _TITLES:
        return False  # too long, or a title without its name ('CNN's Dr')
    if any(w.lower() in _CALENDAR for w in words):
        return False  # 'Saturday', 'March': a date (the value transforms change those)
    for w in words:
        if w.lower() in STOPWORDS or (w.isupper() and len(w) > 4) or "'" in w or "’" in w:
            return False  # a function word ('My', "I've"), or a heading in capitals
        if "-" in w and any(part.islower() for part in w.split("-")):
            return False  # 'Chicago-bred', 'Hobart-class': an adjective
    if all(_in_lower_case(w, document) for w in words):
        return False  # every word written in lower case too: words, not a name
    return any(_amid_prose(m.start(), document) for m in word_pattern(name).finditer(document))


def _in_lower_case(word: str, document: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word.lower())}(?![\w-])", document) is not None


def _amid_prose(at: int, document: str) -> bool:
    """Most words of the line or sentence around `at` are written in lower case."""
    start = max(document.rfind(c, 0, at) for c in ".!?\n") + 1
    ends = [e for e in (document.find(c, at) for c in ".!?\n") if e >= 0]
    words = _WORD.findall(document[start : min(ends, default=len(document))])
    return len(words) >= 4 and sum(w[0].isupper() for w in words) < 0.5 * len(words)


def _bare(word: str) -> str:
    """The word without its possessive ("Virginia's", "Mars'")."""
    return word.removesuffix("'s").removesuffix("’s").rstrip("'’")


def _same_name(a: str, b: str) -> bool:
    """One holds a word of the other ('Vereb' of 'Mike Vereb'), or is its initials."""
    words_a = {_bare(w).lower() for w in a.split()}
    words_b = {_bare(w).lower() for w in b.split()}
    return bool(words_a & words_b) or _initials_of(a, b)


def _initials_of(a: str, b: str) -> bool:
    """One is the other's initials ('ISU' for 'Illinois State University', 'US' for
    'United States'): swapping one for the other changes nothing."""
    for short, long in ((a, b), (b, a)):
        letters = short.removesuffix("'s").replace(".", "")
        words = long.split()
        if letters.isupper() and len(words) > 1 and letters[0] == words[0][0]:
            return True
    return False


#: Who acts, each pair both ways; longer phrases first.
_ACTORS = [
    ("the customer", "the company"),
    ("customers", "staff"),
    ("the tenant", "the landlord"),
    ("the buyer", "the seller"),
    ("the employee", "the employer"),
    ("employees", "managers"),
    ("the patient", "the doctor"),
    ("the user", "the provider"),
    ("the passenger", "the airline"),
    ("you", "we"),
]
ACTOR_SWAPS: list[tuple[str, str]] = [p for a, b in _ACTORS for p in ((a, b), (b, a))]


def actor_swapped(s: Source) -> str | None:
    """The first actor replaced by the other party ('the customer pays' -> 'the company
    pays', 'you' -> 'we')."""
    return replace_first(s.sentence, ACTOR_SWAPS)


SWAPS = [
    Transform(
        "name_swapped", "swap", False, "A name replaced by another of the document.", name_swapped
    ),
    Transform(
        "actor_swapped", "swap", False, "The actor replaced by the other party.", actor_swapped
    ),
]
