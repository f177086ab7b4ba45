"""Every derived number of a report recomputed from its claim records.

The store applies reviewers' overrides and calls ``rescore`` to get metrics, comparison and
gate decision from effective verdicts; the engine calls it once after judging.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..inputs.policy import Policy
from ..models import (
    AnswerAnalysis,
    AuditInput,
    Case,
    ClaimJudgement,
    JudgeFailure,
    Mode,
    RunReport,
    VerdictCounts,
)
from .abstention import abstention_of
from .compare import compare_systems
from .corrected import corrected_change, corrected_rate
from .corrected_types import corrected_type_rate
from .gate import decide
from .judge_samples import judge_flips
from .metrics import answer_metrics, should_abstain_ids
from .pairwise_gate import apply_pairwise
from .reuse import reused_system_rates


def analysis_of(
    case_id: str,
    system: str,
    claims: list[ClaimJudgement],
    policy: Policy,
    error_message: str | None = None,
    harness_error: str | None = None,
    usage: dict[str, int] | None = None,
    raw_output: str | None = None,
    answer_text: str | None = None,
    failure: JudgeFailure | None = None,
    sample_counts: list[VerdictCounts] | None = None,
) -> AnswerAnalysis:
    """An AnswerAnalysis with its per-answer metrics computed from the claims.

    ``answer_text`` (when known) tells an abstention (empty, nonsense, refusal) from an
    answer; without it an answer abstains when it has an error message or no claims.
    """
    return AnswerAnalysis(
        case_id=case_id,
        system=system,
        claims=claims,
        error_message=error_message,
        abstention=abstention_of(answer_text, claims, error_message, harness_error),
        harness_error=harness_error,
        raw_output=raw_output,
        failure=failure,
        usage=usage or {},
        sample_counts=sample_counts or [],
        **answer_metrics(claims, policy.count_out_of_scope, policy.partial_weight),
    )


def reanalysed(report: RunReport, a: AnswerAnalysis, policy: Policy) -> AnswerAnalysis:
    """One answer's analysis with its per-answer metrics recomputed from its claims (what
    ``rescore`` does to every answer; an incremental rescore does it to the changed ones)."""
    return analysis_of(
        a.case_id,
        a.system,
        a.claims,
        policy,
        a.error_message,
        a.harness_error,
        a.usage,
        a.raw_output,
        report.answers.get(a.system, {}).get(a.case_id),
        a.failure,  # a judge's failure record survives every review
        a.sample_counts,  # so do the judge's other samples (judge_samples > 1)
    )


def rescore(
    report: RunReport,
    policy: Policy | None = None,
    reviewed: Collection[str] = (),
    extra_review_ids: Collection[str] = (),
    audit: AuditInput | None = None,
    fresh: bool = False,
) -> RunReport:
    """Recompute per-answer metrics, rates, comparison and decision from the claim records.

    With ``audit`` (a reviewed report's audit sample and labels) every system's rates carry
    the audit-corrected answer-level rate, the comparison its change, and the gate uses them
    when the policy says so (``gate_on_corrected``) and the audit is complete. ``fresh``
    says the analyses were just built by ``analysis_of`` under this policy (the engine), so
    their per-answer metrics are kept rather than computed twice.
    """
    policy = policy or Policy.model_validate(report.policy)
    analyses = (
        report.analyses if fresh else [reanalysed(report, a, policy) for a in report.analyses]
    )
    rates = {
        s: reused_system_rates(
            analyses,
            s,
            policy.count_out_of_scope,
            report.cases,
            policy.bootstrap_resamples,
            policy.seed,
            policy.confidence,
        )
        for s in report.systems
    }
    if any(a.sample_counts for a in analyses):
        abstain = should_abstain_ids(report.cases)
        rates = {
            s: r.model_copy(update={"judge_flips": judge_flips(analyses, s, abstain, policy)})
            for s, r in rates.items()
        }
    change = None
    if audit is not None and report.mode != Mode.PAIRWISE:
        rates = {
            s: r.model_copy(update=_corrected(analyses, report.cases, s, policy, audit))
            for s, r in rates.items()
        }
    comparison = None
    if report.mode == Mode.COMPARE:
        base, cand = report.systems[0], report.systems[1]
        b, c = rates[base].corrected, rates[cand].corrected
        if audit is not None and b is not None and c is not None:
            change = corrected_change(analyses, report.cases, b, c, policy, audit)
        comparison = compare_systems(analyses, report.cases, base, cand, policy, rates, change)
    gated = report.systems[-1]
    decision = decide(
        analyses,
        report.cases,
        policy,
        gated,
        rates[gated],
        comparison,
        reviewed,
        extra_review_ids,
        claims_measured=report.mode != Mode.PAIRWISE,
    )
    if report.pairwise is not None:
        decision = apply_pairwise(decision, report.pairwise, policy, reviewed)
    return report.model_copy(
        update={
            "analyses": analyses,
            "rates": rates,
            "comparison": comparison,
            "decision": decision,
            "policy": policy.model_dump(mode="json"),
        }
    )


def _corrected(
    analyses: Sequence[AnswerAnalysis], cases: Sequence[Case], system: str, policy: Policy,
    audit: AuditInput,
) -> dict[str, object]:  # fmt: skip
    """One system's audit-corrected figures: answers with a hallucination, fabrications and
    contradictions (every gated figure the audit can correct)."""
    return {
        "corrected": corrected_rate(analyses, cases, system, policy, audit),
        "corrected_fabrication": corrected_type_rate(
            analyses, cases, system, "fabrication", policy, audit
        ),
        "corrected_contradiction": corrected_type_rate(
            analyses, cases, system, "contradiction", policy, audit
        ),
    }
