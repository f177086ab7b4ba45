"""Baseline vs candidate: did the candidate start inventing facts, or stop answering?"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..inputs.policy import Policy
from ..models import (
    SEVERITIES_DESC,
    AnswerAnalysis,
    Case,
    ComparisonSummary,
    CorrectedChange,
    CorrectedRate,
    HallucinationType,
    RateChange,
    Shift,
    SystemRates,
    ci_bounds,
)
from .decide import RuleEvidence
from .intervals import newcombe_interval, share_cells
from .memo import remembered
from .metrics import (
    OutcomeCounts,
    abstained,
    blocking_claims,
    hallucinated_claims,
    outcome_counts,
    paired_bootstraps,
    should_abstain_ids,
    system_rates,
)


def _shift(base: Counter, cand: Counter, keys: Iterable[str]) -> dict[str, Shift]:
    return {k: Shift(baseline=base[k], candidate=cand[k], delta=cand[k] - base[k]) for k in keys}


def compare_systems(
    analyses: Sequence[AnswerAnalysis],
    cases: Sequence[Case],
    baseline: str,
    candidate: str,
    policy: Policy,
    rates: dict[str, SystemRates] | None = None,
    corrected_change: CorrectedChange | None = None,
) -> ComparisonSummary:
    """Rates of both systems, paired changes with their intervals (answers with a
    hallucination, claims hallucinated, abstentions), and what shifted.

    ``rates`` are the systems' rates when the caller has them (else computed here);
    ``corrected_change`` is the audit-corrected change of a reviewed report: when the policy
    gates on it and the audit is complete, ``regression_detected`` reads its interval.
    """
    oos = policy.count_out_of_scope
    by_key = {(a.case_id, a.system): a for a in analyses}
    tags = {c.case_id: c.tags for c in cases}
    abstain_cases = should_abstain_ids(cases)
    pairs: dict[str, tuple[list, list]] = {m: ([], []) for m in ("answers", "claims", "abstain")}
    sev: dict[str, Counter[str]] = {baseline: Counter(), candidate: Counter()}
    typ: dict[str, Counter[str]] = {baseline: Counter(), candidate: Counter()}
    tag: dict[str, Counter[str]] = {baseline: Counter(), candidate: Counter()}
    for case in cases:
        a_b, a_c = by_key.get((case.case_id, baseline)), by_key.get((case.case_id, candidate))
        if a_b is None or a_c is None or a_b.harness_error or a_c.harness_error:
            continue  # a case counts only when both answers were judged
        for side, (system, a) in enumerate(((baseline, a_b), (candidate, a_c))):
            severities, types, n_bad, o = _answer_facts(a, case.case_id in abstain_cases, oos)
            sev[system].update(severities)
            typ[system].update(types)
            tag[system].update(t for t in tags[case.case_id] for _ in range(n_bad))
            pairs["answers"][side].append(o.answers)
            pairs["claims"][side].append(o.claims)
            pairs["abstain"][side].append(o.abstention)
    n, seed = policy.bootstrap_resamples, policy.seed
    change = paired_bootstraps(pairs, n, seed, policy.confidence)
    change["abstain"] = abstention_change(change["abstain"], pairs["abstain"], policy.confidence)
    gated = change["answers"] if policy.gate_on == "answers" else change["claims"]
    new_types = [HallucinationType(t) for t in sorted(typ[candidate]) if typ[baseline][t] == 0]
    all_tags = sorted({t for c in cases for t in c.tags})
    blocked = policy.block_on_severity is not None and bool(
        blocking_claims(analyses, candidate, policy.block_on_severity, oos)
    )
    if rates is None or not {baseline, candidate} <= set(rates):
        rates = {
            s: system_rates(analyses, s, oos, cases, n, seed, policy.confidence)
            for s in (baseline, candidate)
        }
    on_corrected = corrected_in_force(policy, rates[candidate].corrected, corrected_change, True)
    low = corrected_change.ci_low if on_corrected and corrected_change else gated.ci_low
    regression = (low is not None and low > 0) or blocked
    return ComparisonSummary(
        baseline=baseline,
        candidate=candidate,
        rates={s: rates[s] for s in (baseline, candidate)},
        corrected_change=corrected_change,
        gated_on_corrected=on_corrected,
        rate_change=change["claims"],
        answer_rate_change=change["answers"],
        abstention_change=change["abstain"],
        gated_measure=policy.gate_on,
        new_hallucination_types=new_types,
        severity_shift=_shift(sev[baseline], sev[candidate], [s.value for s in SEVERITIES_DESC]),
        type_shift=_shift(typ[baseline], typ[candidate], [t.value for t in HallucinationType]),
        tag_shift=_shift(tag[baseline], tag[candidate], all_tags),
        regression_detected=regression,
    )


def _answer_facts(
    a: AnswerAnalysis, should_abstain: bool, oos: bool
) -> tuple[list[str], list[str], int, OutcomeCounts]:
    """An answer's part of the comparison: its hallucinated claims' severities and types,
    their number and its outcome counts (remembered per answer object: an overturn leaves
    all but one answer of a run as they were)."""

    def facts() -> tuple[list[str], list[str], int, OutcomeCounts]:
        bad = [] if abstained(a) else hallucinated_claims(a, oos)
        return (
            [c.severity.value for c in bad if c.severity],
            [c.hallucination_type.value for c in bad if c.hallucination_type],
            len(bad),
            outcome_counts(a, should_abstain, oos),
        )

    return remembered(a, ("compare", should_abstain, oos), facts)


def abstention_change(
    bootstrap: RateChange, pairs: tuple[list, list], confidence: float
) -> RateChange:
    """The abstention change with Newcombe's paired interval in place of the bootstrap's:
    abstentions are a share of the same cases on both sides (pairing kept whoever abstains),
    and with no case differing the bootstrap's interval has zero width ("+0.0 % (+0.0 % to
    +0.0 %)"), Newcombe's keeps the uncertainty of a share of n (``intervals``)."""
    cells = share_cells(pairs[0], pairs[1])
    if not sum(cells):
        return bootstrap
    ends = newcombe_interval(cells, confidence)
    return bootstrap.model_copy(
        update={"ci_low": ends[0], "ci_high": ends[1], "method": "newcombe", "cells": list(cells)}
    )


def share_change_evidence(ab: RateChange, confidence: float) -> RuleEvidence:
    """The abstention change as the gate reads it: with Newcombe's interval, n is the cases
    it rests on and 'about N more cases' is read from the interval itself over more cases
    of the same shares (with no case differing its width shrinks like 1/n, not 1/√n: the
    variance's projection asked for about twice the cases, or called them out of reach)."""
    lo, hi = ci_bounds(ab)
    ev = RuleEvidence(ab.estimate, lo, hi, ab.n_cases, unit="cases")
    if ab.method != "newcombe" or not ab.cells:
        return ev
    n = sum(ab.cells)
    return ev._replace(
        n=n, interval_after=lambda more: newcombe_interval(ab.cells, confidence, (n + more) / n)
    )


def corrected_in_force(
    policy: Policy, rate: CorrectedRate | None, change: CorrectedChange | None, compare: bool
) -> bool:
    """Whether the gate uses the corrected figures: ``gate_on_corrected``, every audit sample
    completely labelled, and an estimate (with an interval, for a change) to gate on."""
    if not policy.gate_on_corrected or rate is None or not rate.complete:
        return False
    if rate.estimate is None:
        return False
    if not compare:
        return True
    return change is not None and change.complete and change.ci_low is not None
