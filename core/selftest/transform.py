"""What a self-test transform is: a named generator that rewrites one source sentence into a
claim whose truth against the sources is known in advance.

A truth-preserving transform must give a claim the sources still support; a truth-changing
one a claim they no longer support. A transform that cannot apply to a sentence returns
None, and the sentence is skipped for it (never forced into a wrong claim).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """One source sentence and what a transform may need around it."""

    sentence: str
    document: str
    names: tuple[str, ...]
    """Proper names of the sentence's document, in order of first use (for name swaps)."""
    rng: random.Random


@dataclass(frozen=True)
class Transform:
    """A named rewrite with known effect on truth."""

    name: str
    family: str
    preserves_truth: bool
    description: str
    rewrite: Callable[[Source], str | None]
    repeats: bool = False
    """True for the one transform whose claim is the sentence itself (verbatim)."""

    def apply(self, source: Source) -> str | None:
        """The generated claim, or None when the transform does not apply (or changes
        nothing)."""
        out = self.rewrite(source)
        if out is None:
            return None
        if self.repeats:
            return out
        out = tidy(out)
        return out if out and out != tidy(source.sentence) else None


def tidy(text: str) -> str:
    """Collapse spaces, drop a space before punctuation, capitalise the first letter."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"^[,;:\s]+", "", text)
    return text[:1].upper() + text[1:]


def word_pattern(words: str) -> re.Pattern[str]:
    """A case-insensitive pattern for a phrase standing as whole words."""
    return re.compile(
        r"(?<![\w'-])" + re.escape(words).replace(r"\ ", r"\s+") + r"(?![\w'-])", re.I
    )


def replace_first(text: str, swaps: list[tuple[str, str]]) -> str | None:
    """Replace the earliest phrase of ``swaps`` that occurs in ``text`` (the first listed wins
    a tie, so list longer phrases first); the case of its first letter is kept."""
    best: tuple[int, int, str] | None = None
    for old, new in swaps:
        m = word_pattern(old).search(text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), m.end(), new)
    if best is None:
        return None
    start, end, new = best
    if text[start].isupper():
        new = new[:1].upper() + new[1:]
    return text[:start] + new + text[end:]
