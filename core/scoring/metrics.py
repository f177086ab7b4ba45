"""Every number halgate reports, defined once (DESIGN.md §3).

Rates are ``None`` when there is nothing to divide by: an answer without factual claims has
no hallucination rate, never 0/0 = 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from ..models import (
    AnswerAnalysis,
    ClaimJudgement,
    HallucinationType,
    RateChange,
    SystemRates,
    Verdict,
    VerdictCounts,
)

HALLUCINATED = frozenset({Verdict.UNSUPPORTED, Verdict.CONTRADICTED})
_VERDICT_NAMES = [v.value for v in Verdict]


def is_hallucinated(verdict: Verdict, count_out_of_scope: bool = False) -> bool:
    """UNSUPPORTED and CONTRADICTED always; OUT_OF_SCOPE only if the policy counts it."""
    return verdict in HALLUCINATED or (count_out_of_scope and verdict == Verdict.OUT_OF_SCOPE)


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when the denominator is zero."""
    return None if denominator == 0 else numerator / denominator


def f1_score(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean of precision and recall; None when either is undefined or both are 0."""
    if precision is None or recall is None or precision + recall == 0:
        return None
    return 2 * precision * recall / (precision + recall)


def count_verdicts(claims: Iterable[ClaimJudgement]) -> VerdictCounts:
    """Claims per verdict (a plain loop: this runs once per answer, 20,000 times a big run)."""
    counts = dict.fromkeys(_VERDICT_NAMES, 0)
    for claim in claims:
        counts[claim.verdict.value] += 1
    return VerdictCounts(**counts)


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
        "hallucination_flag": counts.CONTRADICTED > 0,
        "answer_score": max((c.score for c in claims), default=0.0),
    }


def hallucinated_claims(
    analysis: AnswerAnalysis, count_out_of_scope: bool = False
) -> list[ClaimJudgement]:
    """The claims of an answer that count as hallucinations."""
    return [c for c in analysis.claims if is_hallucinated(c.verdict, count_out_of_scope)]


def system_rates(
    analyses: Sequence[AnswerAnalysis], system: str, count_out_of_scope: bool = False
) -> SystemRates:
    """Suite aggregates for one system: micro, macro and answer-level (harness errors excluded)."""
    mine = [a for a in analyses if a.system == system and a.harness_error is None]
    claims = [c for a in mine for c in a.claims]
    counts = count_verdicts(claims)
    per_answer = [hallucination_rate(a.counts, count_out_of_scope) for a in mine]
    defined = [r for r in per_answer if r is not None]
    flagged = [a for a in mine if hallucinated_claims(a, count_out_of_scope)]
    bad = [c for c in claims if is_hallucinated(c.verdict, count_out_of_scope)]
    return SystemRates(
        system=system,
        n_answers=len(mine),
        n_claims=len(claims),
        counts=counts,
        micro_rate=hallucination_rate(counts, count_out_of_scope),
        macro_rate=ratio(sum(defined), len(defined)),
        answer_level_rate=ratio(len(flagged), len(mine)),
        fabrication_rate=type_rate(claims, HallucinationType.FABRICATION, count_out_of_scope),
        contradiction_rate=contradiction_rate(claims),
        severity_counts=dict(Counter(c.severity.value for c in bad if c.severity)),
        type_counts=dict(Counter(c.hallucination_type.value for c in bad if c.hallucination_type)),
    )


def paired_bootstrap(
    baseline: Sequence[tuple[int, int]],
    candidate: Sequence[tuple[int, int]],
    resamples: int,
    seed: int,
    confidence: float = 0.95,
) -> RateChange:
    """Candidate − baseline micro rate with a percentile interval from resampling cases.

    ``baseline[i]`` and ``candidate[i]`` are (hallucinated, total) claim counts of case i; the
    same cases are drawn for both systems (paired), so case difficulty cancels out.
    """
    b = np.asarray(baseline, dtype=np.int64).reshape(-1, 2)
    c = np.asarray(candidate, dtype=np.int64).reshape(-1, 2)
    n = len(b)
    point = _diff(b.sum(axis=0), c.sum(axis=0))
    if n == 0 or point is None:
        return RateChange(
            estimate=point,
            ci_low=None,
            ci_high=None,
            confidence=confidence,
            resamples=resamples,
            seed=seed,
            n_cases=n,
        )
    rng = np.random.default_rng(seed)
    diffs = np.concatenate(
        [
            _resampled_diffs(rng, b, c, min(_CHUNK, resamples - start))
            for start in range(0, resamples, _CHUNK)
        ]
    )
    diffs = diffs[np.isfinite(diffs)]
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(diffs, [alpha, 1 - alpha]) if len(diffs) else (None, None)
    return RateChange(
        estimate=point,
        ci_low=None if lo is None else float(lo),
        ci_high=None if hi is None else float(hi),
        confidence=confidence,
        resamples=resamples,
        seed=seed,
        n_cases=n,
    )


_CHUNK = 250  # resamples drawn at once: memory stays O(chunk x cases), not O(resamples x cases)


def _resampled_diffs(rng: np.random.Generator, b: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    """k bootstrap replicates of the micro-rate difference: each draws n cases with
    replacement, the same cases for both systems."""
    idx = rng.integers(0, len(b), size=(k, len(b)), dtype=np.int32)
    # One contiguous 1-D gather per column is several times faster than gathering rows.
    b_bad, b_all, c_bad, c_all = (col[idx].sum(axis=1) for col in (*b.T, *c.T))
    with np.errstate(invalid="ignore", divide="ignore"):
        return c_bad / c_all - b_bad / b_all


def _diff(b: np.ndarray, c: np.ndarray) -> float | None:
    if b[1] == 0 or c[1] == 0:
        return None
    return float(c[0] / c[1] - b[0] / b[1])
