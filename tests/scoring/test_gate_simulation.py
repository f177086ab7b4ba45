"""Decisions by simulation (issue #33 item 7): the three-way rule on audit-corrected changes.

Each scenario draws many release pairs of 300 cases with known truth, a judge of given
quality, and a random audit of n cases labelled by "reviewers" who know the truth. The
corrected change (paired PPI++) is decided against ``max_rate_increase`` = 5 points by the
interval rule. Checked: coverage of the true change; equivalent releases (true change 0 or
just under the limit) FAIL in at most 5 % of audits at any size; real regressions never
PASS and 20-point ones FAIL in most audits of 60 (figures printed with -s). Pure numpy and
the product's own estimator.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.scoring.corrected import CHANGE_PSEUDO, ppi_mean
from halgate.scoring.decide import Call, RuleEvidence, call
from halgate.scoring.looks import level_at

N_CASES = 300
AUDITS = 400
LIMIT = 0.05
BASE_RATE = 0.12
POLICY = Policy()


class Judge(NamedTuple):
    recall: float
    false_alarms_baseline: float
    false_alarms_candidate: float  # a judge that over-reads the candidate's longer answers


JUDGES = {
    "biased high": Judge(0.85, 0.19, 0.26),  # like today's: reads 26-33 % where 12 % are
    "rarely wrong": Judge(0.95, 0.03, 0.04),
    "near-perfect": Judge(0.995, 0.005, 0.005),
}


class Outcome(NamedTuple):
    coverage: float
    fail_share: float
    mean_width: float
    pass_share: float


def _truth(
    rng: np.random.Generator, change: float, base: float, cases: int = N_CASES
) -> tuple[np.ndarray, np.ndarray]:
    """Baseline and candidate truths over the cases: 70 % of cases keep their outcome, the
    rest are drawn afresh at the baseline rate, then new hallucinations lift the candidate's
    rate by ``change`` (in expectation)."""
    tb = rng.random(cases) < base
    tc = np.where(rng.random(cases) < 0.7, tb, rng.random(cases) < base)
    tc |= rng.random(cases) < change / (1 - base)
    return tb.astype(float), tc.astype(float)


def _read(rng: np.random.Generator, truth: np.ndarray, recall: float, alarms: float) -> np.ndarray:
    u = rng.random(len(truth))
    return np.where(truth == 1, u < recall, u < alarms).astype(float)


def simulate(
    judge: Judge, change: float, n: int, base: float = BASE_RATE, seed: int = 0,
    cases: int = N_CASES,
) -> Outcome:  # fmt: skip
    """Coverage of the true change, share of audits that FAIL, and mean interval width."""
    covered = failed = passed = 0
    widths = []
    true_change = change  # expected over the draw: the release's own change
    for audit in range(AUDITS):
        rng = np.random.default_rng([seed, audit])
        tb, tc = _truth(rng, change, base, cases)
        fb = _read(rng, tb, judge.recall, judge.false_alarms_baseline)
        fc = _read(rng, tc, judge.recall, judge.false_alarms_candidate)
        labelled = rng.choice(cases, n, replace=False)
        g, d = fc - fb, tc - tb
        level = level_at(POLICY.confidence, n, cases, n)  # the first look of a sequential audit
        est = ppi_mean(g, g[labelled], d[labelled], level, bounds=(-1.0, 1.0), pseudo=CHANGE_PSEUDO)
        assert est.low is not None and est.high is not None and est.estimate is not None
        covered += est.low <= true_change <= est.high
        evidence = RuleEvidence(est.estimate, est.low, est.high, n, corrected=True)
        verdict = call(evidence, LIMIT, POLICY)
        failed += verdict == Call.ABOVE
        passed += verdict == Call.BELOW
        widths.append(est.high - est.low)
    return Outcome(covered / AUDITS, failed / AUDITS, float(np.mean(widths)), passed / AUDITS)


@pytest.mark.parametrize("judge", JUDGES)
@pytest.mark.parametrize("n", [30, 60, 100])
def test_equivalent_releases_rarely_fail_and_the_interval_covers(judge, n):
    for change in (0.0, 0.04):  # no change; a change just under the limit
        out = simulate(JUDGES[judge], change, n, seed=1)
        print(f"\n{judge:>12}, true change {change:+.0%}, audit {n}: coverage {out.coverage:.3f}, "
              f"FAILED {out.fail_share:.1%}, mean width {out.mean_width:.3f}")  # fmt: skip
        assert out.coverage >= 0.94
        assert out.fail_share <= 0.05


@pytest.mark.parametrize("judge", JUDGES)
def test_real_regressions_never_pass_and_large_ones_fail_in_audits_of_sixty(judge):
    # 300 cases: the cases' own sampling error alone is about ±3 points, so a 10-point rise
    # against a 5-point limit is proven in only a share of audits of 60 (printed); the rest
    # stay undecided (NEEDS_REVIEW, "label N more"), and none PASSES in error.
    for change in (0.10, 0.20):
        out = simulate(JUDGES[judge], change, 60, seed=2)
        print(f"\n{judge:>12}, true change {change:+.0%}, audit 60: coverage {out.coverage:.3f}, "
              f"FAILED {out.fail_share:.1%}, PASSED {out.pass_share:.1%}")  # fmt: skip
        assert out.coverage >= 0.94
        assert out.pass_share <= 0.05
    # +20 points: 73-98 % (biased high 73.0 %: a change's two pseudo-disagreements each way,
    # ``CHANGE_PSEUDO``, cost it 2 points of power for its coverage of 0.94 everywhere).
    assert out.fail_share >= 0.7


@pytest.mark.parametrize("base", [0.01, 0.03])
def test_rates_near_zero_keep_their_coverage(base):
    out = simulate(JUDGES["rarely wrong"], 0.0, 30, base=base, seed=4)
    print(f"\nbase rate {base:.0%}, audit 30: coverage {out.coverage:.3f}, "
          f"width {out.mean_width:.3f}")  # fmt: skip
    assert out.coverage >= 0.94 and out.mean_width > 0


def test_ten_point_regressions_need_more_cases_than_three_hundred():
    """Issue #33 item 7 asks +10 points to FAIL in 90 % of audits of 60. At 300 cases that is
    out of reach at any audit size: the corrected change estimates the systems' change on
    the population of questions, and 300 cases alone leave a standard error of about 2.3
    points (Var(y_c − y_b) ≈ 0.16), so even every case labelled FAILS a +10-point rise
    against a 5-point limit in only about 60-65 % of audits. With 1,000 cases it takes 300
    labels for the near-perfect judge, 600 for the rarely wrong one and 800 for the one
    biased high (docs/gate.md, "Power")."""
    every = simulate(JUDGES["near-perfect"], 0.10, N_CASES, seed=5)
    print(f"\n300 cases, all labelled, +10 points: FAILED {every.fail_share:.1%}")
    assert every.fail_share < 0.9 and every.coverage >= 0.94
    for judge, n in (("near-perfect", 300), ("rarely wrong", 600), ("biased high", 800)):
        out = simulate(JUDGES[judge], 0.10, n, seed=6, cases=1000)
        print(f"{judge:>12}, 1000 cases, audit {n}, +10 points: FAILED {out.fail_share:.1%}, "
              f"coverage {out.coverage:.3f}")  # fmt: skip
        assert out.fail_share >= 0.9 and out.coverage >= 0.94
