"""Negation: its cue words, and the words a sentence denies within each cue's scope.

A negation's scope, not the presence of 'not', decides what a sentence denies: 'take with
food; do not exceed 4 doses' still asserts the food.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .words import MONTHS, NUMBER_WORDS, WEEKDAYS, content_stem, tokenize

NEGATION_WORDS = frozenset(
    """not no never none nobody nothing neither nor cannot without unable lack lacks
    lacking fails fail failed absent excluded prohibited forbidden""".split()
)
#: A prefix written as its own word ("non-refundable", "non-accommodating"): it denies the
#: one word it is joined to, not the clause.
PREFIX_NEGATIONS = frozenset({"non"})
#: Two-word cues that put what follows under a negation, up to the next comma: "private
#: individuals rather than public figures", "butter instead of oil" (keyed by their second
#: word, the one the scope starts after). They count in `negation_scope` only, never as a
#: denial: "instead of attending the local school, he enrolled at Scanlan" is no contradiction
#: of a source saying he could have attended it.
_PAIRED_CUES = {"than": "rather", "of": "instead"}
_CUE_TOKENS = NEGATION_WORDS | PREFIX_NEGATIONS | frozenset(_PAIRED_CUES.values()) | {"yet"}
#: Words that join the items of a list a negation denies as a whole: "does not offer
#: Wi-Fi, outdoor seating, or reservations" denies the reservations too.
_LIST_JOINS = frozenset({"or", "nor"})
# "no more than 4" is a bound, not a negation ("no longer requires" is one); "not only"
# adds rather than denies.
_COMPARATIVES = frozenset("more less later earlier sooner fewer longer".split())


def is_negation(token: str) -> bool:
    """True for a negation cue, including contractions (``doesn't``, ``won't``)."""
    return token in NEGATION_WORDS or token.endswith("n't")


# A negation's scope ends with its clause: "(super well done, no pink) and crispy fries",
# "not good either. Disappointed", "haven't tried yet but I will go back"; or its line
# ("Don't forget to add\nParking valet is $53 a day").
_CLAUSE_END = re.compile(r"[.;:!?()\[\]\n]|\s[-–—]+\s|\bbut\b", re.I)


def negated_stems(text: str, tokens: list[str], window: int = 5) -> set[str]:
    """Content stems that `text` (whose `tokens` are given) denies: those in the scope of a
    negation cue (the next `window` tokens of its clause) and asserted nowhere else in it.
    Scoping, rather than 'does the sentence contain not', keeps 'take with food; do not
    exceed 4 doses' from contradicting 'take with food'; "cut sprouted potatoes ..., careful
    not to break the sprouts" still asserts the sprouts."""
    scoped, asserted = _scopes(text, tokens, window, paired=False)
    return scoped - asserted


def negation_scope(text: str, tokens: list[str], window: int = 5) -> set[str]:
    """Every content stem `text` puts under a negation, asserted elsewhere in it or not
    ("the new sit-out rule: castaways may not sit out" puts 'sit' under one)."""
    return _scopes(text, tokens, window, paired=True)[0]


def negated_heads(text: str, tokens: list[str], window: int = 5) -> set[str]:
    """What each denial of `text` is about: the first content stem it denies (an adverb in
    -ly aside: "never actually took a class" denies the taking), the word a 'non' prefix
    joins, and the subject of a negated availability. "Coast Guard officials found no
    reason to doubt his story" denies the reason, not the story: a claim that tells the
    story contradicts nothing of it."""
    if not _has_cue(tokens):
        return set()
    heads: set[str] = set()
    for clause in _CLAUSE_END.split(text):
        words = tokenize(clause)
        for i, tok in enumerate(words):
            if tok in PREFIX_NEGATIONS and i + 1 < len(words):
                heads.add(content_stem(words[i + 1]) or "")
            if not _denies(words, i):
                continue
            heads.update(content_stem(words[k]) or "" for k in _denied_subject(words, i))
            after = (
                w
                for w in words[i + 1 : i + 1 + window]
                if not w.endswith("ly") and w not in _RELATIONS
            )
            heads.add(next((s for w in after if (s := content_stem(w)) is not None), ""))
    heads.discard("")
    return heads


def is_question(text: str) -> bool:
    """A question ("Can the university sue for defamation?") asserts nothing, and denies
    nothing, that a claim could restate or contradict."""
    return text.rstrip().endswith("?")


