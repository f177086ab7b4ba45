"""Truth-changing transform: a condition or exception dropped.

'Refunds are given only if the item is unused' becomes 'Refunds are given'; 'unless your
doctor says so', 'only after you have removed the tag' and the word 'unused' go the same
way. The result claims more than the source allows, while every remaining word is in it.

A bare 'only' is not dropped: 'Refunds go only to the original card' and 'a population of
only a few thousand' still hold without it ('Refunds go to the original card'): the claim
says less than the source, not more, and names the same card. Nor is an 'if' that asks
('identify if this is natural', 'check if it fits') or a 'provided' that is a verb ('has
provided good service') a condition.
"""

from __future__ import annotations

import re

from .transform import Source, Transform

#: A trailing condition: not one that opens a clause of its own after ';' or ':' ("declare
#: them; if you do not, ..."), and it ends at a full stop (not a decimal point: '99.0%') or
#: at a comma that starts a main clause of its own (", the credit is 25%").
_TRAILING = re.compile(
    r"(?<![;:]),?\s+(?:only\s+(?:after|before|when|once|until|within)|(?:only\s+)?(?:if|unless|"
    r"provided\s+that|(?<=,\s)provided|except(?:\s+(?:for|when|if))?|as\s+long\s+as|"
    r"so\s+long\s+as|on\s+condition\s+that))\s+"
    r"(?:[^.;!?,]|\.(?=\d)|,(?!\s+(?:it|you|we|they|he|she|this|there)\b))+",
    re.I,
)
#: A condition given as an example ('longer, for example if ...') restricts nothing.
_EXAMPLE = re.compile(r"(?:for\s+example|for\s+instance|e\.g\.|such\s+as)\W*$", re.I)
_LEADING = re.compile(
    r"^(?:only\s+)?(?:if|unless|provided(?:\s+that)?|as\s+long\s+as)\s+[^,]{3,},\s*", re.I
)
_LIST_NUMBER = re.compile(r"^\s*\d{1,2}[.)]?\s+")
_WORDS = re.compile(r"\b(?:unused|unopened)\s+", re.I)
#: Verbs after which 'if' asks rather than restricts ('identify if', 'check if').
_ASKS = re.compile(
    r"\b(?:ask|asks|asked|check|checks|see|know|knows|tell|determine|decide|identify|find\s+out|"
    r"wonder|wondering|whether)\s*$",
    re.I,
)
_MIN_LEFT = 3


def condition_dropped(s: Source) -> str | None:
    """A condition or exception clause removed ('only if', 'unless', 'except', 'provided
    that', 'only after'), else a restricting word ('unused', 'unopened'); a list item's
    number goes with a condition that opens it ('1  If you e-filed, you ...' gives
    'You ...')."""
    item = _LIST_NUMBER.match(s.sentence)
    sentence = s.sentence[item.end() :] if item else s.sentence
    for pattern in (_TRAILING, _LEADING, _WORDS):
        m = pattern.search(sentence)
        if (
            m is None
            or _EXAMPLE.search(sentence[: m.start()])
            or _ASKS.search(sentence[: m.start()])
        ):
            continue
        out = sentence[: m.start()] + (" " if pattern is _WORDS else "") + sentence[m.end() :]
        out = out.strip()
        out = out[:1].upper() + out[1:] if m.start() == 0 else out
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
