"""Where a claim's words stand in a passage as one run, in order.

A copied part of a sentence is read against the words around that part: a restriction
that stands by a later mention of its words ('black and white ... but since I only saw the
catalogue ... black and white') does not restrict it, and a run found unchanged has no
slot to compare.
"""

from __future__ import annotations

_SEP = "\0"  # no token holds it


def run_at(claim: tuple[str, ...], passage: tuple[str, ...]) -> list[int]:
    """The first and last position of the claim's words where they first stand in the
    passage as one run (empty when they do not)."""
    joined = _SEP + _SEP.join(passage) + _SEP
    at = joined.find(_SEP + _SEP.join(claim) + _SEP) if claim else -1
    if at < 0:
        return []
    first = joined.count(_SEP, 0, at + 1) - 1
    return [first, first + len(claim) - 1]
