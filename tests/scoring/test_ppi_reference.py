"""The corrected-rate estimator against the reference implementation (ppi-python, by the
authors of prediction-powered inference), and its PPI++ tuning and small-sample floor."""

from __future__ import annotations

import numpy as np
import pytest
from halgate.scoring.corrected import ppi_mean

ppi_py = pytest.importorskip("ppi_py")


def _judge_and_truth(seed: int, n_all: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A biased judge (recall 0.85, false alarms 0.19) over n_all answers; the first n are
    the audited ones, with their true labels."""
    rng = np.random.default_rng(seed)
    truth = (rng.random(n_all) < 0.11).astype(float)
    u = rng.random(n_all)
    judge = np.where(truth == 1, u < 0.85, u < 0.19).astype(float)
    return judge, judge[:n], truth[:n]


@pytest.mark.parametrize("lam", [1.0, None])
def test_the_estimate_and_interval_agree_with_ppi_python(lam):
    # ppi-python takes disjoint labelled and unlabelled sets; with the unlabelled set far
    # larger than the labelled, the two designs meet, and so must the figures.
    f, fl, yl = _judge_and_truth(1, 400_000, 200)
    ours = ppi_mean(f, fl, yl, confidence=0.9, lam=lam, pseudo=False)  # the plain estimator
    ref_est = float(ppi_py.ppi_mean_pointestimate(yl, fl, f[200:], lam=lam)[0])
    ref_lo, ref_hi = (float(x[0]) for x in ppi_py.ppi_mean_ci(yl, fl, f[200:], alpha=0.1, lam=lam))
    assert ours.estimate == pytest.approx(ref_est, abs=2e-3)
    # Student-t (199 df) against normal quantile: half widths within 1%
    assert ours.high - ours.low == pytest.approx(ref_hi - ref_lo, rel=0.01)
    assert ours.low == pytest.approx(ref_lo, abs=3e-3) and ours.high == pytest.approx(
        ref_hi, abs=3e-3
    )


def test_power_tuning_never_widens_and_narrows_a_weak_judge():
    widths = {True: [], False: []}
    for seed in range(200):
        f, fl, yl = _judge_and_truth(seed, 300, 30)
        for tuned in widths:
            e = ppi_mean(f, fl, yl, lam=None if tuned else 1.0)
            widths[tuned].append(e.high - e.low)
    tuned, classic = np.mean(widths[True]), np.mean(widths[False])
    print(f"\nmean 95% width at 30 labels: classic PPI {classic:.3f}, PPI++ {tuned:.3f}")
    assert tuned < classic


@pytest.mark.parametrize("n", [2, 5, 30])
def test_reviewers_who_agree_with_a_quiet_judge_leave_a_real_interval(n):
    # The judge flags nothing and the reviewers agree on every audited answer: the rate is
    # near 0 but 0 of n does not prove 0, so the interval keeps a width.
    f = np.zeros(300)
    e = ppi_mean(f, f[:n], np.zeros(n))
    assert e.estimate == 0.0 and e.low == 0.0 and e.high is not None and e.high > 0.02
