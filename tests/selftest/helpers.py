"""One way to apply a named transform to a sentence, for the per-family tests."""

from __future__ import annotations

import random

from halgate.selftest import TRANSFORMS, Source


def apply(
    name: str, sentence: str, document: str | None = None, names: tuple[str, ...] = ()
) -> str | None:
    """The claim transform ``name`` makes of ``sentence`` (its own document by default)."""
    transform = next(t for t in TRANSFORMS if t.name == name)
    return transform.apply(Source(sentence, document or sentence, names, random.Random(0)))
