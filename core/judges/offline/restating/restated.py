"""The source sentence a claim restates, and what a restatement may not change.

A claim is compared with the passage it restates (the retrieved passage holding most of
its content words), not with whichever passage retrieval ranked first: a copy of one rule
must not be read against another. Against that passage three findings are exact enough to
decide alone: the claim is a word-for-word copy; its polarity differs (a negation added or
dropped, 'allowed' for 'prohibited'); or the passage restricts what the claim states
without the restriction ('unless ...', 'only if ...', 'unused').
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from ....evidence.index import EvidenceIndex, Passage
from ....text.negation import (
    EXCLUSIVE,
    PREFIX_NEGATIONS,
    is_negation,
    is_question,
    negates_a_bound,
    yet_to,
)
from ....text.values import value_words
from ....text.words import MONTHS, WEEKDAYS, content_stems, normalize
from ..features import Alignment, ClaimFeatures

#: Share of the claim's content words the restated passage must hold.
RESTATES = 0.8
#: Words a passage may hold before the claim's first matched word and still negate it
#: ('Never operate', 'must not wear').
_REACH = 3
# 'non' of "non-refundable" turns its word round as 'not' does ("not refundable").
_NEGATIONS = (
    frozenset("not no never none nobody nothing neither nor cannot".split()) | PREFIX_NEGATIONS
)
# with "always", the word that "never" turns round; and the weekdays and months, values
# whose slot is compared apart ('died Monday' restates 'died Saturday' with another day).
_NEGATION_STEMS = frozenset(
    content_stems(
        [
            *_NEGATIONS,
            "always",
            *WEEKDAYS,
            *MONTHS,
        ]
    )
)
#: Polar words and their positive pole: 'prohibited' says 'not allowed'.
_NEGATIVE_POLE = {
    "prohibited": "allowed",
    "forbidden": "permitted",
    "unsafe": "safe",
    "excluded": "included",
    "optional": "required",
    "ineligible": "eligible",
    "unavailable": "available",
    "disabled": "enabled",
    "impossible": "possible",
    "unable": "able",
    "unlikely": "likely",
    "disallowed": "allowed",
    "disrespect": "respect",
    "disagree": "agree",
    "dislike": "like",
}
#: Words that deny nothing after 'no' or 'not': 'no more than 4' is a bound.
_BOUND_WORDS = frozenset("more less later earlier sooner fewer longer only".split())
#: How alike the claim's words (polarity aside) and the passage's must be, in order.
_SAME_WORDS = 0.75
_MIN_COPY_WORDS = 5


def prose_candidates(al: Alignment) -> list[Passage]:
    """The prose passages retrieved for the claim (a record's fields have their own checks);
    the finders below take them found once per claim (`candidates`)."""
    seen = {id(p): p for p in (*al.support, *(h.passage for h in al.hits), al.best) if p}
    return [p for p in seen.values() if p.leaf is None]


def copied_passage(
    c: ClaimFeatures,
    al: Alignment,
    index: EvidenceIndex | None = None,
    candidates: Sequence[Passage] | None = None,
) -> Passage | None:
    """A passage the claim copies word for word, if any: a retrieved one, else any prose
    passage of `index` (a version the claim names narrows retrieval to that version, yet
    "The v2 API is deprecated", copied from the v3 reference, is what the sources say)."""
    if candidates is None:
        candidates = prose_candidates(al)
    found = next((p for p in candidates if is_copy(c, p)), None)
    if found is not None or index is None:
        return found
    words = _padded(c.text)
    # Each word of a document's normalised text stands in its lower-cased text: a document
    # without the claim's longest word is not normalised to be searched (most are not).
    longest = max(words.split(), key=len, default="")
    return next(
        (
            p
            for d in index.docs
            if longest in _lowered_document(d.text) and words in _padded_document(d.text)
            for p in d.passages
            if p.leaf is None and is_copy(c, p)
        ),
        None,
    )


def restated_passage(
    c: ClaimFeatures,
    al: Alignment,
    ignore: frozenset[str] = frozenset(),
    candidates: Sequence[Passage] | None = None,
) -> Passage | None:
    """The retrieved passage holding at least ``RESTATES`` of the claim's content words
    (those in `ignore` aside), most of them first, then most of its values, then the
    shortest; None when no passage holds that many."""
    # A negation or a day is no word the restated sentence must hold: each is compared apart.
    claim = (frozenset(c.stems) | _poles(tuple(c.tokens))) - ignore - _NEGATION_STEMS
    if not claim:
        return None
    if candidates is None:
        candidates = prose_candidates(al)
    values = value_words(tuple(c.tokens))
    held = [
        (_held(claim, p), len(values.intersection(p.tokens)) if values else 0, -len(p.stems), p)
        for p in candidates
        if not is_question(p.text)
    ]
    best = max(held, key=lambda h: h[:3], default=None)
    if best is None or best[0] < RESTATES * len(claim):
        return None
    return best[3]


def _held(claim: frozenset[str], p: Passage) -> int:
    """How many of the claim's stems the passage holds (with the positive pole of each of
    its polar words: 'prohibited' holds 'allowed' too; its polarity is compared apart)."""
    poles = _poles(p.tokens)
    return len(claim & p.stems | claim & poles) if poles else len(claim & p.stems)


@lru_cache(maxsize=50_000)
def _poles(tokens: tuple[str, ...]) -> frozenset[str]:
    return frozenset(content_stems([_NEGATIVE_POLE[t] for t in tokens if t in _NEGATIVE_POLE]))


def is_copy(c: ClaimFeatures, p: Passage) -> bool:
    """The claim's words stand in the passage as one run (punctuation and case aside), and
    no negation of the run's own sentence right before it denies it: "Take more than 6
    tablets" is no copy of "Do not take more than 6 tablets", it says the opposite."""
    words = _padded(c.text)
    if words.count(" ") <= _MIN_COPY_WORDS or words not in _padded(p.text):
        return False
    if _NEGATIONS.isdisjoint(p.tokens) and "n't" not in p.text and "n’t" not in p.text:
        return True  # no negation in the sentence to deny the run (most sentences)
    return not _denied_run(words, p.text)


