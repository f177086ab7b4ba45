"""Small shipped word lists that lexical matching needs and stemming cannot give.

Kept as data in code because they are tiny and fixed; the rule that lets a short code
in a source ("CA") stand for a name in an answer ("California"); and the one regex builder
that turns such a list into a fast alternation.
"""

from __future__ import annotations

import re


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


#: Endings that make a place's people or adjective of its name: American, Mainer, Canadian,
#: Chinese, Israeli, Polish.
_DEMONYM_ENDINGS = ("n", "an", "ian", "r", "er", "ese", "i", "ish")


def demonyms(name: str) -> tuple[str, ...]:
    """The words a place's name makes for its people ("america" -> "american", "maine" ->
    "mainer", "canada" -> "canadian"): a source that speaks of "Mainers" names Maine. Names
    of four letters or more, in lower case; the source's word must be one of these exactly."""
    if len(name) < 4 or not name.isalpha():
        return ()
    bases = (name, name[:-1]) if name[-1] in "aeiouy" else (name,)
    return tuple(b + e for b in bases for e in _DEMONYM_ENDINGS)


# Stems of words that frame a claim rather than state its content ("it is described as",
# "overall it appears", "offers"): summaries and record descriptions use them freely, so a
# missing one says little about whether the content is invented. Review wording
# ("reviewers praised") is the ``reviews`` rule pack's (judges/offline/conventions.py).
FRAMING_STEMS = frozenset(
    """mention not describ overall appear seem offer provid availabl option featur popular
    known highlight report say includ variety stat express shar make also note comment found
    find other several many some
    """.split()
)


def trie_pattern(words: list[str]) -> str:
    """One regex alternation for `words`, factored by common prefix ("d(?:ays?|ollars?)").

    It matches exactly what the plain longest-first alternation matches, and tries the
    same candidates in the same order (longest first), but the engine walks one branch
    per character instead of trying every word at every number: a third of extraction.
    """
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def alternation(node: dict) -> str:
        branches = [re.escape(ch) + alternation(child) for ch, child in node.items() if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:  # a word ends here: longer words first (greedy), then this one
            return f"(?:{body})?" if len(branches) > 1 or len(body) > 1 else body + "?"
        return body

    return alternation(trie)
