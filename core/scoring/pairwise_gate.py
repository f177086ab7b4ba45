"""The gate's pairwise rules: unreviewed pairs -> NEEDS_REVIEW, and the net share of pairs
preferring the baseline against ``max_rate_increase``, decided on its interval like every rate
rule (``decide``): FAILED above, PASSED within, NEEDS_REVIEW while it straddles the limit.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import numpy as np

from ..inputs.policy import Policy
from ..models import (
    GateDecision,
    GateReason,
    GateStatus,
    PairwiseJudgement,
    Preference,
)
from .decide import RuleEvidence, headline, rate_reason, worst
from .intervals import t_quantile


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
                why=f"{len(pending)} pair(s) await a reviewer",
                observed=len(pending),
                claim_ids=pending,
                message=f"{len(pending)} pair(s) need a reviewer (orders disagree, low confidence "
                f"or judge failure): {', '.join(pending[:20])}",
            )
        )
    decided = [p for p in pairs if p.error is None]
    if decided:
        reasons.append(_preference_reason(decided, policy))
    return reasons


def _preference_reason(decided: Sequence[PairwiseJudgement], policy: Policy) -> GateReason:
    """Net share of pairs preferring the baseline (A), with the t interval of that mean of
    +1 / 0 / −1 per pair, decided like every rate rule (``decide``)."""
    score = np.array([(p.preference == Preference.A) - (p.preference == Preference.B)
                      for p in decided], dtype=float)  # fmt: skip
    n, share = len(score), float(score.mean())
    low = high = None
    if n >= 2:
        half = t_quantile(policy.confidence, n - 1) * float(score.std(ddof=1)) / math.sqrt(n)
        low, high = max(-1.0, share - half), min(1.0, share + half)
    wins_a, wins_b = int((score > 0).sum()), int((score < 0).sum())
    a, b = decided[0].system_a, decided[0].system_b
    label = (
        f"{a} preferred in {wins_a}, {b} in {wins_b}, ties {n - wins_a - wins_b} of {n} pairs; "
        f"net share for {a}"
    )
    evidence = RuleEvidence(share, low, high, n, unit="judged pairs")
    reason = rate_reason(
        "pairwise_preference", label, evidence, policy.max_rate_increase, policy, signed=True
    )
    assert reason is not None  # the limit is always set
    return reason.model_copy(update={"observed": round(share, 4)})


def apply_pairwise(
    decision: GateDecision,
    pairs: Sequence[PairwiseJudgement],
    policy: Policy,
    reviewed: Collection[str] = (),
) -> GateDecision:
    """The decision with the pairwise rules added (worst status wins, as in the gate)."""
    reasons = list(decision.reasons) + pairwise_reasons(pairs, policy, reviewed)
    status = worst(reasons)
    pending = [i for r in reasons if r.rule == "pairwise_review" for i in r.claim_ids]
    return decision.model_copy(
        update={
            "reasons": reasons,
            "status": status,
            "exit_code": status.exit_code,
            "headline": headline(status, reasons),
            "pending_review": list(decision.pending_review) + pending,
        }
    )