#: Where a sentence or clause ends, for the words that may deny a copied run.
_CLAUSE_END = re.compile(r"[.!?;:]")
_END_WORD = "qqendqq"
_END = f" {_END_WORD} "


@lru_cache(maxsize=50_000)
def _denied_run(words: str, text: str) -> bool:
    """Wherever the run stands in the text, a negation stands in the ``_REACH`` words of its
    sentence before it (a run across sentences is copied whole: never denied)."""
    marked = f" {normalize(_CLAUSE_END.sub(_END, text))} "
    at = marked.find(words)
    if at < 0:
        return False
    run = ["not" if w == "t" else w for w in words.split()[:3]]  # 't' of "don't"
    while at >= 0:
        # the reach before the run, and four words more to see a condition open
        before = ["not" if w == "t" else w for w in marked[:at].split()[-_REACH - 4 :]]
        if _END_WORD in before:
            before = before[len(before) - before[::-1].index(_END_WORD) :]
        words_at = before + run
        reach = range(max(0, len(before) - _REACH), len(before))
        if not any(_turns_round(words_at, k) for k in reach):
            return False
        at = marked.find(words, at + 1)
    return True


def _turns_round(words: list[str], k: int) -> bool:
    """The word at `k` is a negation that turns what follows round: a bound too ("do not
    take more than 6"), but not "nothing but", "not only" (those say 'only'), nor one of a
    condition ("if the tenant does not agree, either side ...": the copy drops the
    condition, a finding of its own)."""
    return (
        (is_negation(words[k]) or words[k] in PREFIX_NEGATIONS)
        and EXCLUSIVE.isdisjoint(words[k + 1 : k + 3])
        and _CONDITIONALS.isdisjoint(words[max(0, k - 4) : k])  # "if ... does not agree"
    )


@lru_cache(maxsize=50_000)
def _padded(text: str) -> str:
    """The text's words, normalised, with a space either side (a claim is judged against
    the same few passages again and again)."""
    return f" {normalize(text)} "


