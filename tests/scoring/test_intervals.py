"""The 95% intervals halgate prints cover the truth about 95% of the time (simulated)."""

from __future__ import annotations

import numpy as np
import pytest
from halgate.scoring.metrics import bootstrap_interval, paired_bootstrap, wilson_interval

DRAWS = 500


def test_wilson_interval_edges_and_known_value():
    assert wilson_interval(0, 0) is None
    i = wilson_interval(0, 10)
    assert i.low == 0.0 and 0.25 < i.high < 0.35 and i.method == "wilson"
    assert wilson_interval(10, 10).high == 1.0
    j = wilson_interval(18, 53)  # the example suite's baseline
    assert j.low == pytest.approx(0.2269, abs=1e-4) and j.high == pytest.approx(0.4741, abs=1e-4)


@pytest.mark.parametrize("p, n", [(0.3, 50), (0.1, 80), (0.5, 30)])
def test_wilson_interval_covers_p_in_95_percent_of_draws(p, n):
    rng = np.random.default_rng(11)
    hits = 0
    for k in rng.binomial(n, p, size=DRAWS):
        i = wilson_interval(int(k), n)
        hits += i.low <= p <= i.high
    assert hits / DRAWS >= 0.93, hits / DRAWS


def test_paired_bootstrap_of_a_difference_covers_the_true_difference():
    # Answer-level flags of 100 cases: baseline p=0.2, candidate p=0.3, correlated per case.
    rng = np.random.default_rng(5)
    n, hits = 100, 0
    for d in range(DRAWS):
        hard = rng.random(n) < 0.5  # hard cases raise both systems' chance
        b = rng.random(n) < np.where(hard, 0.3, 0.1)
        c = rng.random(n) < np.where(hard, 0.4, 0.2)
        r = paired_bootstrap(
            [(int(x), 1) for x in b], [(int(x), 1) for x in c], resamples=500, seed=d
        )
        hits += r.ci_low <= 0.1 <= r.ci_high
    assert hits / DRAWS >= 0.93, hits / DRAWS


def test_micro_bootstrap_interval_covers_the_pooled_rate():
    # 60 answers with 1-5 claims each, every claim hallucinated with p = 0.25.
    rng = np.random.default_rng(8)
    hits = 0
    for d in range(DRAWS):
        totals = rng.integers(1, 6, size=60)
        bad = rng.binomial(totals, 0.25)
        i = bootstrap_interval(list(zip(bad, totals, strict=True)), resamples=500, seed=d)
        hits += i.low <= 0.25 <= i.high
    assert hits / DRAWS >= 0.93, hits / DRAWS


def test_bootstrap_interval_without_claims_is_none():
    assert bootstrap_interval([], 200, 1) is None
    assert bootstrap_interval([(0, 0), (0, 0)], 200, 1) is None
