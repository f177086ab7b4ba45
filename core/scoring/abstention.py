"""Abstentions: answers that are empty, nonsense, a refusal, or hold no checkable claim.

An abstention is an outcome of its own (DESIGN.md §3): it is counted per system
(``abstention_rate``) and never drops silently out of a rate. On a case tagged
``should-abstain`` abstaining is the correct outcome.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ..models import ClaimJudgement
from ..text.words import sentence_spans, tokenize

EMPTY = "empty output"
NO_WORDS = "output contains no words (nonsense)"
GIBBERISH = "output is gibberish (nonsense)"
REFUSAL = "refusal"
NO_CLAIM = "no checkable claim"

_WORD = re.compile(r"[^\W\d_]{2,}")
_ALPHA = re.compile(r"[A-Za-z]+")
_VOWELS = frozenset("aeiouy")
_TRIPLE = re.compile(r"(.)\1\1")
_KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm", "1234567890")
_FILLER = frozenset({"lorem", "ipsum", "dolor", "blah", "asdf", "foo", "bar", "baz"})
_REFUSAL_WORDS = 30  # a refusal is short: longer answers say something besides declining
_AP = r"(?:'|’)"  # apostrophe, straight or curly
_DECLINE = re.compile(
    r"\bi\s*(?:'m|’m|\s+am)?\s+(?:unable|not\s+able)\s+to\s+(?:help|answer|assist|say|tell|"
    r"determine|respond|comment|find|provide)"
    rf"|\bi\s+(?:can{_AP}?t|cannot|can\s+not|couldn{_AP}?t|could\s+not|won{_AP}?t|will\s+not)\s+"
    r"(?:help|answer|assist|say|tell|determine|respond|comment|be\s+sure)"
    rf"|\bi\s+(?:don{_AP}?t|do\s+not)\s+know\b"
    r"|^\W*(?:unable|not\s+able)\s+to\s+(?:answer|determine|find|help|say|tell|respond)"
    r"|\b(?:no|not\s+enough|insufficient)\s+(?:relevant\s+)?information\b"
    r"|\bi\s+have\s+no\s+(?:information|idea|data)\b"
    r"|\b(?:passages?|documents?|sources?|context|texts?|materials?)\s+(?:provided\s+|given\s+)?"
    rf"(?:do|does)(?:n{_AP}t|\s+not)\s+(?:contain|mention|include|say|specify|state|cover|"
    r"address|answer)"
    r"|\bcannot\s+be\s+(?:determined|answered)\b"
    r"|\bnot\s+possible\s+to\s+(?:answer|determine|say|tell)\b",
    re.I,
)
_PLEASANTRY = re.compile(r"^\W*(?:sorry|apologies|unfortunately|i\s+apologi[sz]e)\W*$", re.I)


@functools.lru_cache(maxsize=4096)
def answer_problem(text: str) -> str | None:
    """Why an answer cannot be analysed at all (empty or nonsense), else None. Memoised:
    planning and rescoring ask it of every answer, the engine's analysis again of those
    planning did not send to the judge."""
    if not text.strip():
        return EMPTY
    if not _WORD.search(text):
        return NO_WORDS
    if is_gibberish(text):
        return GIBBERISH
    return None


def is_gibberish(text: str) -> bool:
    """Half or more of the words are keyboard mashing: no vowel, a character thrice in a row,
    a run of keys (``asdf``) or filler (``lorem``). Acronyms (``PDF``) are words."""
    words = _ALPHA.findall(text)
    if not words:
        return False
    garbled = sum(1 for w in words if _garbled(w))
    return garbled * 2 >= len(words)


@functools.lru_cache(maxsize=65536)
def _garbled(word: str) -> bool:
    if word.isupper() and len(word) <= 6:
        return False  # an acronym
    w = word.lower()
    if w in _FILLER:
        return True
    if len(w) >= 3 and not _VOWELS & set(w):
        return True
    if _TRIPLE.search(w):
        return True
    return len(w) >= 3 and any(w in row for row in _KEYBOARD_ROWS)


def is_refusal_only(text: str) -> bool:
    """A short answer that only declines ("I'm sorry, I can't help with that", "Unable to
    answer based on given passages", "I don't know"): every sentence declines or asks."""
    if len(tokenize(text)) > _REFUSAL_WORDS:
        return False
    sentences = [text[a:b].strip() for a, b in sentence_spans(text)]
    sentences = [s for s in sentences if s]
    if not sentences:
        return False
    declines = [bool(_DECLINE.search(s)) for s in sentences]
    neutral = [s.endswith("?") or bool(_PLEASANTRY.match(s)) for s in sentences]
    return any(declines) and all(d or n for d, n in zip(declines, neutral, strict=True))


@functools.lru_cache(maxsize=4096)
def unjudgeable(text: str) -> str | None:
    """Why an answer is not sent to a judge: empty, nonsense, or a refusal; else None."""
    return answer_problem(text) or (REFUSAL if is_refusal_only(text) else None)


def abstention_of(
    text: str | None,
    claims: Sequence[ClaimJudgement],
    error_message: str | None = None,
    harness_error: str | None = None,
) -> str | None:
    """Why an answer counts as an abstention, or None when it answered (or the judge failed).

    From the text when known (empty, nonsense, refusal), else the recorded error; an answer
    whose judged claims are none holds no checkable claim.
    """
    if harness_error is not None:
        return None
    if text is not None:
        problem = unjudgeable(text)
        if problem is not None:
            return problem
    if error_message:
        return error_message
    if not claims:
        return NO_CLAIM
    return None
