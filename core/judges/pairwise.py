"""Pairwise judging: one preference from two orders, and a preference derived from claims.

A judge that compares directly is asked twice with positions swapped; any other judge's claim
analyses give a preference here (fewer severity-weighted hallucinations wins, then higher
consistency, else a tie within ``margin``), also in both orders, so the symmetry the swap
tests is checked for every judge. Disagreement, low confidence or a failure sends the pair
to a person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..inputs.policy import Policy
from ..models import (
    ClaimJudgement,
    PairwiseJudgement,
    Preference,
    Severity,
    count_verdicts,
    is_hallucinated,
)

DEFAULT_MARGIN = 0.05


_WEIGHT = {Severity.LOW: 1, Severity.MEDIUM: 2, Severity.HIGH: 3, Severity.CRITICAL: 4}


_FLIP = {Preference.A: Preference.B, Preference.B: Preference.A, Preference.TIE: Preference.TIE}


@dataclass(frozen=True)
class OrderVerdict:
    """One judgement of one order: the preference in that order's own A/B labels."""

    preference: Preference
    justification: str
    confidence: float
    tie_breaker: str | None = None


def combine_swapped(
    case_id: str,
    system_a: str,
    system_b: str,
    first: OrderVerdict,
    swapped: OrderVerdict,
    min_confidence: float = 0.0,
) -> PairwiseJudgement:
    """Merge the judgement of (A, B) with that of (B, A); disagreement → TIE + review."""
    back = _FLIP[swapped.preference]
    disagree = back != first.preference
    confidence = min(first.confidence, swapped.confidence)
    justification = first.justification
    if disagree:
        justification = (
            f"The two orders disagree (first {first.preference.value}, swapped {back.value}): "
            f"{first.justification} / swapped: {swapped.justification}"
        )
    low = first.preference != Preference.TIE and confidence < min_confidence
    return PairwiseJudgement(
        case_id=case_id,
        system_a=system_a,
        system_b=system_b,
        preference=Preference.TIE if disagree else first.preference,
        justification=justification,
        confidence=round(confidence, 4),
        tie_breaker=first.tie_breaker,
        swapped_preference=back,
        disagreement=disagree,
        needs_review=disagree or low,
    )


def failed_pair(case_id: str, system_a: str, system_b: str, error: str) -> PairwiseJudgement:
    """A pair the judge could not decide: recorded, sent to review, never guessed."""
    return PairwiseJudgement(
        case_id=case_id,
        system_a=system_a,
        system_b=system_b,
        preference=Preference.TIE,
        justification="the judge failed on this pair",
        confidence=0.0,
        needs_review=True,
        error=error,
    )


def _error_weight(claims: Sequence[ClaimJudgement], count_oos: bool) -> int:
    return sum(
        _WEIGHT[c.severity or Severity.MEDIUM]
        for c in claims
        if is_hallucinated(c.verdict, count_oos)
    )


def _consistency(claims: Sequence[ClaimJudgement], partial_weight: float) -> float:
    counts = count_verdicts(claims)
    total = counts.total
    return (
        (counts.SUPPORTED + partial_weight * counts.PARTIALLY_SUPPORTED) / total if total else 0.0
    )


def prefer_by_claims(
    a: Sequence[ClaimJudgement] | None,
    b: Sequence[ClaimJudgement] | None,
    policy: Policy,
    margin: float = DEFAULT_MARGIN,
    should_abstain: bool = False,
) -> OrderVerdict:
    """Preference of A vs B from their judged claims; None means the output was not judged
    (empty, nonsense or a refusal: an abstention). On a ``should_abstain`` case the sources
    hold no answer, so an abstention beats any answer, as compare mode counts it."""
    if should_abstain and (a is None) != (b is None):
        pref = Preference.A if a is None else Preference.B
        return OrderVerdict(
            pref,
            "The case should be abstained on (the sources hold no answer): the abstention "
            "is right and the other output answers anyway.",
            1.0,
            "correct_abstention",
        )
    if a is None or b is None:
        if a is None and b is None:
            return OrderVerdict(
                Preference.TIE, "Neither output can be analysed.", 1.0, "both_empty"
            )
        pref = Preference.B if a is None else Preference.A
        return OrderVerdict(
            pref, "The other output is empty or nonsense.", 1.0, "other_output_empty"
        )
    ea = _error_weight(a, policy.count_out_of_scope)
    eb = _error_weight(b, policy.count_out_of_scope)
    if ea != eb:
        pref = Preference.A if ea < eb else Preference.B
        why = f"Severity-weighted hallucinations: A {ea}, B {eb}."
        return OrderVerdict(pref, why, round(0.5 + 0.5 * abs(ea - eb) / (ea + eb), 4))
    ca, cb = _consistency(a, policy.partial_weight), _consistency(b, policy.partial_weight)
    why = f"Equal hallucination weight ({ea}); consistency A {ca:.2f}, B {cb:.2f}."
    if abs(ca - cb) > margin:
        pref = Preference.A if ca > cb else Preference.B
        return OrderVerdict(pref, why, round(0.5 + abs(ca - cb) / 2, 4), "higher_consistency")
    return OrderVerdict(Preference.TIE, why + f" Within the margin {margin}.", 0.5)
