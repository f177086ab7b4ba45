"""Whether the sources name a name the answer writes.

A name no source holds is the surest sign of an invention, so the test must not flag the
ways one name is written differently: a plural or possessive, a hyphen dropped, a people's
word for its place ("Mainers" for Maine), a short code, initials with periods ("U.N.").
"""

from __future__ import annotations

from functools import lru_cache

from .lexicon import abbreviates, demonyms
from .words import is_content, tokenize


def name_known(
    name: str,
    vocabs: tuple[frozenset[str], ...],
    codes: tuple[str, ...] | None = None,
    written: frozenset[str] = frozenset(),
) -> bool:
    """Every word of the name is in the sources (or the question), allowing plurals, a
    hyphen dropped ("Wi-Fi" / "WiFi") and a short code standing for it ("California" / "CA",
    when the sources hold such a code; `codes`: those that may, by default every short word
    of the vocabularies); `written`: the codes the sources write with periods ("U.N.")."""
    tokens = [t.removesuffix("'s") for t in tokenize(name)]
    if len(tokens) > 1 and any("".join(tokens) in v for v in vocabs):
        return True
    # "New York" / "NY": the code may stand for the whole name or for its unknown words.
    if not (unknown := [t for t in tokens if not _word_known(t, vocabs) and t not in written]):
        return True
    if codes is None:
        codes = tuple(c for v in vocabs for c in _vocabulary_codes(v))
    whole = "".join(tokens)
    return any(abbreviates(c, whole) for c in codes) or all(
        any(abbreviates(c, t) for c in codes) for t in unknown
    )


def _word_known(t: str, vocabs: tuple[frozenset[str], ...]) -> bool:
    if any(t in v for v in vocabs):
        return True  # the word as written (most names): the other forms are not built
    forms: tuple[str, ...] = (t + "'s", t.removesuffix("s"), t + "s")  # plural both ways
    if t.endswith("s"):
        forms += (t[:-1] + "'s",)  # a plural with an apostrophe: "TVs" / "TV's"
    if any(f in v for f in forms for v in vocabs):
        return True
    people = demonyms(t)  # "Americans" names America
    return any(f in v or f + "s" in v for f in people for v in vocabs)


@lru_cache(maxsize=64)
def _vocabulary_codes(vocabulary: frozenset[str]) -> tuple[str, ...]:
    """The short codes of a vocabulary ("ca", "nsw"), once per vocabulary: scanning a long
    document's words for every unknown name would cost the whole vocabulary each time."""
    return tuple(c for c in vocabulary if len(c) <= 3 and c.isalpha() and is_content(c))