def prefixed_alike(a: Sequence[str], b: Sequence[str]) -> frozenset[str]:
    """Content stems both token lists write with the negating prefix ("nonfiction" and
    "non-fiction"): one word, the same on both sides, not a denial of the bare word."""
    if PREFIX_NEGATIONS.isdisjoint(a) or PREFIX_NEGATIONS.isdisjoint(b):
        return frozenset()  # the common case
    return _prefixed(a) & _prefixed(b)


def _prefixed(tokens: Sequence[str]) -> frozenset[str]:
    return frozenset(
        s
        for i, t in enumerate(tokens[:-1])
        if t in PREFIX_NEGATIONS and (s := content_stem(tokens[i + 1])) is not None
    )


def _scopes(text: str, tokens: list[str], window: int, paired: bool) -> tuple[set[str], set[str]]:
    """The stems in a negation's scope, and those outside every scope (`paired`: every word
    the text puts under a negation: the scopes of 'rather than' and 'instead of' too, and
    the question a negation embeds)."""
    if not _has_cue(tokens):
        return set(), set()  # the common case
    scoped: set[str] = set()
    asserted: set[str] = set()
    for clause in _CLAUSE_END.split(text):
        words = tokenize(clause)
        inside: set[int] = set()
        for i, tok in enumerate(words):
            if yet_to(words, i):  # "has yet to determine the cause": the determining
                inside.update(range(i + 1, _first_content(words, i + 1) + 1))
            elif _denies(words, i):
                end = i + 1 + window  # a prefix is part of its word: it takes no room
                prefixes = sum(w in PREFIX_NEGATIONS for w in words[i + 1 : end])
                end = _list_end(words, i, end + prefixes)
                if tok == "without":  # a preposition: its object ends at a comma
                    end = min(end, _comma_after(clause, i))
                # What an embedded question says is under the negation, not denied by it.
                inside.update(range(i + 1, end if paired else _question_cut(words, i, end)))
                inside.update(_denied_subject(words, i))
            elif paired and _paired_cue(words, i):
                inside.update(range(i + 1, min(i + 1 + window, _comma_after(clause, i))))
            elif tok in PREFIX_NEGATIONS:
                inside.add(i + 1)
        for i, t in enumerate(words):
            if (s := content_stem(t)) is not None:
                (scoped if i in inside and t not in _RELATIONS else asserted).add(s)
    return scoped, asserted


#: Words that only relate a thing to what follows them: "not located in a prime area"
#: denies the prime area, not that the hotel is located somewhere.
_RELATIONS = frozenset({"located", "situated", "based", "headquartered"})


def _first_content(words: Sequence[str], start: int) -> int:
    """The index of the first content word from `start` on (the last index when none)."""
    return next((k for k in range(start, len(words)) if content_stem(words[k])), len(words) - 1)


def _has_cue(tokens: Sequence[str]) -> bool:
    """Any negation cue among the tokens (checked at C speed first: most texts hold none)."""
    if not _CUE_TOKENS.isdisjoint(tokens):
        return True
    return "n't" in " ".join(tokens) and any(t.endswith("n't") for t in tokens)


def _denies(words: Sequence[str], i: int) -> bool:
    """The word at `i` is a negation cue that denies what follows it."""
    return (is_negation(words[i]) and not _no_denial(words, i)) or yet_to(words, i)


#: "The jury has yet to reach a verdict": 'yet to' after a form of 'have' or 'be' says the
#: act has not happened, as "has not reached a verdict yet" does; it denies that act, its
#: verb, and not the words the act is about ("has yet to determine the cause").
_YET_AFTER = frozenset("has have had is are was were".split())


def yet_to(words: Sequence[str], i: int) -> bool:
    """The word at `i` is the 'yet' of "has yet to" ("they've yet to", "is yet to be")."""
    if words[i] != "yet" or i < 1 or i + 1 >= len(words) or words[i + 1] != "to":
        return False
    before = words[i - 1]
    return before in _YET_AFTER or before.endswith(("'ve", "'s"))


def _paired_cue(words: Sequence[str], i: int) -> bool:
    """'rather than', 'instead of': the word at `i` closes a two-word cue."""
    first = _PAIRED_CUES.get(words[i])
    return first is not None and i > 0 and words[i - 1] == first


def _comma_after(clause: str, i: int) -> int:
    """The index of the first token of `clause` after token `i` that a comma precedes (the
    number of its tokens when none does)."""
    seen = 0
    for piece in re.split(r",\s", clause):
        seen += len(tokenize(piece))
        if seen > i + 1:
            return seen
    return seen


