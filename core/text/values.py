"""The values among a sentence's words: numbers, days and months.

They are no content words, yet of two sentences holding a claim's words alike ('... up to
40 days in region 3', '... up to 90 days in region 7'), the one holding its values is the
one it speaks of. A count is the same value spelled out or in digits: 'eight mph' speaks of
the sentence that says '8 mph'.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .quantities import WORD_VALUES
from .words import MONTHS, WEEKDAYS

#: A count's other spelling, both ways ('eight' <-> '8'): the words under a hundred that
#: name one number ('dozen' and 'twice' say more); 'one' aside (a pronoun as often).
_OTHER_SPELLING = {
    w: str(int(v)) for w, v in WORD_VALUES.items() if v < 100 and w not in ("one", "dozen", "twice")
}
_OTHER_SPELLING |= {v: k for k, v in list(_OTHER_SPELLING.items())}

#: Words that are values as they are: days, months and spelled counts.
_NAMED = WEEKDAYS | MONTHS | frozenset(_OTHER_SPELLING)
_DIGIT = re.compile(r"\d").search


@lru_cache(maxsize=50_000)
def value_words(tokens: tuple[str, ...]) -> frozenset[str]:
    """The numbers (each in both spellings of a count), days and months among the tokens."""
    found = {t for t in tokens if t in _NAMED or (not t.isalpha() and _DIGIT(t))}
    counts = found.intersection(_OTHER_SPELLING)
    return frozenset(found.union(map(_OTHER_SPELLING.__getitem__, counts)) if counts else found)
