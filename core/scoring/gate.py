"""The release decision, computed from effective verdicts (DESIGN.md §4).

Every rule contributes a reason, passing or not, so a reader sees the numbers behind the
decision. The worst status wins: HARNESS_ERROR > FAILED > NEEDS_REVIEW > PASSED.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import partial

from ..inputs.policy import Policy
from ..models import (
    MEASURE_LABELS,
    AnswerAnalysis,
    Case,
    ClaimJudgement,
    ComparisonSummary,
    CorrectedChange,
    CorrectedRate,
    CorrectedTypeRate,
    GateDecision,
    GateReason,
    GateStatus,
    Interval,
    RateChange,
    Severity,
    SystemRates,
    Verdict,
    ci_bounds,
)
from .compare import corrected_in_force, share_change_evidence
from .decide import RuleEvidence, headline, rate_reason, worst
from .intervals import share_interval_at
from .memo import remembered
from .metrics import blocking_claims

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
    claim not SUPPORTED; plus ``extra_claim_ids`` (e.g. pairwise disagreements); then the
    other systems' identical claims of the same case (``twin_claims``).
    """
    risk = {c.case_id: c.risk_level for c in cases}
    extra = set(extra_claim_ids)  # a list of thousands of ids, asked once per claim
    out = []
    for a in analyses:
        if a.system != system:
            continue
        queued = _queued_ids(a, risk.get(a.case_id), policy)
        out += [c for c in a.claims if c.claim_id in queued or c.claim_id in extra]
    out += twin_claims(analyses, system, out)
    return sorted(out, key=lambda c: (-_rank(c.severity), c.case_id, c.system != system, c.index))


def twin_claims(
    analyses: Sequence[AnswerAnalysis], system: str, queued: Sequence[ClaimJudgement]
) -> list[ClaimJudgement]:
    """Other systems' claims whose text equals a queued claim of the same case: a reviewer
    sees both sides, so a false alarm overturned on one side is overturned on the other too
    and cannot move the change between them."""
    texts = {(c.case_id, c.text.strip()) for c in queued}
    return [c for a in analyses if a.system != system for k, c in _doubtful(a) if k in texts]


def _queued_ids(a: AnswerAnalysis, case_risk: Severity | None, policy: Policy) -> frozenset[str]:
    """Ids of the answer's claims ``queues_claim`` queues (remembered per answer object and
    the policy's part of the rule: an overturn leaves all but one answer as they were)."""
    rule = (case_risk, policy.risk_level, tuple(policy.review_severities))
    return remembered(
        a,
        ("queued", rule),
        lambda: frozenset(c.claim_id for c in a.claims if queues_claim(c, case_risk, policy)),
    )


def _doubtful(a: AnswerAnalysis) -> list[tuple[tuple[str, str], ClaimJudgement]]:
    """((case, stripped text), claim) of the answer's claims not SUPPORTED (remembered)."""
    return remembered(
        a,
        "doubtful",
        lambda: [
            ((c.case_id, c.text.strip()), c) for c in a.claims if c.verdict != Verdict.SUPPORTED
        ],
    )


def queues_claim(claim: ClaimJudgement, case_risk: Severity | None, policy: Policy) -> bool:
    """True when a person must look at this claim: its severity is one the policy reviews,
    or its case (or the policy) is HIGH/CRITICAL risk and the claim is not SUPPORTED (a
    partly supported claim there is as doubtful as an unsupported one)."""
    risk = max(policy.risk_level, case_risk or Severity.LOW, key=_rank)
    severe = claim.severity in set(policy.review_severities) and claim.verdict != Verdict.SUPPORTED
    return severe or (_rank(risk) >= _rank(Severity.HIGH) and claim.verdict != Verdict.SUPPORTED)


def _rank(severity: Severity | None) -> int:
    return -1 if severity is None else severity.rank


def _ids(claims: Sequence[ClaimJudgement]) -> str:
    shown = ", ".join(c.claim_id for c in claims[:_SHOW_CLAIMS])
    more = len(claims) - _SHOW_CLAIMS
    return shown + (f" and {more} more" if more > 0 else "")


