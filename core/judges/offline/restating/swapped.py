"""One slot of the restated sentence changed: a name, the actor, or the direction of a bound.

A claim that keeps every word of the source sentence it restates but one slot is read
right by word overlap alone, yet says something else: "Anna Berg signs the form" for
"Tom Lind signs the form", "we pay the fee" for "the customer pays the fee", "over 12"
for "under 12". The claim and the restated passage are aligned word by word; a finding
needs one short replaced run with matching words on both sides of it, so a paraphrase
or another sentence that shares some words never fires.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import Match, SequenceMatcher
from functools import lru_cache

from ....evidence.index import Passage
from ....text.letters import plain_letters
from ....text.words import (
    MONTHS,
    STOPWORDS,
    WEEKDAYS,
    capitalised_first_word,
    content_stems,
    proper_names,
    tokenize,
)
from ..features import Alignment, ClaimFeatures
from .restated import restated_passage
from .runs import run_at

#: The longest replaced run (in words) still read as one slot.
_SLOT = 3
#: The longest name read as one slot ('McLean County Sheriff's Office').
_NAME_SLOT = 6
#: How alike the claim's words and the passage's must be, in order, outside the slot.
_SAME_WORDS = 0.7

_CALENDAR = WEEKDAYS | MONTHS
#: Titles: 'Ms Berg' names the Anna Berg of the sentence.
_TITLES = frozenset("mr mrs ms miss dr prof sir dame lord lady mx".split())

#: Bounds and their opposite, one word each side (multi-word bounds by their last word:
#: 'at least' / 'at most', 'more than' / 'less than').
_OPPOSITE_BOUND = {
    "under": "over",
    "over": "under",
    "above": "below",
    "below": "above",
    "before": "after",
    "after": "before",
    "least": "most",
    "most": "least",
    "more": "less",
    "less": "more",
    "fewer": "more",
    "maximum": "minimum",
    "minimum": "maximum",
    "earlier": "later",
    "later": "earlier",
    "exceed": "undercut",
    "within": "after",
}

#: Who acts, by grammatical person: a claim that moves the act to another person
#: ("we pay" for "you pay") changes who is bound by it.
_PERSON = {
    "i": 1,
    "we": 1,
    "us": 1,
    "our": 1,
    "my": 1,
    "you": 2,
    "your": 2,
}
_DETERMINERS = frozenset("the a an each every any our your their its this that".split())
#: Nouns that name a party to an agreement or a service (singular): who pays, who may
#: cancel, who is told. A general English list, not one document's names.
_PARTIES = frozenset(
    """customer client company business firm provider supplier vendor seller buyer
    purchaser retailer merchant store shop tenant landlord lessee lessor owner renter
    employee employer staff worker manager contractor agent broker insurer insured
    policyholder member guest visitor passenger traveller traveler airline carrier
    driver operator patient doctor nurse pharmacist physician clinician hospital clinic
    student teacher school parent child user subscriber account holder applicant
    claimant borrower lender bank debtor creditor government council authority
    organiser organizer participant host hotel partner team""".split()
)


Slot = tuple[tuple[str, ...], tuple[str, ...]]
#: One difference of an aligned claim and passage: claim start and end, passage start and
#: end (claim start -1 when it is no replacement).
Change = tuple[int, int, int, int]


def replaced_slots(
    claim: tuple[str, ...], passage: tuple[str, ...], longest: int = _SLOT, only: bool = False
) -> list[Slot]:
    """The replaced runs (claim words, passage words) of a one-slot restatement: short,
    with matching words right before or after, inside a window where the rest matches
    (with `only`, none when anything else inside the window differs)."""
    changes = _changes(claim, passage)
    if only and len(changes) > 1:
        return []
    out = []
    for i1, i2, j1, j2 in changes:
        if i1 < 0 or i2 - i1 > longest or j2 - j1 > longest:
            continue
        k = 1 if i1 > 0 and claim[i1 - 1] in _DETERMINERS else 0  # 'the' of 'the customer'
        out.append((claim[i1 - k : i2], passage[j1 - k : j2]))
    return out


def slot_changed(claim: tuple[str, ...], passage: tuple[str, ...]) -> bool:
    """Whether the claim, aligned with the passage, differs from it anywhere: when it does
    not, no slot finder (name, actor, bound, strength, number) can fire on the pair."""
    return bool(_changes(claim, passage))


@lru_cache(maxsize=50_000)
def _changes(claim: tuple[str, ...], passage: tuple[str, ...]) -> tuple[Change, ...]:
    """Where the claim differs from the passage inside the window they align in, as
    (claim start, end, passage start, end), passage positions absolute; a change that is
    no replacement has a claim start of -1. Empty when they do not align. Every slot
    finder reads the same alignment: it is the costly part, found once per pair."""
    if run_at(claim, passage):
        return ()  # a copy of a run of the passage changes nothing
    m = SequenceMatcher(None, claim, passage, autojunk=False)
    blocks = [b for b in m.get_matching_blocks() if b.size]
    if not blocks:
        return ()
    lo, hi, window = _window(claim, passage, blocks, m)
    if window.ratio() < _SAME_WORDS:
        lo, hi, window = _window(claim, passage, _in_line(blocks), m)
        if _matched(window.get_matching_blocks()) < _matched(blocks):
            return ()  # a claim word left out of line stands nowhere else: no restatement
    if window.ratio() < _SAME_WORDS:
        return ()
    return tuple(
        (i1 if tag == "replace" else -1, i2, lo + j1, lo + j2)
        for tag, i1, i2, j1, j2 in window.get_opcodes()
        if tag != "equal"
    )


def _window(
    claim: tuple[str, ...],
    passage: tuple[str, ...],
    blocks: list[Match],
    whole: SequenceMatcher,
) -> tuple[int, int, SequenceMatcher]:
    """The passage's stretch the claim aligns in, and the claim aligned with it: it reaches
    as far before the first match (after the last) as the claim does, so a slot at the
    claim's very start or end is replaced, not deleted. A stretch that is the whole
    passage is aligned already (`whole`)."""
    first, last = blocks[0], blocks[-1]
    lo = max(0, first.b - first.a)
    hi = min(len(passage), last.b + last.size + len(claim) - last.a - last.size)
    if lo == 0 and hi == len(passage):
        return lo, hi, whole
    return lo, hi, SequenceMatcher(None, claim, passage[lo:hi], autojunk=False)


def _in_line(blocks: list[Match]) -> list[Match]:
    """The matches in line with the longest one: a claim word matched with its earlier
    use in the sentence ('Zelparin must not ...' against '... the amount of zelparin in
    the blood, and Zelparin should not ...') stretches the window past the clause the
    claim restates. Used only when the window on them matches as many claim words ('on
    Silver' read against '... on Gold and can be added to Silver' loses 'Silver')."""
    main = max(blocks, key=lambda b: b.size)
    return [b for b in blocks if abs((b.b - b.a) - (main.b - main.a)) <= _SLOT]


def _matched(blocks: list[Match]) -> int:
    return sum(b.size for b in blocks)


def name_restated(
    c: ClaimFeatures, al: Alignment, candidates: Sequence[Passage] | None = None
) -> Passage | None:
    """The passage the claim restates, its proper names aside: a swapped name of three
    words must not hide the sentence it was swapped into."""
    names = content_stems([t for n in c.names for t in tokenize(n)]) + opening_word(c)
    return restated_passage(c, al, ignore=frozenset(names), candidates=candidates)


def party_restated(
    c: ClaimFeatures, al: Alignment, candidates: Sequence[Passage] | None = None
) -> Passage | None:
    """The passage the claim restates, the parties it names aside ('the customer'): in a
    short sentence one word swapped leaves too few of the others to find it by."""
    parties = content_stems([t for t in c.tokens if _is_party(t.removesuffix("s"))])
    if not parties:
        return None
    return restated_passage(c, al, ignore=frozenset(parties), candidates=candidates)


def opening_word(c: ClaimFeatures) -> list[str]:
    """The stems of the claim's first word when it has a capital: the name finder cannot
    tell a name there from a sentence's start ('Martin contributed to this report'), so
    the sentence it restates is looked for without it as well (every part of a joined
    word: 'X-Nimbus-Key queues ...')."""
    return content_stems(tokenize(capitalised_first_word(c.body)))


def swapped_name(c: ClaimFeatures, p: Passage) -> str | None:
    """'NAME for OTHER' when the claim puts a name in the slot where the passage names
    someone or something else; None otherwise. The claim's words are read whole, the source
    it names too ('According to WPIX ...' for 'According to CNN ...'): the passage's are."""
    return _swapped_name(c.words, c.text, p.tokens, p.text)


@lru_cache(maxsize=50_000)
def _swapped_name(
    claim: tuple[str, ...], claim_text: str, passage: tuple[str, ...], text: str
) -> str | None:
    for got, had in replaced_slots(claim, passage, _NAME_SLOT):
        new = _named(got, claim_text)
        old = _named(had, text) if new else frozenset()
        if not new or not old or new & old or _abbreviates(new, old):
            continue
        theirs = _names_in(text)
        # A capital may only say a sentence starts ('Hold' for 'Take'): one side at least
        # must be a name by more than that.
        if not (
            _is_name(new, got, claim_text, _names_in(claim_text))
            or _is_name(old, had, text, theirs)
        ):
            continue
        # 'Shapiro' for 'Josh' of 'Josh Shapiro': another part of the same name.
        if any(old <= n and new & n for n in theirs):
            continue
        return f"{' '.join(got)} for {' '.join(had)}"
    return None


@lru_cache(maxsize=50_000)
def _names_in(text: str) -> tuple[frozenset[str], ...]:
    """The words of each name the name finder sees in the text."""
    return tuple(_words(n) for n in proper_names(text))


def _is_name(
    words: frozenset[str], run: tuple[str, ...], text: str, names: tuple[frozenset[str], ...]
) -> bool:
    """The run is part of a name the text's name finder sees, or one of its words is
    written with a capital where no sentence starts."""
    return any(words <= n for n in names) or any(_capitalised(w, text, mid=True) for w in run)


def _named(run: tuple[str, ...], text: str) -> frozenset[str]:
    """The run's words when it may be a name in `text`: every word that is no stop word
    written with a capital; else empty. A day or a month is a value, not a name
    ('Fridays' has its capital by custom; a changed day is read as a changed value)."""
    words = [w for w in run if w not in STOPWORDS]
    if all(_plain(w).removesuffix("s") in _CALENDAR for w in words):
        return frozenset()
    if not any(_plain(w).isalpha() and w not in _TITLES for w in words):  # "EVE's" too
        return frozenset()  # a number, or a title only ('Ms' for 'Anna' of 'Anna Berg')
    if not all(_capitalised(w, text) for w in words):
        return frozenset()
    return frozenset(_plain(w) for w in words)


def _capitalised(word: str, text: str, mid: bool = False) -> bool:
    """The word stands in the text with a capital (with `mid`, where no sentence starts,
    or all in capitals: 'ZEPHYR'); a word of no letters ('2' of 'ZEPHYR-2') passes. Words
    are tokens, their accents folded ('cezanne'): so is the text they are looked for in."""
    if not any(ch.isalpha() for ch in word):
        return not mid
    text = plain_letters(text.replace("’", "'"))
    for m in _whole_word(word).finditer(text):
        written = m.group(0)
        if not written[:1].isupper():
            continue
        before = text[: m.start()].rstrip()
        starts = not before or before[-1] in _SENTENCE_OPENERS or bool(_LIST_MARK.search(before))
        if not mid or not starts or (len(written) > 1 and written.isupper()):
            return True
    return False


#: What may stand (spaces aside) right before a word that starts a sentence or a heading.
_SENTENCE_OPENERS = frozenset(".!?:;\"'([#")
#: A list item's number where a sentence or line ends ('Here is what to do: 1  Make a
#: list'): the word after it starts the item, so its capital names nothing.
_LIST_MARK = re.compile(r"(?:^|[.!?:;\n])\s*\d{1,2}[.)]?$")


@lru_cache(maxsize=8192)
def _whole_word(word: str) -> re.Pattern[str]:
    """The word, in any case, not inside another word (compiled once: re's own cache holds
    512 patterns, fewer than the words of a long run)."""
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.I)


def _plain(word: str) -> str:
    """A word without its possessive and dots ("Acrovirt's" -> 'acrovirt', 'U.S.' -> 'us')."""
    return word.lower().removesuffix("'s").replace(".", "")


def _words(name: str) -> frozenset[str]:
    return frozenset(_plain(t) for t in tokenize(name))


def _abbreviates(a: frozenset[str], b: frozenset[str]) -> bool:
    """One name could be the other's initials ('US' for 'United States', 'BB24' for
    'Big Brother')."""
    for short, long in ((a, b), (b, a)):
        letters = "".join(c for w in short for c in w if c.isalpha())
        if len(short) != 1 or not letters:
            continue
        if len(long) > 1 and set(letters) <= {w[0] for w in long}:
            return True
        if len(long) == 1 and next(iter(long)).startswith(letters[:1]) and len(letters) <= 3:
            return True  # 'US' for 'U.S.', read as 'U'
    return False


def swapped_actor(c: ClaimFeatures, p: Passage) -> str | None:
    """'CLAIM's actor for PASSAGE's' when the claim moves the act to another grammatical
    person in the slot of the passage's actor ('we pay' for 'you pay', 'the company pays'
    for 'the customer pays' where one side is a person and the other a party noun is a
    paraphrase and kept); None otherwise."""
    return _swapped_actor(tuple(c.tokens), p.tokens)


@lru_cache(maxsize=50_000)
def _swapped_actor(claim: tuple[str, ...], passage: tuple[str, ...]) -> str | None:
    # Only the actor may differ: 'you may need' restates 'we may require' (of you).
    for got, had in replaced_slots(claim, passage, only=True):
        new, old = _actor(got), _actor(had)
        if new is None or old is None or new == old:
            continue
        if isinstance(new, int) == isinstance(old, int):  # two persons, or two party nouns
            return f"'{' '.join(got)}' for '{' '.join(had)}'"
    return None


def _actor(run: tuple[str, ...]) -> int | str | None:
    """The grammatical person of a pronoun run, the head noun of a determiner-led noun
    phrase ('the customer'), else None. The 'that' of 'that you receive' is no determiner
    of the pronoun after it (a slot takes a determiner before its word along); "we've" is
    'we'."""
    pronoun = run[-1].split("'")[0]
    if pronoun in _PERSON and (len(run) == 1 or (len(run) == 2 and run[0] in _DETERMINERS)):
        return _PERSON[pronoun]
    noun = run[-1].removesuffix("s")
    if len(run) <= 2 and (len(run) == 1 or run[0] in _DETERMINERS) and _is_party(noun):
        return noun
    return None


def _is_party(noun: str) -> bool:
    """A noun that names who acts: a party to an agreement or service ('company',
    'customer', 'tenant')."""
    return noun in _PARTIES


def _bound_word(run: tuple[str, ...]) -> str:
    """The word that says which way a bound runs: its last ('at least'), 'most' for 'up
    to' (an upper bound, as 'at most' is)."""
    return "most" if run[-2:] == ("up", "to") else run[-1]


def reversed_bound(c: ClaimFeatures, p: Passage) -> str | None:
    """'CLAIM's bound for PASSAGE's' when the claim turns round a bound of the sentence it
    restates ('over' for 'under', 'at most' for 'at least', 'after' for 'before')."""
    return _reversed_bound(tuple(c.tokens), p.tokens)


@lru_cache(maxsize=50_000)
def _reversed_bound(claim: tuple[str, ...], passage: tuple[str, ...]) -> str | None:
    for got, had in replaced_slots(claim, passage):
        if got and had and _OPPOSITE_BOUND.get(_bound_word(got)) == _bound_word(had):
            return f"'{' '.join(got)}' for '{' '.join(had)}'"
    return None
