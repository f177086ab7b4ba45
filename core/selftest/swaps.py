"""Truth-changing transforms that swap who or what: a name for another name of the same
document, or the actor ('the customer pays' -> 'we pay').

Both keep every word of the sentence but one, so word overlap alone cannot catch them.
"""

from __future__ import annotations

from ..text.words import proper_names
from .transform import Source, Transform, replace_first, word_pattern


def name_swapped(s: Source) -> str | None:
    """The first name of the sentence replaced by another name of its document that the
    sentence does not hold (chosen with the seeded generator)."""
    here = proper_names(s.sentence)
    if not here:
        return None
    others = [n for n in s.names if n not in here and not any(n in h or h in n for h in here)]
    if not others:
        return None
    name = here[0]
    m = word_pattern(name).search(s.sentence)
    if m is None:
        return None
    return s.sentence[: m.start()] + s.rng.choice(others) + s.sentence[m.end() :]


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
