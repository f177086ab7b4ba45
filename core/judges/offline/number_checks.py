"""Numbers, dates and quantities of a claim against its evidence.

A claim's value is supported when the best evidence (or a passage about the same thing)
states it; contradicted when a passage about the same thing states another value; unmatched
when no source or the question has it. Kept apart from the word-level alignment because the
rules about context, derived values and superseded versions are a subject of their own.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from ...evidence.index import DocumentIndex, EvidenceIndex, Hit, Passage
from ...text.quantities import Quantity, comparable, quantity_matches
from ...text.words import content_stems, tokenize
from .source_rules import superseded

if TYPE_CHECKING:
    from .calibration_file import Thresholds
    from .features import Alignment, ClaimFeatures, QuestionFeatures


def cover(wanted: set[str], have: frozenset[str]) -> float:
    """Share of the wanted stems that `have` contains (1.0 when nothing is wanted)."""
    return len(wanted & have) / len(wanted) if wanted else 1.0


def check_numbers(
    claim: ClaimFeatures,
    al: Alignment,
    index: EvidenceIndex,
    hits: list[Hit],
    question: QuestionFeatures,
    th: Thresholds,
    named: DocumentIndex | None = None,
) -> None:
    """Unmatched claim numbers; a different value in the same context nearby is a conflict.

    Order matters: the best evidence first (a number found there is supported, a rival
    value there is a conflict), then the same number in the same context in any retrieved
    passage, then anywhere in the documents or the question (not invented, if not proven).
    """
    near = list(al.support) + ([al.best] if al.best and al.best not in al.support else [])
    window = (th.number_context_before, th.number_context_after)
    for q in claim.quantities:
        shown = claim.body[q.start : q.end].rstrip(".")
        if any(quantity_matches(q, o) for p in near for o in p.quantities):
            continue
        floor = al.coverage - th.number_context_slack
        passages = [h.passage for h in hits]
        if _derived(q, claim.quantities, th.derived_value_tolerance) or _in_context(
            claim, q, passages, window, floor
        ):
            continue
        rival = _conflicting(claim, q, near, window)
        old = superseded(index)
        speaks_of_old = (named is not None and named.doc_id in old) or _dates_old_version(
            claim, index, old
        )
        if (
            rival is None
            and not speaks_of_old
            and any(quantity_matches(q, o) for o in question.quantities)
        ):
            # The answer echoes the user's own figure: a current source giving another value
            # for the same thing contradicts it, even outside the best-covering passage.
            current = [p for d in index.docs if d.doc_id not in old for p in d.passages]
            rival = _conflicting(claim, q, current, window)
            home = next((d for d in index.docs if rival and d.doc_id == rival.doc_id), None)
            if home and any(quantity_matches(q, o) for o in home.quantities):
                rival = None  # that document also states the claim's value: no contradiction
        if rival is not None:
            al.number_conflict = al.number_conflict or rival
            al.numbers_unmatched.append(shown)
        elif not any(quantity_matches(q, o) for o in question.quantities) and not any(
            quantity_matches(q, o) for d in index.docs for o in d.quantities
        ):
            al.numbers_unmatched.append(shown)


def _dates_old_version(claim: ClaimFeatures, index: EvidenceIndex, old: frozenset[str]) -> bool:
    """The claim carries a date from a superseded version's title ("issued 1 March 2023"):
    it speaks about that version, whose values a newer one does not contradict."""
    dates = [q for q in claim.quantities if q.kind == "date"]
    return any(
        quantity_matches(q, t)
        for d in index.docs
        if d.doc_id in old
        for t in d.title_quantities
        for q in dates
    )


def _in_context(
    claim: ClaimFeatures,
    q: Quantity,
    passages: list[Passage],
    window: tuple[int, int],
    floor: float,
) -> bool:
    """The same value, said about the same thing, in one of `passages` that covers the
    claim nearly as well as the best evidence (`floor`): a '3 months' in an unrelated
    sentence does not back a claim whose own evidence says '1 month'."""
    mine = _context(claim.body, q, window)
    wanted = set(claim.stems)
    return any(
        quantity_matches(q, o) and (not mine or mine & _context(p.text, o, window))
        for p in passages
        if cover(wanted, p.stems) >= floor
        for o in p.quantities
    )


def _conflicting(
    claim: ClaimFeatures, q: Quantity, near: list[Passage], window: tuple[int, int]
) -> Passage | None:
    """A nearby passage giving a different value for the same thing (shared context words)."""
    mine = _context(claim.body, q, window)
    for p in near:
        for o in p.quantities:
            if comparable(q, o) and mine & _context(p.text, o, window):
                return p
    return None


def _context(text: str, q: Quantity, window: tuple[int, int]) -> set[str]:
    """Content stems around a value: `window` characters (before, after) what it is about."""
    before, after = window
    around = text[max(0, q.start - before) : q.start] + " " + text[q.end : q.end + after]
    return set(content_stems(tokenize(around)))


def _derived(q: Quantity, others: tuple[Quantity, ...], tolerance: float) -> bool:
    """The claim shows its working: q is a sum, difference, product or ratio of two others
    (equal within the relative `tolerance`)."""
    if q.kind != "number":
        return False
    values = [float(o.value) for o in others if o is not q and o.kind == "number"]
    target = float(q.value)
    for a, b in permutations(values, 2):
        for r in (a + b, a - b, a * b, a / b if b else None):
            if r is not None and abs(r - target) <= tolerance * max(1.0, abs(target)):
                return True
    return False
