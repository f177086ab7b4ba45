"""Pairwise mode: which of two outputs is more factual, judged in both orders.

A judge that can compare directly (the LLM judge's ``judge_pairwise``) is asked twice with
the positions swapped; any other judge (the offline one) analyses both answers claim by
claim and the preference is derived here: fewer severity-weighted hallucinations wins, then
higher consistency, else a tie within ``margin``. The derivation is also run in both orders,
so the symmetry the swap is meant to test is checked for every judge. A disagreement
between the two orders, a low-confidence call or a failure sends the pair to a person.

The gate adds two rules in pairwise mode: unreviewed pairs → NEEDS_REVIEW, and the baseline
being preferred more often than the candidate by more than ``max_rate_increase`` of the
cases → FAILED.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .judges.base import Judge, JudgeResult, JudgeTask, ProgressCallback
from .metrics import count_verdicts, is_hallucinated
from .models import (
    ClaimJudgement,
    GateDecision,
    GateReason,
    GateStatus,
    PairwiseJudgement,
    Preference,
    Severity,
)
from .policy import Policy

DEFAULT_MARGIN = 0.05
_WEIGHT = {Severity.LOW: 1, Severity.MEDIUM: 2, Severity.HIGH: 3, Severity.CRITICAL: 4}
_FLIP = {Preference.A: Preference.B, Preference.B: Preference.A, Preference.TIE: Preference.TIE}
_PRECEDENCE = [GateStatus.HARNESS_ERROR, GateStatus.FAILED, GateStatus.NEEDS_REVIEW]


@dataclass(frozen=True)
class OrderVerdict:
    """One judgement of one order: the preference in that order's own A/B labels."""

    preference: Preference
    justification: str
    confidence: float
    tie_breaker: str | None = None


def review_id(case_id: str) -> str:
    """The id a reviewer's decision on a pair is recorded under."""
    return f"pairwise:{case_id}"


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
) -> OrderVerdict:
    """Preference of A vs B from their judged claims; None means the output is unusable."""
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


def _claims_of(result: JudgeResult, task: JudgeTask, system: str) -> list[ClaimJudgement] | None:
    return result.claims.get(system, []) if system in task.answers else None


def pairwise_from_results(
    tasks: Sequence[JudgeTask],
    results: Sequence[JudgeResult],
    systems: Sequence[str],
    policy: Policy,
    margin: float = DEFAULT_MARGIN,
) -> list[PairwiseJudgement]:
    """Pairwise judgements derived from claim analyses, each checked in both orders."""
    sa, sb = systems
    out = []
    for task, res in zip(tasks, results, strict=True):
        cid = task.case.case_id
        if res.errors:
            out.append(failed_pair(cid, sa, sb, "; ".join(sorted(set(res.errors.values())))))
            continue
        a, b = _claims_of(res, task, sa), _claims_of(res, task, sb)
        first = prefer_by_claims(a, b, policy, margin)
        out.append(combine_swapped(cid, sa, sb, first, prefer_by_claims(b, a, policy, margin)))
    return out


def judge_pairs(
    judge: Judge,
    tasks: Sequence[JudgeTask],
    systems: Sequence[str],
    policy: Policy,
    progress: ProgressCallback | None = None,
) -> tuple[list[JudgeResult], list[PairwiseJudgement]]:
    """Pairwise judgements with the judge's own pairwise method, else from its claims."""
    direct = getattr(judge, "judge_pairwise", None)
    if direct is not None:
        return direct(tasks, systems, progress)
    from .parallel import judge_tasks  # the offline judge spreads over processes there

    results = judge_tasks(judge, tasks, progress)
    return results, pairwise_from_results(tasks, results, systems, policy)


def pairwise_reasons(
    pairs: Sequence[PairwiseJudgement], policy: Policy, reviewed: Collection[str] = ()
) -> list[GateReason]:
    """The gate's pairwise rules: pending reviews, and the preference balance."""
    reasons = []
    pending = [review_id(p.case_id) for p in pairs if p.needs_review]
    done = set(reviewed)
    pending = [i for i in pending if i not in done]
    if pending and policy.require_review_before_pass:
        reasons.append(
            GateReason(
                rule="pairwise_review",
                status=GateStatus.NEEDS_REVIEW,
                observed=len(pending),
                claim_ids=pending,
                message=f"{len(pending)} pair(s) need a reviewer (orders disagree, low confidence "
                f"or judge failure): {', '.join(pending[:20])}",
            )
        )
    decided = [p for p in pairs if p.error is None]
    if decided:
        wins_a = sum(p.preference == Preference.A for p in decided)
        wins_b = sum(p.preference == Preference.B for p in decided)
        share = (wins_a - wins_b) / len(decided)
        failed = share > policy.max_rate_increase
        a, b = decided[0].system_a, decided[0].system_b
        reasons.append(
            GateReason(
                rule="pairwise_preference",
                status=GateStatus.FAILED if failed else GateStatus.PASSED,
                observed=round(share, 4),
                threshold=policy.max_rate_increase,
                message=f"{a} preferred in {wins_a}, {b} in {wins_b}, ties "
                f"{len(decided) - wins_a - wins_b} of {len(decided)} pairs; net share for {a} "
                f"{share:+.1%} {'exceeds' if failed else 'within'} the limit "
                f"{policy.max_rate_increase:.1%}",
            )
        )
    return reasons


def apply_pairwise(
    decision: GateDecision,
    pairs: Sequence[PairwiseJudgement],
    policy: Policy,
    reviewed: Collection[str] = (),
) -> GateDecision:
    """The decision with the pairwise rules added (worst status wins, as in the gate)."""
    reasons = list(decision.reasons) + pairwise_reasons(pairs, policy, reviewed)
    status = next(
        (s for s in _PRECEDENCE if any(r.status == s for r in reasons)), GateStatus.PASSED
    )
    pending = [i for r in reasons if r.rule == "pairwise_review" for i in r.claim_ids]
    return decision.model_copy(
        update={
            "reasons": reasons,
            "status": status,
            "exit_code": status.exit_code,
            "pending_review": list(decision.pending_review) + pending,
        }
    )


def pairwise_summary(pairs: Sequence[PairwiseJudgement]) -> str:
    """A few lines for the terminal: tallies and the pairs that need a person."""
    if not pairs:
        return ""
    a, b = pairs[0].system_a, pairs[0].system_b
    tally = {p: sum(x.preference == p and x.error is None for x in pairs) for p in Preference}
    lines = [
        f"Pairwise ({len(pairs)} cases, judged in both orders): {a} preferred "
        f"{tally[Preference.A]}, {b} preferred {tally[Preference.B]}, ties {tally[Preference.TIE]}",
    ]
    for p in pairs:
        if p.needs_review:
            why = (
                "error" if p.error else ("orders disagree" if p.disagreement else "low confidence")
            )
            lines.append(f"  review {p.case_id}: {why}")
    return "\n".join(lines) + "\n"
