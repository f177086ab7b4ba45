"""The judge-quality intervals of eval-judge: DeLong's AUROC interval, the paired AUROC
difference and the balanced-accuracy interval, each checked against a direct computation
and by simulation for its coverage on holdout-sized samples (20 hallucinated answers of 100).

Scores are binormal: hallucinated answers ~ N(d, 1), faithful ~ N(0, 1), whose true AUROC
is Phi(d / sqrt 2). Fixed seeds: the figures are the same on every run.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from halgate.evaluation.benchmark import BenchRow, Prediction, benchmark_table, response_metrics
from halgate.evaluation.roc import (
    auroc,
    auroc_difference,
    auroc_interval,
    balanced_accuracy_interval,
)

SEEDS = 400
COVERAGE_FLOOR = 0.92  # 95 % intervals; 400 seeds put the observed coverage within +-0.02
_N = NormalDist()


def _binormal(rng: np.random.Generator, area: float, n_pos: int, n_neg: int):
    d = _N.inv_cdf(area) * math.sqrt(2)
    labels = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    return labels, np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]


def _delong_variance_by_pairs(labels: np.ndarray, scores: np.ndarray) -> float:
    """DeLong's variance written out over every (hallucinated, faithful) pair."""
    pos, neg = scores[labels], scores[~labels]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg)


def test_delong_interval_is_the_logit_of_the_pairwise_variance():
    rng = np.random.default_rng(7)
    labels, scores = _binormal(rng, 0.8, 15, 45)
    scores = np.round(scores, 1)  # ties too
    area = auroc(labels, scores)
    assert area is not None
    iv = auroc_interval(labels, scores)
    assert iv is not None and iv.method == "delong-logit"
    half = 1.959964 * math.sqrt(_delong_variance_by_pairs(labels, scores)) / (area * (1 - area))
    logit = math.log(area / (1 - area))
    assert iv.low == pytest.approx(1 / (1 + math.exp(-(logit - half))), abs=1e-6)
    assert iv.high == pytest.approx(1 / (1 + math.exp(-(logit + half))), abs=1e-6)
    assert iv.low < area < iv.high


@pytest.mark.parametrize("area", [0.6, 0.75, 0.9])
@pytest.mark.parametrize("n_pos, n_neg", [(20, 80), (10, 40), (60, 240)])
def test_auroc_interval_covers_the_true_auroc(area, n_pos, n_neg):
    rng = np.random.default_rng(int(area * 100) + n_pos)
    hits = 0
    for _ in range(SEEDS):
        labels, scores = _binormal(rng, area, n_pos, n_neg)
        iv = auroc_interval(labels, scores)
        assert iv is not None
        hits += iv.low <= area <= iv.high
    print(f"\nAUROC {area}, {n_pos}+{n_neg} answers: coverage {hits / SEEDS:.1%}")
    assert hits / SEEDS >= COVERAGE_FLOOR


def test_perfectly_separated_scores_get_an_honest_interval_not_certainty():
    labels = np.r_[np.ones(20, bool), np.zeros(80, bool)]
    scores = np.r_[np.linspace(0.6, 1, 20), np.linspace(0, 0.5, 80)]
    iv = auroc_interval(labels, scores)
    assert iv is not None and iv.method == "wilson-separated"
    assert iv.high == 1.0 and iv.low == pytest.approx(20 / (20 + 1.959964**2), abs=1e-6)
    flipped = auroc_interval(labels, -scores)
    assert flipped is not None and flipped.low == 0.0 and flipped.high == pytest.approx(1 - iv.low)
    # Near-perfect judges separate a small holdout often; the interval still covers.
    rng = np.random.default_rng(3)
    hits = separated = 0
    for _ in range(SEEDS):
        labels, scores = _binormal(rng, 0.99, 10, 40)
        iv = auroc_interval(labels, scores)
        assert iv is not None
        hits += iv.low <= 0.99 <= iv.high
        separated += iv.method == "wilson-separated"
    assert separated > SEEDS // 10  # the fallback is exercised
    assert hits / SEEDS >= COVERAGE_FLOOR


def test_one_class_has_no_interval():
    assert auroc_interval([True, True], [0.1, 0.2]) is None
    assert auroc_difference([False, False], [0.1, 0.2], [0.3, 0.1]) is None
    assert balanced_accuracy_interval(0, 0, 5, 1) is None