def _question_cut(words: Sequence[str], i: int, end: int) -> int:
    """`end`, or the 'if' / 'whether' before it: "it is not clear if they plan to testify",
    "do not use if the seal is broken" deny the clearness, the use, not what the question
    or condition after them says (which `negation_scope` still puts under the negation)."""
    for k in range(i + 1, min(end, len(words))):
        if words[k] in _EMBEDDED:
            return k
    return end


#: Words that open an embedded question or a condition a negation does not reach.
_EMBEDDED = frozenset({"if", "whether"})

#: "X is not available", "pets are not allowed", "milk was no longer available": a
#: negation of these words denies what the sentence says they are of, as "no X" does.
_EXISTENCE = frozenset("available allowed permitted offered provided accepted served".split())
_COPULAS = frozenset("is are was were be been".split())
_BETWEEN = frozenset("longer currently yet always".split())  # "no longer available"


def _denied_subject(words: Sequence[str], i: int) -> range:
    """The (up to two) words before the copula of a negated availability ("Wi-Fi is not
    available"), which the negation at `i` denies too; an empty range otherwise."""
    copula = i if words[i] in {"isn't", "aren't", "wasn't", "weren't"} else i - 1
    if copula < 1 or (copula < i and words[copula] not in _COPULAS):
        return range(0)
    k = i + 1
    while k < len(words) and words[k] in _BETWEEN:
        k += 1
    if k >= len(words) or words[k] not in _EXISTENCE:
        return range(0)
    return range(max(0, copula - 2), copula)


def _list_end(words: Sequence[str], i: int, end: int) -> int:
    """Where the scope of the negation at `i` ends: `end`, or past the last item of a list
    joined by 'or'/'nor' that starts inside it (its last item: up to two words)."""
    for k in range(i + 1, min(end + 1, len(words))):
        if words[k] in _LIST_JOINS:
            return max(end, k + 3)
    return end


def _no_denial(tokens: Sequence[str], i: int) -> bool:
    """The negation cue at `i` denies nothing: "no more than 4", "not only", "whether or
    not", "if the tenant does not agree" (a condition), "has failed, and" ("failed to
    reach orbit" denies the reaching)."""
    after = tokens[i + 1 : i + 3]
    if after[:1] in (["just"], ["merely"]) or (tokens[i] == "no" and after[:1] == ["other"]):
        return True  # "not just X but Y" adds, "no other cars were involved in the crash"
    if after[:1] == ["only"] or EXCLUSIVE.intersection(after[:2]) or negates_a_bound(tokens, i):
        return True  # "not only", "nothing but salt", "nothing else except salt"
    if (i > 0 and tokens[i - 1] in {"whether", "if", "or"}) or (
        tokens[i] in {"fail", "fails", "failed"} and after[:1] != ["to"]
    ):
        return True  # "whether or not", "with or without"
    return "if" in tokens[max(0, i - 4) : i]


#: After a negation, words that make it say "only": "nothing but salt", "not only".
EXCLUSIVE = frozenset({"only", "but", "except", "besides"})


def negates_a_bound(tokens: Sequence[str], i: int) -> bool:
    """The negation at `i` turns a bound round, and denies nothing: "not more than 4",
    "do not take more than 6" (which is "take no more than 6"), "no later than May". A
    comparison with no value after it is denied as any other words: "women are not paid
    less than their male colleagues" says the opposite of "are paid less"."""
    return any(
        k + 1 < len(tokens)
        and tokens[k] in _COMPARATIVES
        and tokens[k + 1] == "than"
        and _value_at(tokens, k + 2)
        for k in (i + 1, i + 2)
    )


#: Words that open a value after 'than' ("than a week", "than half"), besides numbers,
#: number words, days and months.
_VALUE_OPENERS = frozenset("a an half one once twice".split())


def _value_at(tokens: Sequence[str], k: int) -> bool:
    """A value starts at `k`: a number, a number word, a day or month, "a week"."""
    if k >= len(tokens):
        return False
    t = tokens[k]
    return (
        t[:1].isdigit()
        or t in NUMBER_WORDS
        or t in _VALUE_OPENERS
        or t in WEEKDAYS
        or t in MONTHS
        or t in {"noon", "midnight", "may"}  # no modal follows 'than': 'may' is the month
    )
