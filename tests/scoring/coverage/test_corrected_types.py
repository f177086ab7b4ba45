"""The corrected claim-type rates (``scoring.corrected_types``): coverage by simulation, and
what each audit label does to an answer's count.

Simulation: 300 answers of 1-9 claims; 15 % (or 3 %) truly hallucinated, with one or two
hallucinated claims, each of the type with probability 0.5. The judge finds a truly
hallucinated answer with its recall (and then its types right: the estimator's stated
assumption), misses the rest, and raises false alarms of the type on faithful answers. A
random audit of n answers is labelled with the truth; the target is the population rate
E[y] / E[m]. Checked: the interval covers it in at least 94 % of audits, and never has zero
width.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.models import AuditInput
from halgate.scoring.corrected_types import corrected_type_rate, ppi_ratio, span_interval
from halgate.scoring.intervals import t_quantile
from halgate.scoring.looks import level_at

from ...conftest import claim
from ..conftest import analysis

N = 300
AUDITS = 400
CLAIMS_MEAN = 5.0


class TypeJudge(NamedTuple):
    recall: float
    false_alarms: float  # share of faithful answers given one false claim of the type


JUDGES = {
    "biased high": TypeJudge(0.85, 0.19),
    "rarely wrong": TypeJudge(0.95, 0.03),
    "near-perfect": TypeJudge(0.995, 0.005),
}


def _population_rate(base: float) -> float:
    """E[y] / E[m]: hallucinated answers hold 1.3 claims of which half are of the type."""
    return base * 1.3 * 0.5 / CLAIMS_MEAN


def simulate(judge: TypeJudge, n: int, base: float, seed: int) -> tuple[float, float, float]:
    """Coverage of the population rate, mean width, smallest width."""
    covered, widths = 0, []
    truth = _population_rate(base)
    for k in range(AUDITS):
        rng = np.random.default_rng([seed, k])
        m = rng.integers(1, 10, N).astype(float)  # mean 5
        bad = rng.random(N) < base
        hits = 1 + (rng.random(N) < 0.3)
        y = np.where(bad, rng.binomial(hits, 0.5), 0).astype(float)
        found = bad & (rng.random(N) < judge.recall)
        alarm = ~bad & (rng.random(N) < judge.false_alarms)
        f = np.where(found, y, 0) + alarm
        labelled = rng.choice(N, n, replace=False)
        missed = bad[labelled] & ~found[labelled]
        level = level_at(0.95, n, N, n)
        low = ppi_ratio(f, m, labelled, y[labelled] * ~missed)
        high = ppi_ratio(f, m, labelled, y[labelled] * ~missed + missed)
        lo, hi = span_interval(low, high, t_quantile(level, n - 1))
        assert lo is not None and hi is not None
        covered += lo <= truth <= hi
        widths.append(hi - lo)
    return covered / AUDITS, float(np.mean(widths)), float(np.min(widths))


@pytest.mark.parametrize("judge", JUDGES)
@pytest.mark.parametrize("n", [30, 60, 100])
def test_the_corrected_type_rate_covers_the_truth(judge, n):
    cov, width, smallest = simulate(JUDGES[judge], n, 0.15, seed=n)
    print(f"\n{judge:>12}, audit {n}: coverage {cov:.3f}, mean width {width:.3f}")
    assert cov >= 0.94
    assert smallest > 0


@pytest.mark.parametrize("base", [0.01, 0.03])
def test_rates_near_zero_keep_their_coverage(base):
    cov, width, smallest = simulate(JUDGES["rarely wrong"], 30, base, seed=7)
    print(f"\nbase {base:.0%}, audit 30: coverage {cov:.3f}, mean width {width:.3f}")
    assert cov >= 0.94 and smallest > 0


FAB = claim("UNSUPPORTED", "FABRICATION")
OK = claim("SUPPORTED")


def test_each_label_sets_the_answers_count():
    # q0: judge flags a fabrication, reviewer says FAITHFUL -> 0;
    # q1: judge flags one, reviewer agrees -> 1;
    # q2: judge finds nothing, reviewer flags it -> unknown type (0 to 1);
    # q3-q9: clean answers, labelled FAITHFUL.
    answers = [analysis("q0", "s", [FAB, OK]), analysis("q1", "s", [FAB, OK]),
               analysis("q2", "s", [OK, OK])]  # fmt: skip
    answers += [analysis(f"q{i}", "s", [OK, OK]) for i in range(3, 10)]
    labels = {f"q{i}": False for i in range(10)} | {"q1": True, "q2": True}
    audit = AuditInput(sample={"s": [f"q{i}" for i in range(10)]}, labels={"s": labels})
    policy = Policy(audit_sample=10)
    r = corrected_type_rate(answers, [], "s", "fabrication", policy, audit)
    assert r.judge_rate == pytest.approx(2 / 20)
    assert r.n_unknown == 1 and r.n_labelled == 10 and r.complete
    # every answer labelled: the counts are 0 + 1 + (0 or 1) of 20 claims
    assert r.estimate == pytest.approx(1.5 / 20)
    assert r.ci_low is not None and r.ci_high is not None
    assert r.ci_low < 1 / 20 and r.ci_high > 2 / 20


def test_no_labels_no_interval():
    answers = [analysis(f"q{i}", "s", [FAB, OK]) for i in range(4)]
    audit = AuditInput(sample={"s": ["q0", "q1"]}, labels={"s": {"q0": True}})
    r = corrected_type_rate(answers, [], "s", "contradiction", Policy(audit_sample=2), audit)
    assert r.ci_low is None and r.ci_high is None and not r.complete
    assert r.judge_rate == 0.0 and r.estimate == 0.0