def _evidence(
    figure: Interval | RateChange | CorrectedRate | CorrectedChange | CorrectedTypeRate | None,
    estimate: float | None,
    n: int,
    corrected: bool = False,
    unit: str = "",
) -> RuleEvidence:
    lo, hi = ci_bounds(figure)
    return RuleEvidence(estimate, lo, hi, n, corrected, unit)


def _change_reasons(cmp: ComparisonSummary, policy: Policy) -> list[GateReason]:
    """The gated measure's change and the abstention change against their limits."""
    who = f"{cmp.candidate} − {cmp.baseline}"
    measure = MEASURE_LABELS[cmp.gated_measure]
    judged = cmp.gated_change()
    gated = _evidence(judged, judged.estimate, judged.n_cases)
    if cmp.gated_on_corrected and cmp.corrected_change is not None:
        known = [r.corrected for r in cmp.rates.values() if r.corrected]
        gated = change_evidence(cmp.corrected_change, known)
        measure = f"{measure}, review-corrected"
    ab = cmp.abstention_change
    checks = [
        ("max_rate_increase", f"{measure} (gated measure): change {who}", gated,
         policy.max_rate_increase),
        ("max_abstention_increase", f"abstentions: change {who}",
         None if ab is None else share_change_evidence(ab, policy.confidence),
         policy.max_abstention_increase),
    ]  # fmt: skip
    out = []
    for rule, label, ev, limit in checks:
        r = None if ev is None else rate_reason(rule, label, ev, limit, policy, signed=True)
        if r is not None:
            out.append(r)
    return out


def change_evidence(ch: CorrectedChange, rates: Sequence[CorrectedRate]) -> RuleEvidence:
    """The corrected change as the gate reads it, with where its sequential audit stands:
    when paired, the pairing's own sample (labelled cases of U, its looks, the audit answers
    still to label to reach each: 'label N more' counts answers, a case of U holding one or
    two); independent, the two rates' (the fewer labels). The Triage look table reads the
    same."""
    ev = _evidence(ch, ch.estimate, ch.n_labelled, corrected=True)
    if ch.paired and ch.answers_to_looks:
        return ev._replace(
            left=ch.answers_to_looks[-1], first_look=ch.first_look, eligible=ch.eligible,
            beyond_look=ch.beyond_look, to_looks=tuple(ch.answers_to_looks),
            at_looks=tuple(ch.std_error_at_looks),
        )  # fmt: skip
    return ev._replace(
        n=ch.n_labelled if ch.paired and ch.n_labelled else min(c.n_labelled for c in rates),
        left=min(c.n_answers - c.n_labelled - c.beyond_look for c in rates),
        first_look=rates[0].first_look,
        eligible=rates[0].eligible,
        beyond_look=min(c.beyond_look for c in rates),
    )


def rate_evidence(c: CorrectedRate, figure: CorrectedTypeRate | None = None) -> RuleEvidence:
    """One system's corrected rate (or its claim-type rate ``figure``, read from the same
    labels) as the gate reads it, with its sequential audit's state: its own looks, in its
    answers, and 'label N more' counted in audit answers as labelling proceeds, every
    system's answers of a case in draw order, to the look that would decide
    (``CorrectedRate.answers_to_looks``); the Triage page and the exports read the same."""
    shown = figure or c
    ev = _evidence(shown, shown.estimate, shown.n_labelled, corrected=True)
    left = c.n_answers - c.n_labelled - c.beyond_look  # a report from before the count
    return ev._replace(
        first_look=c.first_look, eligible=c.eligible, beyond_look=c.beyond_look,
        left=c.answers_to_looks[-1] if c.answers_to_looks else left,
        to_looks=tuple(c.answers_to_looks),
        at_looks=() if figure is not None else tuple(c.std_error_at_looks),
    )  # fmt: skip


