"""Truth-changing transform: a condition or exception dropped.

'Refunds are given only if the item is unused' becomes 'Refunds are given'; 'unless your
doctor says so' and the word 'unused' go the same way. The result claims more than the
source allows, while every remaining word is in it.
"""

from __future__ import annotations

import re

from .transform import Source, Transform

_TRAILING = re.compile(
    r",?\s+(?:only\s+)?(?:if|unless|provided(?:\s+that)?|except(?:\s+(?:for|when|if))?|"
    r"as\s+long\s+as|so\s+long\s+as|on\s+condition\s+that)\s+[^.;!?]+",
    re.I,
)
_LEADING = re.compile(
    r"^(?:only\s+)?(?:if|unless|provided(?:\s+that)?|as\s+long\s+as)\s+[^,]{3,},\s*", re.I
)
_WORDS = re.compile(r"\b(?:only|unused|unopened|solely|exclusively)\s+", re.I)
_MIN_LEFT = 3


def condition_dropped(s: Source) -> str | None:
    """A condition or exception clause removed ('only if', 'unless', 'except', 'provided
    that'), else a restricting word ('only', 'unused')."""
    for pattern in (_TRAILING, _LEADING, _WORDS):
        m = pattern.search(s.sentence)
        if m is None:
            continue
        out = s.sentence[: m.start()] + (" " if pattern is _WORDS else "") + s.sentence[m.end() :]
        out = out.strip()
        if len(re.findall(r"\w+", out)) >= _MIN_LEFT:
            return out if out.endswith((".", "!", "?")) else out + "."
    return None


RESTRICTIONS = [
    Transform(
        "condition_dropped",
        "restriction",
        False,
        "A condition or exception dropped ('only if', 'unless', 'unused').",
        condition_dropped,
    )
]
