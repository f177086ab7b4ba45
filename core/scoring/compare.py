"""Baseline vs candidate: did the candidate start inventing facts?"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..inputs.policy import Policy
from ..models import (
    SEVERITIES_DESC,
    AnswerAnalysis,
    Case,
    ComparisonSummary,
    HallucinationType,
    Shift,
)
from .metrics import hallucinated_claims, paired_bootstrap, system_rates


def _shift(base: Counter, cand: Counter, keys: Iterable[str]) -> dict[str, Shift]:
    return {k: Shift(baseline=base[k], candidate=cand[k], delta=cand[k] - base[k]) for k in keys}


def compare_systems(
    analyses: Sequence[AnswerAnalysis],
    cases: Sequence[Case],
    baseline: str,
    candidate: str,
    policy: Policy,
) -> ComparisonSummary:
    """Rates of both systems, paired rate change with its interval, and what shifted."""
    oos = policy.count_out_of_scope
    by_key = {(a.case_id, a.system): a for a in analyses}
    tags = {c.case_id: c.tags for c in cases}
    pairs_b, pairs_c = [], []
    sev: dict[str, Counter[str]] = {baseline: Counter(), candidate: Counter()}
    typ: dict[str, Counter[str]] = {baseline: Counter(), candidate: Counter()}
    tag: dict[str, Counter[str]] = {baseline: Counter(), candidate: Counter()}
    for case in cases:
        a_b, a_c = by_key.get((case.case_id, baseline)), by_key.get((case.case_id, candidate))
        if a_b is None or a_c is None or a_b.harness_error or a_c.harness_error:
            continue  # a case counts only when both answers were judged
        for system, a in ((baseline, a_b), (candidate, a_c)):
            bad = hallucinated_claims(a, oos)
            sev[system].update(c.severity.value for c in bad if c.severity)
            typ[system].update(c.hallucination_type.value for c in bad if c.hallucination_type)
            tag[system].update(t for t in tags[case.case_id] for _ in bad)
        pairs_b.append((len(hallucinated_claims(a_b, oos)), a_b.counts.total))
        pairs_c.append((len(hallucinated_claims(a_c, oos)), a_c.counts.total))
    change = paired_bootstrap(pairs_b, pairs_c, policy.bootstrap_resamples, policy.seed)
    new_types = [HallucinationType(t) for t in sorted(typ[candidate]) if typ[baseline][t] == 0]
    all_tags = sorted({t for c in cases for t in c.tags})
    regression = (change.ci_low is not None and change.ci_low > 0) or bool(new_types)
    return ComparisonSummary(
        baseline=baseline,
        candidate=candidate,
        rates={s: system_rates(analyses, s, oos) for s in (baseline, candidate)},
        rate_change=change,
        new_hallucination_types=new_types,
        severity_shift=_shift(sev[baseline], sev[candidate], [s.value for s in SEVERITIES_DESC]),
        type_shift=_shift(typ[baseline], typ[candidate], [t.value for t in HallucinationType]),
        tag_shift=_shift(tag[baseline], tag[candidate], all_tags),
        regression_detected=regression,
    )
