"""The release decision, computed from effective verdicts (DESIGN.md §4).

Every rule contributes a reason, passing or not, so a reader sees the numbers behind the
decision. The worst status wins: HARNESS_ERROR > FAILED > NEEDS_REVIEW > PASSED.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..inputs.policy import Policy
from ..models import (
    AnswerAnalysis,
    Case,
    ClaimJudgement,
    ComparisonSummary,
    GateDecision,
    GateReason,
    GateStatus,
    Severity,
    SystemRates,
    Verdict,
)
from .metrics import is_hallucinated

_PRECEDENCE = [GateStatus.HARNESS_ERROR, GateStatus.FAILED, GateStatus.NEEDS_REVIEW]
_SHOW_CLAIMS = 20


def review_queue(
    analyses: Sequence[AnswerAnalysis],
    cases: Sequence[Case],
    policy: Policy,
    system: str,
    extra_claim_ids: Collection[str] = (),
) -> list[ClaimJudgement]:
    """Claims a person must look at, most severe first.

    Severity in ``review_severities``; at risk HIGH/CRITICAL (policy or case) also every
    unsupported or contradicted claim; plus ``extra_claim_ids`` (e.g. pairwise disagreements).
    """
    risk = {c.case_id: c.risk_level for c in cases}
    wanted = set(policy.review_severities)
    out = []
    for a in analyses:
        if a.system != system:
            continue
        case_risk = max(policy.risk_level, risk.get(a.case_id) or Severity.LOW, key=_rank)
        for c in a.claims:
            severe = c.severity in wanted and c.verdict != Verdict.SUPPORTED
            risky = _rank(case_risk) >= _rank(Severity.HIGH) and is_hallucinated(c.verdict)
            if severe or risky or c.claim_id in extra_claim_ids:
                out.append(c)
    return sorted(out, key=lambda c: (-_rank(c.severity), c.case_id, c.index))


def _rank(severity: Severity | None) -> int:
    return -1 if severity is None else severity.rank


def _ids(claims: Sequence[ClaimJudgement]) -> str:
    shown = ", ".join(c.claim_id for c in claims[:_SHOW_CLAIMS])
    more = len(claims) - _SHOW_CLAIMS
    return shown + (f" and {more} more" if more > 0 else "")


def _threshold_reason(
    rule: str, label: str, observed: float | None, limit: float | None, signed: bool = False
) -> GateReason | None:
    if limit is None:
        return None
    if observed is None:
        return GateReason(
            rule=rule,
            status=GateStatus.PASSED,
            threshold=limit,
            message=f"{label}: no claims to measure",
        )
    failed = observed > limit
    verb = "exceeds" if failed else "within"
    return GateReason(
        rule=rule,
        status=GateStatus.FAILED if failed else GateStatus.PASSED,
        observed=observed,
        threshold=limit,
        message=f"{label} {observed:{'+' if signed else ''}.1%} {verb} the limit {limit:.1%}",
    )


def decide(
    analyses: Sequence[AnswerAnalysis],
    cases: Sequence[Case],
    policy: Policy,
    gated_system: str,
    rates: SystemRates,
    comparison: ComparisonSummary | None = None,
    reviewed: Collection[str] = (),
    extra_review_ids: Collection[str] = (),
) -> GateDecision:
    """Apply every rule of the policy to the gated system's effective verdicts."""
    reasons: list[GateReason] = []
    errors = [a for a in analyses if a.harness_error]
    if errors:
        reasons.append(
            GateReason(
                rule="harness_error",
                status=GateStatus.HARNESS_ERROR,
                observed=len(errors),
                message=f"the judge failed on {len(errors)} answer(s): "
                + ", ".join(f"{a.case_id}/{a.system}" for a in errors[:_SHOW_CLAIMS]),
            )
        )
    if comparison is not None:
        ch = comparison.rate_change
        r = _threshold_reason(
            "max_rate_increase",
            "hallucination rate change",
            ch.estimate,
            policy.max_rate_increase,
            signed=True,
        )
        if r is not None and ch.ci_low is not None:
            r.message += f" (95% CI {ch.ci_low:+.1%} to {ch.ci_high:+.1%})"
        if r is not None:
            reasons.append(r)
    for rule, label, observed in (
        ("max_hallucination_rate", "hallucination rate", rates.micro_rate),
        ("max_fabrication_rate", "fabrication rate", rates.fabrication_rate),
        ("max_contradiction_rate", "contradiction rate", rates.contradiction_rate),
    ):
        r = _threshold_reason(rule, f"{gated_system} {label}", observed, getattr(policy, rule))
        if r is not None:
            reasons.append(r)
    if policy.block_on_severity is not None:
        reasons.append(_severity_reason(analyses, policy, gated_system, policy.block_on_severity))
    queue = review_queue(analyses, cases, policy, gated_system, extra_review_ids)
    done = set(reviewed)
    pending = [c for c in queue if c.claim_id not in done]
    if pending and policy.require_review_before_pass:
        reasons.append(
            GateReason(
                rule="require_review_before_pass",
                status=GateStatus.NEEDS_REVIEW,
                observed=len(pending),
                claim_ids=[c.claim_id for c in pending],
                message=f"{len(pending)} of {len(queue)} claim(s) in the review queue await a "
                f"reviewer: {_ids(pending)}",
            )
        )
    status = next(
        (s for s in _PRECEDENCE if any(r.status == s for r in reasons)), GateStatus.PASSED
    )
    return GateDecision(
        status=status,
        exit_code=status.exit_code,
        reasons=reasons,
        gated_system=gated_system,
        pending_review=[c.claim_id for c in pending],
    )


def _severity_reason(
    analyses: Sequence[AnswerAnalysis], policy: Policy, system: str, block: Severity
) -> GateReason:
    hits = [
        c
        for a in analyses
        if a.system == system
        for c in a.claims
        if c.severity is not None
        and c.severity.rank >= block.rank
        and is_hallucinated(c.verdict, policy.count_out_of_scope)
    ]
    hits.sort(key=lambda c: (-_rank(c.severity), c.case_id, c.index))
    if not hits:
        return GateReason(
            rule="block_on_severity",
            status=GateStatus.PASSED,
            observed=0,
            message=f"no {block.value}-or-worse hallucination in {system}",
        )
    return GateReason(
        rule="block_on_severity",
        status=GateStatus.FAILED,
        observed=len(hits),
        claim_ids=[c.claim_id for c in hits],
        message=f"{len(hits)} {block.value}-or-worse hallucination(s) in {system}: {_ids(hits)}",
    )