def _gated_rate(rates: SystemRates, policy: Policy, on_corrected: bool) -> tuple[RuleEvidence, str]:
    """The gated system's gated measure (the audit-corrected one when in force) and its
    label."""
    if on_corrected and rates.corrected is not None:
        return rate_evidence(rates.corrected), f"{MEASURE_LABELS[policy.gate_on]}, review-corrected"
    rate, interval = rates.gated_rate(policy.gate_on)
    n = rates.n_rated_answers if policy.gate_on == "answers" else rates.n_answers
    return _evidence(interval, rate, n), MEASURE_LABELS[policy.gate_on]


def _rate_reasons(
    rates: SystemRates, policy: Policy, system: str, on_corrected: bool
) -> list[GateReason]:
    """The absolute limits: gated measure, abstentions, fabrications, contradictions."""
    gated, gated_label = _gated_rate(rates, policy, on_corrected)
    checks = [
        ("max_hallucination_rate", gated_label, gated),
        ("max_abstention_rate", "abstention rate", _evidence(
            rates.abstention_interval, rates.abstention_rate, rates.n_expected_answers,
            unit="cases")._replace(interval_after=partial(
                share_interval_at, rates.n_abstained, rates.n_expected_answers,
                confidence=policy.confidence))),
        _type_check(rates, "fabrication", on_corrected),
        _type_check(rates, "contradiction", on_corrected),
    ]  # fmt: skip
    out = []
    for rule, label, ev in checks:
        limit = getattr(policy, rule)
        r = rate_reason(rule, f"{system} {label}", ev, limit, policy)
        if r is not None:
            out.append(r)
    return out


def _type_check(rates: SystemRates, kind: str, on_corrected: bool) -> tuple[str, str, RuleEvidence]:
    """A claim-type limit's rule, label and evidence: the audit-corrected rate while the gate
    reads the corrected figures (``scoring.corrected_types``), else the judge's."""
    rule = f"max_{kind}_rate"
    fixed = getattr(rates, f"corrected_{kind}")
    if on_corrected and fixed is not None and rates.corrected is not None:
        return rule, f"{kind} rate, review-corrected", rate_evidence(rates.corrected, fixed)
    interval = getattr(rates, f"{kind}_interval")
    return (
        rule,
        f"{kind} rate",
        _evidence(interval, getattr(rates, f"{kind}_rate"), rates.n_answers, unit="cases"),
    )


def _nothing_measured(rates: SystemRates, system: str) -> GateReason | None:
    """FAILED when the system abstained on every case expecting an answer (or nothing could be
    rated): a gate that measured nothing cannot pass."""
    all_abstained = rates.n_expected_answers > 0 and rates.n_abstained == rates.n_expected_answers
    if rates.n_answers == 0 or not (all_abstained or rates.n_rated_answers == 0):
        return None
    kinds = ", ".join(f"{k} {n}" for k, n in rates.abstention_reasons.items())
    return GateReason(
        rule="answers_measured",
        status=GateStatus.FAILED,
        why="no answer to measure",
        observed=0,
        message=f"{system}: no answer to measure: it abstained on all {rates.n_abstained} "
        "case(s) expecting an answer" + (f" ({kinds})" if kinds else ""),
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
    claims_measured: bool = True,
) -> GateDecision:
    """Apply every rule of the policy to the gated system's effective verdicts.

    ``claims_measured`` is False where claims are not the measure (pairwise mode judges
    preferences): then a run without claims is not failed for measuring nothing.
    """
    reasons: list[GateReason] = []
    errors = [a for a in analyses if a.harness_error]
    if errors:
        reasons.append(
            GateReason(
                rule="harness_error",
                status=GateStatus.HARNESS_ERROR,
                why=f"no valid verdict for {len(errors)} answer(s)",
                observed=len(errors),
                message=f"the judge failed on {len(errors)} answer(s): "
                + ", ".join(f"{a.case_id}/{a.system}" for a in errors[:_SHOW_CLAIMS]),
            )
        )
    empty = _nothing_measured(rates, gated_system) if claims_measured else None
    if empty is not None:
        reasons.append(empty)
    if comparison is not None:
        reasons += _change_reasons(comparison, policy)
    on_corrected = (
        comparison.gated_on_corrected
        if comparison is not None
        else corrected_in_force(policy, rates.corrected, None, False)
    )
    if claims_measured:
        every = comparison.rates.values() if comparison is not None else [rates]
        audit = audit_reason(policy, [r.corrected for r in every], on_corrected)
        reasons += [audit] if audit is not None else []
    reasons += _rate_reasons(rates, policy, gated_system, on_corrected)
    if policy.block_on_severity is not None:
        reasons.append(_severity_reason(analyses, policy, gated_system, policy.block_on_severity))
    queue = review_queue(analyses, cases, policy, gated_system, extra_review_ids)
    done = set(reviewed)
    pending = [c for c in queue if c.claim_id not in done]
    audit_pending = [
        i for r in reasons if r.rule == "gate_on_corrected" and r.status != GateStatus.PASSED
        for i in r.claim_ids
    ]  # fmt: skip
    if pending and policy.require_review_before_pass:
        reasons.append(
            GateReason(
                rule="require_review_before_pass",
                status=GateStatus.NEEDS_REVIEW,
                why=f"{len(pending)} severe claim(s) await a reviewer",
                observed=len(pending),
                claim_ids=[c.claim_id for c in pending],
                message=f"{len(pending)} of {len(queue)} claim(s) in the review queue await a "
                f"reviewer: {_ids(pending)}",
            )
        )
    status = worst(reasons)
    return GateDecision(
        status=status,
        exit_code=status.exit_code,
        reasons=reasons,
        headline=headline(status, reasons),
        gated_system=gated_system,
        pending_review=[c.claim_id for c in pending] + audit_pending,
    )


