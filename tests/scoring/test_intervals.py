"""The 95% intervals halgate prints cover the truth about 95% of the time (simulated)."""

from __future__ import annotations

import numpy as np
import pytest
from halgate.models import Interval
from halgate.scoring.intervals import cluster_interval, paired_share_change, with_pooled_floor
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


# Rates near 0 (issue #33 item 4): no zero width on a raw rate or a raw change when nothing
# (or almost nothing) was seen, and coverage kept (figures with -s).

NEAR_ZERO_RUNS = 2000


def test_nothing_seen_is_not_proof_of_nothing():
    none = cluster_interval([(0.0, 2), (0.0, 1), (0.0, 3)])  # 0 of 6 claims
    assert none is not None and none.low == 0.0 and none.high == pytest.approx(0.390, abs=0.001)
    point = Interval(low=0.0, high=0.0, method="bootstrap")  # what a bootstrap gives there
    floored = with_pooled_floor(point, [(0, 2), (0, 1), (0, 3)])
    assert floored is not None and floored.high == none.high and floored.method == "bootstrap"
    low, high = paired_share_change([(0, 1)] * 3, [(0, 1)] * 3) or (0, 0)
    assert (low, high) == pytest.approx((-0.561, 0.561), abs=0.001)  # 0 of 3 each side


def test_a_wide_interval_is_kept_where_it_is_wider_than_the_floor():
    pairs = [(1.0, 1)] * 10 + [(0.0, 1)] * 10  # half the claims: the cluster interval rules
    got = cluster_interval(pairs)
    assert got is not None and got.low == pytest.approx(0.281, abs=0.01)


@pytest.mark.parametrize("rate", [0.0, 0.005, 0.02, 0.05])
@pytest.mark.parametrize("answers", [5, 20])
def test_pooled_rates_near_zero_keep_their_coverage(rate, answers):
    rng = np.random.default_rng([3, answers, int(rate * 1000)])
    covered = zero_width = 0
    for _ in range(NEAR_ZERO_RUNS):
        claims = rng.integers(1, 5, answers)
        lift = rng.random(answers) < 0.3  # clustered: some answers err more
        bad = rng.binomial(claims, np.where(lift, min(1.0, 2 * rate), rate * 4 / 7))
        got = cluster_interval(list(zip(bad.astype(float), claims, strict=True)))
        assert got is not None
        truth = 0.3 * min(1.0, 2 * rate) + 0.7 * rate * 4 / 7
        covered += got.low <= truth <= got.high
        zero_width += got.high == got.low
    print(f"\nrate {truth:.3f}, {answers} answers: coverage {covered / NEAR_ZERO_RUNS:.3f}")
    assert covered / NEAR_ZERO_RUNS >= 0.94 and zero_width == 0


@pytest.mark.parametrize("rate", [0.0, 0.01, 0.05])
@pytest.mark.parametrize("cases", [3, 10, 40])
def test_a_paired_change_of_rare_shares_keeps_its_coverage(rate, cases):
    rng = np.random.default_rng([5, cases, int(rate * 1000)])
    covered = zero_width = 0
    for _ in range(NEAR_ZERO_RUNS):
        base = rng.random(cases) < rate
        cand = np.where(rng.random(cases) < 0.8, base, rng.random(cases) < rate)
        got = paired_share_change([(int(b), 1) for b in base], [(int(c), 1) for c in cand])
        assert got is not None
        covered += got[0] <= 0.0 <= got[1]  # the true change is 0
        zero_width += got[0] == got[1]
    print(f"\nshare {rate}, {cases} cases: coverage of no change {covered / NEAR_ZERO_RUNS:.3f}")
    assert covered / NEAR_ZERO_RUNS >= 0.94 and zero_width == 0