#: `_padded` for a whole document, which every claim no retrieved passage holds looks for
#: itself in: memoised apart, for the few documents of the cases in hand, so that whole
#: documents do not fill the passages' memo.
_padded_document = lru_cache(maxsize=64)(_padded.__wrapped__)


@lru_cache(maxsize=64)
def _lowered_document(text: str) -> str:
    """A document's text lower-cased, once per document rather than once per claim."""
    return text.lower()


def polarity_flip(c: ClaimFeatures, p: Passage) -> str | None:
    """The passage's words for the claim's polarity when it differs from the claim's ('not'
    dropped, 'allowed' for 'prohibited'); None when both say the same."""
    if is_copy(c, p):
        return None  # the sentence's own words say what the sentence says
    return _polarity_flip(tuple(c.tokens), tuple(p.tokens))


@lru_cache(maxsize=50_000)
def _polarity_flip(claim: tuple[str, ...], passage: tuple[str, ...]) -> str | None:
    c_words, _ = _polar(claim)
    p_words, _ = _polar(passage)
    if _CONDITIONALS.isdisjoint(claim):
        p_words = _unconditioned(p_words)
    stems = set(content_stems(list(c_words)))
    at = stem_positions(p_words, stems)
    if not at:
        return None
    # A negation past the claim's last matched word ('the shelf life is not 36 months':
    # numbers and units are no content words) takes the window as far along the passage.
    tail = _tail(c_words, stems)
    start, end = max(0, at[0] - _REACH), at[-1] + 1 + tail
    if not _CONDITIONALS.isdisjoint(claim) and not _CONDITIONALS.isdisjoint(p_words[end : end + 2]):
        end = len(p_words)  # the condition the claim states, put after the words it governs
    flip = _flipped(c_words, p_words[start:end])
    if flip is None and end - start > len(c_words):
        # A word of the claim said again further on ('one debate per month') stretches
        # the window past the clause restated: the words aligned in order mark it.
        flip = _flipped(c_words, _aligned(c_words, p_words, tail))
    return flip


#: Words that open a condition: a negation inside one ("if the tenant does not agree")
#: is the condition's, not the polarity of what the sentence states.
_CONDITIONALS = frozenset({"if", "unless", "when", "whether"})