def _severity_reason(
    analyses: Sequence[AnswerAnalysis], policy: Policy, system: str, block: Severity
) -> GateReason:
    hits = blocking_claims(analyses, system, block, policy.count_out_of_scope)
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
        why=f"{len(hits)} {block.value}-or-worse hallucination(s)",
        observed=len(hits),
        claim_ids=[c.claim_id for c in hits],
        message=f"{len(hits)} {block.value}-or-worse hallucination(s) in {system}: {_ids(hits)}",
    )


def _progress(rates: Sequence[CorrectedRate]) -> str:
    return ", ".join(f"{r.system} {r.n_labelled} of {r.n_sample}" for r in rates)


def audit_reason(
    policy: Policy, corrected: Sequence[CorrectedRate | None], in_force: bool
) -> GateReason | None:
    """The gate's word on ``gate_on_corrected``: gating on the corrected figures (audit
    complete), or on the judge's while the audit sample is incomplete: NEEDS_REVIEW then,
    when reviews must come before a pass, naming the answers still to label."""
    if not policy.gate_on_corrected:
        return None
    known = [r for r in corrected if r is not None]
    if in_force:
        return GateReason(
            rule="gate_on_corrected",
            status=GateStatus.PASSED,
            observed=sum(r.n_labelled for r in known),
            message="gating on the review-corrected answers with a hallucination: audit sample "
            f"complete ({_progress(known)} answers labelled)",
        )
    waiting = [i for r in known for i in r.unlabelled]
    if known and not waiting:
        what = f"audit sample too small to correct with ({_progress(known)} answers labelled)"
    elif known:
        what = f"audit sample incomplete ({_progress(known)} answers labelled)"
    else:
        what = "no audit labels yet (`halgate review RUN` lists the audit sample)"
    blocks = policy.require_review_before_pass and bool(waiting or not known)
    return GateReason(
        rule="gate_on_corrected",
        status=GateStatus.NEEDS_REVIEW if blocks else GateStatus.PASSED,
        why=f"{len(waiting)} audit answer(s) to label" if waiting else "no audit labels yet",
        observed=len(waiting),
        claim_ids=waiting,
        message=f"{what}: gating on the judge's figures until every sampled answer is labelled"
        + (f": {', '.join(waiting[:20])}" if waiting else "")
        + (f" and {len(waiting) - 20} more" if len(waiting) > 20 else ""),
    )
