"""Truth-changing transforms of scope: an invented clause added, a quantifier changed
(all/some/none), a modal changed (must/may).

An invented clause leaves the source's words in place and adds a statement no source makes;
a quantifier or modal change keeps every content word and changes what is asserted.
"""

from __future__ import annotations

import re

from .transform import Source, Transform, replace_first

#: Clauses that state a specific benefit or duty, joined to the sentence; the generator picks
#: one whose content words the document lacks, so no passage can back it.
INVENTED = [
    "and a free replacement is sent by courier within 24 hours",
    "and the full fee is refunded by the regional office",
    "and this also applies to gift vouchers bought abroad",
    "and a supervisor must countersign the form in person",
    "and the insurer pays a bonus of 200 euros",
    "and the rule was introduced after a parliamentary inquiry",
]


def invented_clause(s: Source) -> str | None:
    """A specific clause no source states, joined to the sentence with 'and'."""
    doc = s.document.lower()
    fresh = [c for c in INVENTED if not any(w in doc for w in c.split() if len(w) >= 5)]
    if not fresh:
        return None
    base = s.sentence.rstrip().rstrip(".!?")
    return f"{base}, {s.rng.choice(fresh)}."


_QUANTIFIERS = [
    ("all", "no"),
    ("every", "no"),
    ("each", "no"),
    ("none of", "all of"),
    ("some", "all"),
    ("most", "no"),
    ("any", "no"),
]


def quantifier_changed(s: Source) -> str | None:
    """A quantifier turned ('all' -> 'no', 'some' -> 'all', 'none of' -> 'all of')."""
    return replace_first(s.sentence, _QUANTIFIERS)


_MODALS = [
    ("must not", "need not"),
    ("must", "may"),
    ("is required to", "may"),
    ("are required to", "may"),
    ("have to", "may"),
    ("has to", "may"),
    ("may", "must"),
    ("should", "must"),
]


def modal_changed(s: Source) -> str | None:
    """An obligation turned into a permission or the reverse ('must' -> 'may')."""
    if re.search(r"\bmay\s+(?:be|have)\s+(?:been\s+)?\w+ed\b", s.sentence, re.I):
        return None  # 'may be caused by': a hedge, not a permission
    return replace_first(s.sentence, _MODALS)


ADDITIONS = [
    Transform(
        "invented_clause",
        "invention",
        False,
        "A specific clause no source states.",
        invented_clause,
    ),
    Transform(
        "quantifier_changed",
        "quantifier",
        False,
        "all/every -> no, some -> all.",
        quantifier_changed,
    ),
    Transform("modal_changed", "modal", False, "must -> may, may -> must.", modal_changed),
]
