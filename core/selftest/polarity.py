"""Truth-changing transforms that flip a sentence's polarity.

Two families of cue: a negation added or removed ('can' <-> 'cannot', 'must' <-> 'must not',
'is' <-> 'is not'), and a word turned into its antonym ('never' <-> 'always', 'allowed' <->
'prohibited', 'safe' <-> 'unsafe', 'included' <-> 'excluded', 'required' <-> 'optional').
The judge should find each CONTRADICTED by the sentence it restates.
"""

from __future__ import annotations

from .transform import Source, Transform, replace_first

#: Negations removed or added; longer phrases first so 'must not' is read before 'must'.
NEGATION_SWAPS: list[tuple[str, str]] = [
    ("must not", "must"),
    ("must never", "must"),
    ("cannot", "can"),
    ("can not", "can"),
    ("can't", "can"),
    ("do not", "do"),
    ("don't", "do"),
    ("does not", "does"),
    ("doesn't", "does"),
    ("should not", "should"),
    ("will not", "will"),
    ("won't", "will"),
    ("is not", "is"),
    ("isn't", "is"),
    ("are not", "are"),
    ("aren't", "are"),
    ("was not", "was"),
    ("were not", "were"),
    ("must", "must not"),
    ("can", "cannot"),
    ("should", "should not"),
    ("will", "will not"),
    ("is", "is not"),
    ("are", "are not"),
    ("was", "was not"),
    ("were", "were not"),
]

#: Words turned into their opposite; each pair both ways.
_ANTONYMS = [
    ("never", "always"),
    ("prohibited", "allowed"),
    ("forbidden", "permitted"),
    ("unsafe", "safe"),
    ("excluded", "included"),
    ("optional", "required"),
    ("impossible", "possible"),
    ("ineligible", "eligible"),
    ("unavailable", "available"),
    ("disabled", "enabled"),
    ("non-refundable", "refundable"),
]
ANTONYM_SWAPS: list[tuple[str, str]] = [p for a, b in _ANTONYMS for p in ((a, b), (b, a))]


def negation_flip(s: Source) -> str | None:
    """The first negation removed, or one added to the first auxiliary ('can' -> 'cannot')."""
    return replace_first(s.sentence, NEGATION_SWAPS)


def antonym_flip(s: Source) -> str | None:
    """The first polar word turned round ('never' -> 'always', 'safe' -> 'unsafe')."""
    return replace_first(s.sentence, ANTONYM_SWAPS)


POLARITY = [
    Transform(
        "negation_flip",
        "polarity",
        False,
        "A negation removed or added (can/cannot).",
        negation_flip,
    ),
    Transform(
        "antonym_flip", "polarity", False, "A polar word turned round (never/always).", antonym_flip
    ),
]
