"""The condition or restriction a claim leaves out of the sentence it restates.

"If you have kidney problems, your doctor will lower the dose" copied as "Your doctor
will lower the dose", or "... may reduce absorption if it is given within 2 hours" copied
without its 'if' clause, states unconditionally what the source states under a condition.
Reading every 'if' near the restated words as a dropped condition was tried and cost
natural answers ("declare them; if you do not, ..." opens a clause of its own), so only
the condition that governs the copied run itself counts: the sentence opens with it and
the copy starts right after its comma, or it follows the copy with nothing but a comma
between. A restricting word among or right after the restated words ('unless the boat is
returned damaged', 'only if ...', 'unused') that the claim leaves out is read for any
restatement (`dropped_restriction`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....evidence.index import Passage
from ....text.words import content_stems
from ..features import ClaimFeatures
from .restated import stem_positions
from .runs import run_at

_CUE = r"(?:only\s+)?(?:if|unless|provided(?:\s+that)?|as\s+long\s+as|except\s+(?:if|when))\b"
#: Right after the copied run: at most a comma, then the condition.
_AFTER = re.compile(rf"^,?\s+{_CUE}", re.I)
#: Before the copied run: the sentence (or a numbered or bulleted list item: '1  If you
#: e-filed, ...') opens with the condition and one comma closes it.
_BEFORE = re.compile(
    rf"(?:^(?:\s*(?:\d{{1,2}}[.)]?|[-*•])\s+)?|[.!?;:]\s+){_CUE}[^.!?;:]*,\s*$", re.I
)
#: Any condition at all: without one in the passage neither pattern above can match.
_ANY_CUE = re.compile(_CUE, re.I)
_WORD = re.compile(r"\w+")
_MIN_WORDS = 5


def dropped_condition(c: ClaimFeatures, p: Passage) -> str | None:
    """The condition of passage `p` that governs the words the claim copies from it and
    that the claim leaves out (its opening words); None when there is none."""
    if _CUE_WORDS.isdisjoint(p.tokens):
        return None  # no condition cue among its words (most sentences)
    return _condition(c.text, p.text)


#: The words one of which every condition cue holds (``_CUE``).
_CUE_WORDS = frozenset({"if", "unless", "provided", "long", "except"})


@lru_cache(maxsize=50_000)
def _condition(claim: str, passage: str) -> str | None:
    if not _has_cue(passage):
        return None
    pattern = _copied_run(claim)
    run = pattern.search(passage) if pattern is not None else None
    if run is None:
        return None
    after = _AFTER.search(passage[run.end() :])
    if after is not None:
        return passage[run.end() :].strip(" ,")[:60]
    before = _BEFORE.search(passage[: run.start()])
    if before is not None:
        return before.group(0).strip(" ,.;:!?")[:60]
    return None


@lru_cache(maxsize=50_000)
def _has_cue(passage: str) -> bool:
    """Whether the passage holds any condition cue: searched once per passage, not once
    per claim read against it."""
    return _ANY_CUE.search(passage) is not None


@lru_cache(maxsize=10_000)
def _copied_run(claim: str) -> re.Pattern[str] | None:
    """The claim's words in order, anything but words between: compiled once per claim
    (a pattern per call missed re's own cache and cost a fifth of the judge's time)."""
    words = _WORD.findall(claim)
    if len(words) < _MIN_WORDS:
        return None
    return re.compile(r"\b" + r"\W+".join(map(re.escape, words)) + r"\b", re.I)


#: Words that restrict the words around them ('unless ...', 'only ...', 'unused').
_CUES = frozenset("unless only except excluding provided unused unopened".split())


def dropped_restriction(c: ClaimFeatures, p: Passage) -> str | None:
    """The passage's restriction of the words the claim restates ('unless the boat is
    returned damaged', 'only if ...', 'unused'), standing among them or right after them,
    that the claim leaves out; None when there is none: the claim then states no more than
    the source allows."""
    return _dropped(tuple(c.tokens), p.tokens)


@lru_cache(maxsize=50_000)
def _dropped(claim: tuple[str, ...], passage: tuple[str, ...]) -> str | None:
    if _CUES.isdisjoint(passage):
        return None  # no restricting word to find (most sentences)
    stems = set(content_stems(list(claim)))
    at = run_at(claim, passage) or stem_positions(passage, stems)
    if not at:
        return None
    for k in range(max(0, at[0] - 1), min(len(passage), at[-1] + 3)):
        cue = passage[k]
        if cue not in _CUES or cue in claim or _keeps_what_only_names(cue, passage[k + 1 :], stems):
            continue
        if cue == "only" and k > 0 and passage[k - 1] == "not":
            continue  # "not only is it in need of renovation": it adds, restricting nothing
        clause = content_stems(list(passage[k + 1 : k + 9]))
        if cue in {"unused", "unopened", "only"} or sum(s in stems for s in clause) < 0.5 * len(
            clause
        ):
            return " ".join(passage[k : k + 9])
    return None


def _keeps_what_only_names(cue: str, after: tuple[str, ...], stems: set[str]) -> bool:
    """'only' narrows the words right after it ('only a small amount of salt'); a claim
    that states those same words ('a small amount of salt') says no more than the source
    (a claim that widens them, 'any amount', or drops them, still differs)."""
    named = content_stems(list(after[:5]))[:2]
    return cue == "only" and bool(named) and all(s in stems for s in named)