def _unconditioned(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words with every negation that stands within four words after a conditional
    marked as the condition's ('not_if'): a claim that drops the condition ("Either side
    can refer the dispute" from "If the tenant does not agree, either side can refer the
    dispute") leaves out a condition, it does not turn the sentence round."""
    out, since = list(words), _REACH + 2
    for i, w in enumerate(words):
        since = 0 if w in _CONDITIONALS else since + 1
        if w == "not" and since <= 4:
            out[i] = "not_if"
    return tuple(out)


def _flipped(c_words: tuple[str, ...], window: tuple[str, ...]) -> str | None:
    """The window's words when its polarity differs from the claim's and it says the
    claim's words (negations aside); else None."""
    c_neg = _negations_of_shared(c_words, window)
    p_neg = _negations_of_shared(window, c_words)
    # "is just" against "isn't just" (a claim without 'just' says neither)
    just = (_NOT_JUST in c_words) != (_NOT_JUST in window) and not _JUST.isdisjoint(c_words)
    if not window or ((p_neg - c_neg) % 2 == 0 and not just):
        return None
    plain = [w for w in window if w not in _NOTS]
    same = SequenceMatcher(None, [w for w in c_words if w not in _NOTS], plain, autojunk=False)
    if same.ratio() < _SAME_WORDS:
        return None  # another sentence with some of its words, not a restatement
    return " ".join(window)[:90]


#: 'Not just' ('not merely'): it adds rather than denies, and turns 'just' round.
_NOT_JUST = "not_just"
_NOTS = frozenset({"not", _NOT_JUST})
_JUST = frozenset({"just", "merely"})

#: How far after a negation the words it denies stand ('need not worry', 'not a huge
#: fan'): the content words within that reach.
_DENIED_REACH = 3


def _negations_of_shared(words: tuple[str, ...], other: tuple[str, ...]) -> int:
    """The negations in `words` that deny a word the `other` side says too (or one whose
    denied word is not found): "passengers need not worry as the airline will refund them"
    denies the worry, not the refund, so it does not turn round "passengers will be
    refunded"; nor does "(not specified)" added to a copied list item."""
    if "not" not in words:
        return 0
    theirs = set(content_stems(list(other)))
    count = 0
    for i, w in enumerate(words):
        if w != "not":
            continue
        denied = {s for t in words[i + 1 : i + 1 + _DENIED_REACH] if (s := _stem(t)) is not None}
        count += not denied or not denied.isdisjoint(theirs)
    return count


def _aligned(c_words: tuple[str, ...], p_words: tuple[str, ...], tail: int) -> tuple[str, ...]:
    """The passage's words from the first to the last it shares in order with the claim
    (negations aside), with room for a negation before them and the claim's tail after."""
    plain = [w for w in c_words if w != "not"]
    blocks = [
        b
        for b in SequenceMatcher(None, plain, p_words, autojunk=False).get_matching_blocks()
        if b.size
    ]
    if not blocks:
        return ()
    start, end = blocks[0].b, blocks[-1].b + blocks[-1].size
    return p_words[max(0, start - _REACH) : end + tail]


def _tail(words: tuple[str, ...], stems: set[str]) -> int:
    """How many words (negations aside) follow the last word whose stem is in `stems`:
    a claim's numbers and units are no content words ('take more than 6 tablets in 24
    hours'), and the window it is read in must reach as far."""
    last = max(stem_positions(words, stems), default=len(words) - 1)
    return sum(w != "not" for w in words[last + 1 :])


def stem_positions(words: tuple[str, ...], stems: set[str]) -> list[int]:
    """Where the words whose stem is one of `stems` stand."""
    return [i for i, w in enumerate(words) if _stem(w) in stems]


@lru_cache(maxsize=100_000)
def _stem(word: str) -> str | None:
    """The word's content stem (None for a stop word, a number or a unit)."""
    stems = content_stems([word])
    return stems[0] if stems else None


#: The words `_polar` rewrites (besides any ending in "n't"): a sentence without one is
#: its own polar form, found without walking its words.
_POLAR_WORDS = _NEGATIONS | frozenset(_NEGATIVE_POLE) | {"yet"}


def _without_nt(token: str) -> str:
    """The verb of a contraction with "n't" ("doesn't" -> "does", "won't" -> "will")."""
    return {"won't": "will", "can't": "can"}.get(token, token[:-3])


@lru_cache(maxsize=50_000)
def _polar(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """Words with every negation made a separate 'not' and every negative pole its positive
    word after a 'not'; and the count of 'not's outside the words (for the claim)."""
    if _POLAR_WORDS.isdisjoint(tokens) and "n't" not in " ".join(tokens):
        return tokens, 0
    out: list[str] = []
    for i, t in enumerate(tokens):
        if t in {"no", "not"} and i + 1 < len(tokens) and tokens[i + 1] in _BOUND_WORDS:
            out.append(t + "_bound")
        elif (t in _NEGATIONS or t.endswith("n't")) and negates_a_bound(tokens, i):
            out.append("not_bound")  # "do not take more than 6": a bound, read by value
        elif (t == "not" or t.endswith("n't")) and i + 1 < len(tokens) and tokens[i + 1] in _JUST:
            # "isn't just about one case" adds, yet says the opposite of "is just about one
            # case": marked after 'just', where the words it turns round follow
            out += [] if t == "not" else [_without_nt(t)]
        elif t in _JUST and i > 0 and (tokens[i - 1] == "not" or tokens[i - 1].endswith("n't")):
            out += [t, _NOT_JUST]
        elif t.endswith("n't"):
            out += [_without_nt(t), "not"]
        elif t == "cannot":
            out += ["can", "not"]
        elif yet_to(tokens, i):
            out += ["not", t]  # "has yet to reach" says "has not reached"
        elif t in _NEGATIONS:
            out.append("not")
        elif t in _NEGATIVE_POLE:
            out += ["not", _NEGATIVE_POLE[t]]
        else:
            out.append(t)
    return tuple(out), sum(w == "not" for w in out)
