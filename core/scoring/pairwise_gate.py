"""The gate's pairwise rules: unreviewed pairs -> NEEDS_REVIEW, and the baseline preferred
more often than the candidate by more than ``max_rate_increase`` of the cases -> FAILED.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..inputs.policy import Policy
from ..models import (
    GateDecision,
    GateReason,
    GateStatus,
    PairwiseJudgement,
    Preference,
)

_PRECEDENCE = [GateStatus.HARNESS_ERROR, GateStatus.FAILED, GateStatus.NEEDS_REVIEW]


def review_id(case_id: str) -> str:
    """The id a reviewer's decision on a pair is recorded under."""
    return f"pairwise:{case_id}"


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
