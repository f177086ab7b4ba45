"""Every number halgate reports, defined once (DESIGN.md §3).

Rates are ``None`` when there is nothing to divide by: an answer without factual claims has
no hallucination rate, never 0/0 = 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from ..inputs.policy import Policy
from ..models import (
    SHOULD_ABSTAIN_TAG,
    AnswerAnalysis,
    Case,
    ClaimJudgement,
    HallucinationType,
    Interval,
    RateChange,
    Severity,
    SystemRates,
    Verdict,
    VerdictCounts,
    count_verdicts,
    is_hallucinated,
)
from .abstention import NO_CLAIM
from .intervals import cluster_interval, wilson_interval, with_pooled_floor
from .memo import remembered
from .resampled import resampled_sums

_DEFAULT_RESAMPLES: int = Policy.model_fields["bootstrap_resamples"].default
_DEFAULT_SEED: int = Policy.model_fields["seed"].default


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when the denominator is zero."""
    return None if denominator == 0 else numerator / denominator


def f1_score(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean of precision and recall; None when either is undefined or both are 0."""
    if precision is None or recall is None or precision + recall == 0:
        return None
    return 2 * precision * recall / (precision + recall)


def hallucination_rate(counts: VerdictCounts, count_out_of_scope: bool = False) -> float | None:
    """(UNSUPPORTED + CONTRADICTED [+ OUT_OF_SCOPE]) / total claims."""
    bad = counts.UNSUPPORTED + counts.CONTRADICTED
    if count_out_of_scope:
        bad += counts.OUT_OF_SCOPE
    return ratio(bad, counts.total)


def consistency_score(counts: VerdictCounts, partial_weight: float = 0.5) -> float | None:
    """(SUPPORTED + partial_weight × PARTIALLY_SUPPORTED) / total claims."""
    return ratio(counts.SUPPORTED + partial_weight * counts.PARTIALLY_SUPPORTED, counts.total)


def type_rate(
    claims: Sequence[ClaimJudgement], htype: HallucinationType, count_out_of_scope: bool = False
) -> float | None:
    """Share of claims that are hallucinated with the given type."""
    n = sum(
        1
        for c in claims
        if c.hallucination_type == htype and is_hallucinated(c.verdict, count_out_of_scope)
    )
    return ratio(n, len(claims))


def contradiction_rate(claims: Sequence[ClaimJudgement]) -> float | None:
    """Share of claims that are CONTRADICTED."""
    return ratio(sum(1 for c in claims if c.verdict == Verdict.CONTRADICTED), len(claims))


def answer_metrics(
    claims: Sequence[ClaimJudgement], count_out_of_scope: bool = False, partial_weight: float = 0.5
) -> dict:
    """The per-answer fields of AnswerAnalysis, computed from (effective) claim verdicts."""
    counts = count_verdicts(claims)
    return {
        "counts": counts,
        "hallucination_rate": hallucination_rate(counts, count_out_of_scope),
        "fabrication_rate": type_rate(claims, HallucinationType.FABRICATION, count_out_of_scope),
        "contradiction_rate": contradiction_rate(claims),
        "consistency_score": consistency_score(counts, partial_weight),
        "hallucination_flag": _flagged(counts, count_out_of_scope),
        "answer_score": max((c.score for c in claims), default=0.0),
    }


def _flagged(counts: VerdictCounts, count_out_of_scope: bool) -> bool:
    """``hallucination_flag``: some claim counts as hallucinated (UNSUPPORTED, CONTRADICTED,
    OUT_OF_SCOPE when counted), the same test as the answer-level rate's, in every mode."""
    bad = hallucination_rate(counts, count_out_of_scope)
    return bad is not None and bad > 0


def hallucinated_claims(
    analysis: AnswerAnalysis, count_out_of_scope: bool = False
) -> list[ClaimJudgement]:
    """The claims of an answer that count as hallucinations."""
    return [c for c in analysis.claims if is_hallucinated(c.verdict, count_out_of_scope)]


class OutcomeCounts(NamedTuple):
    """One answer's contribution to each suite measure, as (numerator, denominator) pairs.

    ``answers``: (hallucinated, rated) for the answer-level rate. An answer that abstains on
    a case expecting an answer is not rated (it counts in ``abstention``); on a
    ``should-abstain`` case every answer is rated and one with claims counts as hallucinated.
    ``claims``: (hallucinated claims, claims) of an answer that did not abstain (micro rate).
    ``abstention``: (abstained, expected) where expected = the case expects an answer.
    """

    answers: tuple[int, int]
    claims: tuple[int, int]
    abstention: tuple[int, int]


def abstained(analysis: AnswerAnalysis) -> bool:
    """The answer is an abstention: marked so (empty, nonsense, refusal) or without claims."""
    return analysis.harness_error is None and (
        analysis.abstention is not None or not analysis.claims
    )


def outcome_counts(
    analysis: AnswerAnalysis, should_abstain: bool = False, count_out_of_scope: bool = False
) -> OutcomeCounts:
    """The answer's (numerator, denominator) for answers, claims and abstention."""
    expected = int(not should_abstain)
    if abstained(analysis):  # correct on a should-abstain case, else an abstention
        return OutcomeCounts((0, 1 - expected), (0, 0), (expected, expected))
    bad = len(hallucinated_claims(analysis, count_out_of_scope))
    flagged = bool(bad) or should_abstain
    return OutcomeCounts((int(flagged), 1), (bad, len(analysis.claims)), (0, expected))


def should_abstain_ids(cases: Iterable[Case]) -> set[str]:
    """Case ids tagged ``should-abstain``: abstaining is the correct outcome there."""
    return {c.case_id for c in cases if SHOULD_ABSTAIN_TAG in c.tags}


def bootstrap_interval(
    pairs: Sequence[tuple[int, int]], resamples: int, seed: int, confidence: float = 0.95
) -> Interval | None:
    """Percentile interval of sum(numerators) / sum(denominators), resampling the pairs
    (one per answer, so the claims of an answer stay together); None without denominators."""
    x = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if len(x) == 0 or x[:, 1].sum() == 0:
        return None
    num, den = resampled_sums({"": x}, seed, resamples, np.int64)[""]
    with np.errstate(invalid="ignore", divide="ignore"):
        parts = [num / den] if resamples else []
    bounds = _percentiles(parts, confidence)
    if bounds is None:  # every resample missed the answers with claims
        return None
    return Interval(low=bounds[0], high=bounds[1], confidence=confidence, method="bootstrap")


def _percentiles(parts: list[np.ndarray], confidence: float) -> tuple[float, float] | None:
    """The central `confidence` percentile bounds of the resampled values that are
    defined (a resample that drew no denominator has none); None when none is."""
    if not parts:
        return None
    values = np.concatenate(parts)
    values = values[np.isfinite(values)]
    if not len(values):
        return None
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(values, [alpha, 1 - alpha])
    return float(lo), float(hi)


def _per_answer(answered: Sequence[AnswerAnalysis], kind: str) -> list[tuple[float, int]]:
    """(claims counted by an answer's ``{kind}_rate``, claims) per answer: the clusters."""
    return [((getattr(a, f"{kind}_rate") or 0.0) * len(a.claims), len(a.claims)) for a in answered]


def blocking_claims(
    analyses: Sequence[AnswerAnalysis], system: str, block: Severity, count_out_of_scope: bool
) -> list[ClaimJudgement]:
    """Hallucinated claims of the system at ``block`` severity or worse, most severe first."""
    hits = [
        c for a in analyses if a.system == system for c in _blocking(a, block, count_out_of_scope)
    ]
    return sorted(
        hits, key=lambda c: (-(c.severity.rank if c.severity else -1), c.case_id, c.index)
    )


def _blocking(a: AnswerAnalysis, block: Severity, oos: bool) -> list[ClaimJudgement]:
    """``blocking_claims`` of one answer, remembered per answer object."""

    def hits() -> list[ClaimJudgement]:
        if abstained(a):
            return []
        bad = [c for c in a.claims if c.severity is not None and c.severity.rank >= block.rank]
        return [c for c in bad if is_hallucinated(c.verdict, oos)]

    return remembered(a, ("blocking", block, oos), hits)


def system_rates(
    analyses: Sequence[AnswerAnalysis],
    system: str,
    count_out_of_scope: bool = False,
    cases: Iterable[Case] = (),
    resamples: int = _DEFAULT_RESAMPLES,
    seed: int = _DEFAULT_SEED,
    confidence: float = 0.95,
) -> SystemRates:
    """Suite aggregates for one system: answer-level, micro, macro and abstentions, with 95%
    intervals (harness errors excluded; abstentions counted on their own, DESIGN.md §3)."""
    abstain_cases = should_abstain_ids(cases)
    mine = [a for a in analyses if a.system == system and a.harness_error is None]
    answered = [a for a in mine if not abstained(a)]
    claims = [c for a in answered for c in a.claims]
    counts = count_verdicts(claims)
    outcomes = [outcome_counts(a, a.case_id in abstain_cases, count_out_of_scope) for a in mine]
    flagged = sum(o.answers[0] for o in outcomes)
    rated = sum(o.answers[1] for o in outcomes)
    n_abstained = sum(o.abstention[0] for o in outcomes)
    expected = sum(o.abstention[1] for o in outcomes)
    per_answer = [hallucination_rate(a.counts, count_out_of_scope) for a in answered]
    defined = [r for r in per_answer if r is not None]
    bad = [c for c in claims if is_hallucinated(c.verdict, count_out_of_scope)]
    reasons = Counter(
        a.abstention or NO_CLAIM for a in mine if abstained(a) and a.case_id not in abstain_cases
    )
    return SystemRates(
        system=system,
        n_answers=len(mine),
        n_claims=len(claims),
        counts=counts,
        micro_rate=hallucination_rate(counts, count_out_of_scope),
        macro_rate=ratio(sum(defined), len(defined)),
        answer_level_rate=ratio(flagged, rated),
        fabrication_rate=type_rate(claims, HallucinationType.FABRICATION, count_out_of_scope),
        contradiction_rate=contradiction_rate(claims),
        severity_counts=dict(Counter(c.severity.value for c in bad if c.severity)),
        type_counts=dict(Counter(c.hallucination_type.value for c in bad if c.hallucination_type)),
        n_rated_answers=rated,
        n_hallucinated_answers=flagged,
        n_should_abstain_answered=sum(1 for a in answered if a.case_id in abstain_cases),
        answer_level_interval=wilson_interval(flagged, rated, confidence),
        micro_interval=with_pooled_floor(
            bootstrap_interval([o.claims for o in outcomes], resamples, seed, confidence),
            [o.claims for o in outcomes],
            confidence,
        ),
        fabrication_interval=cluster_interval(_per_answer(answered, "fabrication"), confidence),
        contradiction_interval=cluster_interval(_per_answer(answered, "contradiction"), confidence),
        n_abstained=n_abstained,
        n_expected_answers=expected,
        abstention_rate=ratio(n_abstained, expected),
        abstention_interval=wilson_interval(n_abstained, expected, confidence),
        abstention_reasons=dict(sorted(reasons.items())),
    )


def paired_bootstrap(
    baseline: Sequence[tuple[int, int]],
    candidate: Sequence[tuple[int, int]],
    resamples: int,
    seed: int,
    confidence: float = 0.95,
) -> RateChange:
    """Candidate − baseline rate with a percentile interval from resampling cases.

    ``baseline[i]`` and ``candidate[i]`` are (numerator, denominator) of case i: hallucinated
    and all claims for the micro rate, (hallucinated, rated) answers for the answer-level
    rate, (abstained, expected) for abstentions. The same cases are drawn for both systems
    (paired), so case difficulty cancels out.
    """
    return paired_bootstraps({"": (baseline, candidate)}, resamples, seed, confidence)[""]


def paired_bootstraps(
    measures: Mapping[str, tuple[Sequence[tuple[int, int]], Sequence[tuple[int, int]]]],
    resamples: int,
    seed: int,
    confidence: float = 0.95,
) -> dict[str, RateChange]:
    """`paired_bootstrap` of several measures of the same cases at once, each exactly as
    it would be alone: with one seed they draw the same resamples, so the draws are made
    once (a third of a 10,000-case bootstrap's time each) and shared."""
    counts = {
        m: np.hstack(
            [np.asarray(side, dtype=np.int64).reshape(-1, 2) for side in (b, c)]
        )  # columns: baseline bad, all; candidate bad, all
        for m, (b, c) in measures.items()
    }
    out: dict[str, RateChange] = {}
    for n in sorted({len(x) for x in counts.values()}):
        group = {m: x for m, x in counts.items() if len(x) == n}
        points = {m: _diff(x[:, :2].sum(axis=0), x[:, 2:].sum(axis=0)) for m, x in group.items()}
        live = {m: x for m, x in group.items() if n and points[m] is not None}
        diffs: dict[str, list[np.ndarray]] = {m: [] for m in live}
        sums = resampled_sums(live, seed, resamples, np.int32) if resamples else {}
        for m, (b_bad, b_all, c_bad, c_all) in sums.items():
            with np.errstate(invalid="ignore", divide="ignore"):
                diffs[m].append(c_bad / c_all - b_bad / b_all)
        for m in group:
            out[m] = _rate_change(points[m], diffs.get(m, []), resamples, seed, n, confidence)
    return {m: out[m] for m in measures}


def _rate_change(
    point: float | None,
    parts: list[np.ndarray],
    resamples: int,
    seed: int,
    n: int,
    confidence: float,
) -> RateChange:
    lo, hi = _percentiles(parts, confidence) or (None, None)
    return RateChange(
        estimate=point,
        ci_low=lo,
        ci_high=hi,
        confidence=confidence,
        resamples=resamples,
        seed=seed,
        n_cases=n,
    )


def _diff(b: np.ndarray, c: np.ndarray) -> float | None:
    if b[1] == 0 or c[1] == 0:
        return None
    return float(c[0] / c[1] - b[0] / b[1])