@pytest.mark.parametrize(
    "d_a, d_b, n_pos, n_neg", [(1.0, 0.6, 20, 80), (1.2, 1.2, 20, 80), (1.5, 0.8, 60, 240)]
)
def test_paired_difference_covers_the_true_difference(d_a, d_b, n_pos, n_neg):
    """Two scorers reading the same answers share half their noise (correlated errors)."""
    true = _N.cdf(d_a / math.sqrt(2)) - _N.cdf(d_b / math.sqrt(2))
    rng = np.random.default_rng(11 + n_pos)
    labels = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    hits = 0
    widths = []
    for _ in range(SEEDS):
        shared = rng.normal(0, math.sqrt(0.5), len(labels))
        a = d_a * labels + shared + rng.normal(0, math.sqrt(0.5), len(labels))
        b = d_b * labels + shared + rng.normal(0, math.sqrt(0.5), len(labels))
        gain = auroc_difference(labels, a, b)
        assert gain is not None
        assert gain.difference == pytest.approx(auroc(labels, a) - auroc(labels, b))
        hits += gain.interval.low <= true <= gain.interval.high
        widths.append(gain.interval.high - gain.interval.low)
        solo_a, solo_b = auroc_interval(labels, a), auroc_interval(labels, b)
        assert solo_a is not None and solo_b is not None
    print(f"\npaired difference {true:+.3f}: coverage {hits / SEEDS:.1%}")
    assert hits / SEEDS >= COVERAGE_FLOOR
    # Pairing is what makes it useful: narrower than the two separate intervals' spread.
    assert np.mean(widths) < (solo_a.high - solo_a.low) + (solo_b.high - solo_b.low)


def test_identical_scorers_differ_by_exactly_nothing():
    labels = [True, False, True, False, False]
    gain = auroc_difference(labels, [0.9, 0.2, 0.4, 0.5, 0.1], [0.9, 0.2, 0.4, 0.5, 0.1])
    assert gain is not None
    assert (gain.difference, gain.interval.low, gain.interval.high) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    "recall, specificity, n_pos, n_neg",
    [(0.7, 0.8, 20, 80), (0.95, 0.9, 20, 80), (0.3, 0.95, 10, 90), (1.0, 0.9, 20, 80)],
)
def test_balanced_accuracy_interval_covers_the_true_value(recall, specificity, n_pos, n_neg):
    rng = np.random.default_rng(int(recall * 1000) + n_pos)
    truth = (recall + specificity) / 2
    hits = 0
    for _ in range(SEEDS * 4):  # cheap: no scores to draw
        tp, tn = int(rng.binomial(n_pos, recall)), int(rng.binomial(n_neg, specificity))
        iv = balanced_accuracy_interval(tp, n_pos - tp, tn, n_neg - tn)
        assert iv is not None and 0.0 <= iv.low <= iv.high <= 1.0
        hits += iv.low <= truth <= iv.high
    print(f"\nbalanced accuracy {truth:.3f}: coverage {hits / (SEEDS * 4):.1%}")
    assert hits / (SEEDS * 4) >= COVERAGE_FLOOR


def _row(hallucinated: bool) -> BenchRow:
    return BenchRow(
        id="r",
        task="qa",
        question=None,
        documents=[],
        answer="x",
        hallucinated=hallucinated,
        spans=[],
    )


def test_response_metrics_and_table_carry_the_intervals():
    rows = [_row(h) for h in (True, True, False, False, False)]
    preds = [Prediction(s > 0.5, s, []) for s in (0.9, 0.4, 0.6, 0.2, 0.1)]
    m = response_metrics(rows, preds)
    assert m["auroc"] == pytest.approx(5 / 6)
    assert m["auroc_interval"]["method"] == "delong-logit"
    assert m["auroc_interval"]["low"] < 5 / 6 < m["auroc_interval"]["high"]
    assert m["balanced_accuracy_interval"]["method"] == "agresti-caffo"
    block = {
        **m,
        "novelty_baseline": m,
        "auroc_minus_baseline": {
            "difference": 0.0,
            "interval": {"low": 0.0, "high": 0.0, "confidence": 0.95, "method": "delong-paired"},
        },
    }
    table = benchmark_table({"judge_id": "j", "per_task": {"qa": block}, "overall": block})
    low, high = m["auroc_interval"]["low"], m["auroc_interval"]["high"]
    assert f"{low:.3f}-{high:.3f}" in table
    assert "qa: judge AUROC minus baseline's +0.000 (95% +0.000 to +0.000, paired)" in table
