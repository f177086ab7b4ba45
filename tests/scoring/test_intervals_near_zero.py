"""Honest intervals at rates near 0 (issue #33 item 4): no zero width on a raw rate or a
raw change when nothing (or almost nothing) was seen, and coverage kept (figures with -s)."""

from __future__ import annotations

import numpy as np
import pytest
from halgate.models import Interval
from halgate.scoring.intervals import cluster_interval, paired_share_change, with_pooled_floor

RUNS = 2000


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
    for _ in range(RUNS):
        claims = rng.integers(1, 5, answers)
        lift = rng.random(answers) < 0.3  # clustered: some answers err more
        bad = rng.binomial(claims, np.where(lift, min(1.0, 2 * rate), rate * 4 / 7))
        got = cluster_interval(list(zip(bad.astype(float), claims, strict=True)))
        assert got is not None
        truth = 0.3 * min(1.0, 2 * rate) + 0.7 * rate * 4 / 7
        covered += got.low <= truth <= got.high
        zero_width += got.high == got.low
    print(f"\nrate {truth:.3f}, {answers} answers: coverage {covered / RUNS:.3f}")
    assert covered / RUNS >= 0.94 and zero_width == 0


@pytest.mark.parametrize("rate", [0.0, 0.01, 0.05])
@pytest.mark.parametrize("cases", [3, 10, 40])
def test_a_paired_change_of_rare_shares_keeps_its_coverage(rate, cases):
    rng = np.random.default_rng([5, cases, int(rate * 1000)])
    covered = zero_width = 0
    for _ in range(RUNS):
        base = rng.random(cases) < rate
        cand = np.where(rng.random(cases) < 0.8, base, rng.random(cases) < rate)
        got = paired_share_change([(int(b), 1) for b in base], [(int(c), 1) for c in cand])
        assert got is not None
        covered += got[0] <= 0.0 <= got[1]  # the true change is 0
        zero_width += got[0] == got[1]
    print(f"\nshare {rate}, {cases} cases: coverage of no change {covered / RUNS:.3f}")
    assert covered / RUNS >= 0.94 and zero_width == 0
