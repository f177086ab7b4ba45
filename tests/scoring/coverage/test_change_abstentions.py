"""The corrected change when answers abstain (issue #33 items 4 and 7): pairing kept over the
cases either system rates (``scoring.corrected.paired_change``), against the independent
fallback the change used before as soon as one answer on either side was not rated.

Each audit draws a release pair of 300 cases with known truth and a judge as in
``test_gate_simulation`` (biased high, rarely wrong, near-perfect), then leaves answers out
of a system's rate: abstentions on 2 % or 10 % of cases (one side or both), and 1 % more
answers without a countable claim on each side. Leaving out is twice as likely where the
system's answer is hallucinated (a model refuses where it is unsure), so the rates over the
rated answers, and the true change the interval must cover, differ from the drawn ones: the
true change is the population's, measured once per scenario on 2,000,000 cases. The audit
is a simple random sample of n cases of U (rated by either side), labelled with the truth
where rated, read at the first look's level (``looks``). The old fallback (two per-system
PPI++ estimates, variances added, ``corrected._independent``) is computed on the same audit.

Checked for n = 30, 60, 100: the paired interval covers the true change in ≥ 94 % of audits,
an equivalent release (true change ≤ the 5-point limit) FAILS in ≤ 5 %, and the paired
interval is narrower on average than the independent one (widths printed with -s).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.scoring.corrected import normal_interval, paired_change, ppi_mean
from halgate.scoring.decide import Call, RuleEvidence, call
from halgate.scoring.intervals import t_quantile
from halgate.scoring.looks import level_at

from ..test_gate_simulation import JUDGES, Judge, _read, _truth

N_CASES = 300
AUDITS = 400
LIMIT = 0.05
POLICY = Policy()
NO_CLAIMS = 0.01  # answers without a countable claim, apart from the abstentions
SCENARIOS = {  # (baseline, candidate) abstention shares
    "candidate 2 %": (0.0, 0.02),
    "candidate 10 %": (0.0, 0.10),
    "both 2 %": (0.02, 0.02),
    "both 10 %": (0.10, 0.10),
}


class Outcome(NamedTuple):
    coverage: float
    fail_share: float
    width: float
    old_coverage: float
    old_width: float


def _rated(rng: np.random.Generator, truth: np.ndarray, abstain: float) -> np.ndarray:
    """Which answers the rate counts: left out at ``abstain + NO_CLAIMS``, twice that where
    the answer is hallucinated."""
    out = (abstain + NO_CLAIMS) * np.where(truth == 1, 2.0, 1.0)
    return rng.random(len(truth)) >= out


@lru_cache
def true_change(change: float, shares: tuple[float, float], seed: int = 99) -> float:
    """The population's change of the rates over rated answers (2,000,000 cases)."""
    rng = np.random.default_rng(seed)
    tb, tc = _truth(rng, change, 0.12, 2_000_000)
    rb, rc = _rated(rng, tb, shares[0]), _rated(rng, tc, shares[1])
    return float(tc[rc].mean() - tb[rb].mean())


def _independent(f, y, rated, labelled, first: int, total: int) -> tuple[float, float, float]:
    """The old fallback: each system's PPI++ rate on its own rated cases, variances added."""
    parts = []
    for s in (0, 1):
        mine = labelled[rated[s][labelled]]
        level = level_at(POLICY.confidence, first, total, len(mine))
        parts.append((ppi_mean(f[s][rated[s]], f[s][mine], y[s][mine], level), len(mine)))
    (b, nb), (c, nc) = parts
    assert b.std_error is not None and c.std_error is not None
    assert b.estimate is not None and c.estimate is not None
    n = min(nb, nc)
    q = t_quantile(level_at(POLICY.confidence, first, total, n), n - 1)
    se = math.hypot(b.std_error, c.std_error)
    low, high = normal_interval(c.estimate - b.estimate, se, q, (-1.0, 1.0))
    return c.estimate - b.estimate, low, high


def simulate(judge: Judge, change: float, n: int, shares: tuple[float, float]) -> Outcome:
    target = true_change(change, shares)
    covered = failed = old_covered = 0
    widths, old_widths = [], []
    for audit in range(AUDITS):
        rng = np.random.default_rng(
            [7, audit, n, int(change * 100), *(int(s * 100) for s in shares)]
        )
        tb, tc = _truth(rng, change, 0.12, N_CASES)
        fb = _read(rng, tb, judge.recall, judge.false_alarms_baseline)
        fc = _read(rng, tc, judge.recall, judge.false_alarms_candidate)
        rb, rc = _rated(rng, tb, shares[0]), _rated(rng, tc, shares[1])
        union = np.flatnonzero(rb | rc)  # U: the cases the audit draws from
        rb, rc, fb, fc, tb, tc = rb[union], rc[union], fb[union], fc[union], tb[union], tc[union]
        labelled = rng.choice(len(union), n, replace=False)
        level = level_at(POLICY.confidence, n, len(union), n)  # the first look
        est = paired_change(
            np.where(rb, fb, np.nan), np.where(rc, fc, np.nan),
            np.where(rb, tb, np.nan)[labelled], np.where(rc, tc, np.nan)[labelled],
            labelled, level,
        )  # fmt: skip
        assert est.low is not None and est.high is not None and est.estimate is not None
        covered += est.low <= target <= est.high
        verdict = call(RuleEvidence(est.estimate, est.low, est.high, n, True), LIMIT, POLICY)
        failed += verdict == Call.ABOVE
        widths.append(est.high - est.low)
        _, low, high = _independent((fb, fc), (tb, tc), (rb, rc), labelled, n, len(union))
        old_covered += low <= target <= high
        old_widths.append(high - low)
    return Outcome(
        covered / AUDITS,
        failed / AUDITS,
        float(np.mean(widths)),
        old_covered / AUDITS,
        float(np.mean(old_widths)),
    )


@pytest.mark.parametrize("judge", JUDGES)
@pytest.mark.parametrize("n", [30, 60, 100])
def test_pairing_kept_when_answers_abstain_covers_and_is_narrower(judge, n):
    for name, shares in SCENARIOS.items():
        for change in (0.0, 0.04):
            out = simulate(JUDGES[judge], change, n, shares)
            target = true_change(change, shares)
            print(f"\n{judge:>12}, {name:>14} abstain, change {target:+.3f}, audit {n}: "
                  f"coverage {out.coverage:.3f} (independent {out.old_coverage:.3f}), FAILED "
                  f"{out.fail_share:.1%}, width {out.width:.3f} (independent "
                  f"{out.old_width:.3f})")  # fmt: skip
            assert out.coverage >= 0.94
            assert target > LIMIT or out.fail_share <= 0.05
            assert out.width < out.old_width
