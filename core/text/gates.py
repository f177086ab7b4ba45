"""Cheaper ways to run a costly pattern, with the same answers.

A pattern of case-insensitive words that opens with ``\\b`` gives Python's regex engine no
first character to scan for: it tries every word at every position of the text, folding
the case of each character it compares. Most sentences hold none of the words, so these
searches were a fifth of the offline judge's regex time. On ASCII text, lower-casing the
text and matching the lower-case pattern case-sensitively is exactly what
``re.IGNORECASE`` does (the engine can then skip a word at its first letter); other text
goes to the case-insensitive pattern itself (Unicode folds a few letters, such as the long
s and the Kelvin sign, onto ASCII ones).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .lexicon import trie_pattern


class CaselessTest:
    """Whether a case-insensitive pattern occurs in a text (a yes or no, no match).

    `source` must spell every letter it matches in lower case (escapes such as ``\\s`` and
    ``\\b`` aside): compiled without ``re.IGNORECASE`` it then matches lower-cased ASCII text
    exactly where the case-insensitive pattern matches the text.
    """

    def __init__(self, source: str):
        self.pattern = re.compile(source, re.I)
        self._lower = re.compile(source)

    def __call__(self, text: str) -> bool:
        if text.isascii():
            return self._lower.search(text.lower()) is not None
        return self.pattern.search(text) is not None


class Gated:
    """A case-insensitive pattern searched only in text that holds one of `words`: every
    match of the pattern must hold one of them (lower-cased), as a run of its characters."""

    def __init__(self, pattern: re.Pattern[str], words: Iterable[str]):
        self.pattern = pattern
        self._gate = re.compile(trie_pattern(sorted(set(words))))

    def may_match(self, text: str) -> bool:
        """False only when the pattern cannot match `text` (none of the words there)."""
        return not text.isascii() or self._gate.search(text.lower()) is not None

    def finditer(self, text: str, pos: int = 0) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text, pos)``."""
        return self.pattern.finditer(text, pos) if self.may_match(text) else iter(())
