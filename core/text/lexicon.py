"""Small shipped word lists that lexical matching needs and stemming cannot give.

Kept as data in code because they are tiny and fixed; and the rule that lets a short code
in a source ("CA") stand for a name in an answer ("California").
"""

from __future__ import annotations


def abbreviates(code: str, word: str) -> bool:
    """`code` (two or three letters) can abbreviate `word`: it starts with the word's
    first letter and its other letters follow in order ("CA" California, "TX" Texas,
    "NSW" New South Wales when the words are run together). Country-neutral: no list of
    any one country's codes."""
    code, word = code.lower(), word.lower()
    if not (2 <= len(code) <= 3 and code.isalpha() and len(word) > len(code)):
        return False
    if code[0] != word[0]:
        return False
    rest = iter(word[1:])
    return all(c in rest for c in code[1:])


# Stems of words that frame a claim rather than state its content ("reviewers praised",
# "overall it appears", "offers"): summaries and record descriptions use them freely, so a
# missing one says little about whether the content is invented.
DISCOURSE_STEMS = frozenset(
    """review reviewer customer mention not prais describ overall appear seem offer experienc
    locat provid availabl option featur popular known highlight report say includ variety
    stat express shar not enjoy lov recommend positiv negativ feedback rat star visit spot
    establishment place make also note comment found find other several many some
    """.split()
)
