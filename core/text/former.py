"""Values a text gives as former ones: "now 30 seconds (it was 10 seconds)", "raised from
£50 to £75".

A claim that states the old value as the current one ("the timeout is 10 seconds") holds
every word and number of its evidence, so only the words beside the value tell that the
source has moved on from it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .quantities import Quantity

_CHANGED = (
    r"(?:increas|rais|reduc|decreas|cut|chang|lower|extend|shorten|rose|ris|fell|fall|drop"
    r"|went|go|move|updat|revis|adjust|bump)\w*(?:\s+(?:up|down))?"
)
# Right before the value: "(it was 10 seconds)", "previously £50", "changed from 3 to 5".
_FORMER_BEFORE = re.compile(
    rf"(?:\b(?:it|this|that)\s+(?:was|were)|\bpreviously|\bformerly|\bonce|\bused\s+to\s+be"
    rf"|\b{_CHANGED}\s+from)\s+(?:only\s+)?$",
    re.I,
)
# Every cue of _FORMER_BEFORE holds one of these ("was", "were", "from", "previously",
# "formerly", "once", "used to be"), in any case but the first letter.
_CUE_GATE = re.compile("as |ere |rom |eviously|ormerly|nce |sed ")
# Words that put the claim itself in the past: it may state the former value.
_PAST_CUES = re.compile(
    r"\b(?:was|were|had|previously|formerly|used\s+to|from|before|until|earlier|old|prior|"
    r"originally|once|no\s+longer)\b",
    re.I,
)


def is_former(text: str, q: Quantity) -> bool:
    """`text` gives `q` as a value it had before, not the one it has now."""
    head = text[max(0, q.start - 30) : q.start]
    if _CUE_GATE.search(head) is None:  # most values: no costlier search
        return False
    return _FORMER_BEFORE.search(head) is not None


@lru_cache(maxsize=8192)
def speaks_of_the_past(text: str) -> bool:
    """The claim talks about how things were, so an old value may be its point."""
    return _PAST_CUES.search(text) is not None
