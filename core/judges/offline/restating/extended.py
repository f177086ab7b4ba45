"""A source sentence copied word for word with an invented clause joined to it.

"X, and a free replacement is sent within 24 hours", where X is a sentence of the sources
and nothing in the evidence says the rest: most of the claim's words are found, so word
coverage reads it as supported, and the copied run makes it look faithful. What the claim
adds to the copy is what must be checked; when the evidence holds none of it, it is
invented.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from ....evidence.index import Passage
from ....text.words import content_stems
from ..features import Alignment, ClaimFeatures
from .restated import prose_candidates

#: Words the copied run must hold (shorter runs are common phrases, not a copy).
_MIN_RUN = 8
#: Content words the rest of the claim must add, none of them in the evidence (words of the
#: copied run said again aside).
_MIN_ADDED = 3


def invented_addition(
    c: ClaimFeatures, al: Alignment, candidates: Sequence[Passage] | None = None
) -> str | None:
    """The words the claim joins to a word-for-word run of a retrieved passage when they
    hold at least ``_MIN_ADDED`` content words and the evidence holds none of them
    (`candidates`: the retrieved prose passages, when already listed)."""
    missing = frozenset(al.missing_stems)
    if len(missing) < _MIN_ADDED or len(c.tokens) < _MIN_RUN + _MIN_ADDED:
        return None  # cheap test first: most claims have fewer missing words
    for p in prose_candidates(al) if candidates is None else candidates:
        added = _added(c.tokens, p.tokens)
        if added is None:
            continue
        words, run = added
        # A word of the copied run said again refers back to it ("..., and a supervisor
        # must countersign the form"): it is no sign that the evidence holds the addition.
        stems = set(content_stems(list(words))) - set(content_stems(list(run)))
        if len(stems) >= _MIN_ADDED and stems <= missing:
            return " ".join(words)
    return None


@lru_cache(maxsize=20_000)
def _added(
    claim: tuple[str, ...], passage: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The claim's words after (or before) its longest run copied from the passage, when
    that run is ``_MIN_RUN`` words or more and the claim is the run plus those words; and
    the run."""
    m = SequenceMatcher(None, claim, passage, autojunk=False).find_longest_match(
        0, len(claim), 0, len(passage)
    )
    if m.size < _MIN_RUN:
        return None
    before, after = claim[: m.a], claim[m.a + m.size :]
    if before and after:
        return None  # words either side: an edited sentence, other rules read it
    added = before or after
    return (added, claim[m.a : m.a + m.size]) if added else None
