"""The abstention change's interval (Newcombe's paired one, ``scoring.compare``): coverage by
simulation, decisions against ``max_abstention_increase``, and pairing kept when one side
abstains.

Simulation: n cases; the baseline abstains on each with probability p; the candidate keeps
the baseline's outcome on 80 % of cases and draws afresh on the rest, then abstains on more
cases so that its rate rises by the true change (in expectation). Checked at 45, 100 and 300
cases: the interval covers the true change in at least 94 % of draws, never has zero width,
an equivalent release (true change 0 or just under the 5-point limit) FAILS in at most 2.5 %
of draws, and a real rise is never PASSED.
"""

from __future__ import annotations

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.models import Case
from halgate.scoring.compare import compare_systems
from halgate.scoring.decide import Call, RuleEvidence, call
from halgate.scoring.intervals import paired_share_change

from ...conftest import claim
from ..conftest import analysis

DRAWS = 1500  # Monte Carlo sd of a 0.95 coverage: 0.006
LIMIT = 0.05
POLICY = Policy()


def _draw(rng: np.random.Generator, n: int, p: float, change: float):
    base = rng.random(n) < p
    cand = np.where(rng.random(n) < 0.8, base, rng.random(n) < p)
    cand |= rng.random(n) < change / (1 - p)
    return [(int(b), 1) for b in base], [(int(c), 1) for c in cand]


def simulate(n: int, p: float, change: float, seed: int, draws: int = DRAWS) -> dict[str, float]:
    rng = np.random.default_rng([seed, n, int(p * 100), int(change * 100)])
    covered = failed = passed = zero = 0
    for _ in range(draws):
        b, c = _draw(rng, n, p, change)
        ends = paired_share_change(b, c)
        assert ends is not None
        low, high = ends
        covered += low <= change <= high
        zero += high - low <= 0
        est = (sum(x for x, _ in c) - sum(x for x, _ in b)) / n
        verdict = call(RuleEvidence(est, low, high, n), LIMIT, POLICY)
        failed += verdict == Call.ABOVE
        passed += verdict == Call.BELOW
    return {"coverage": covered / draws, "fail": failed / draws, "pass": passed / draws,
            "zero": zero / draws}  # fmt: skip


@pytest.mark.parametrize("n", [45, 100, 300])
@pytest.mark.parametrize("p", [0.0, 0.02, 0.10])
def test_equivalent_releases_are_covered_and_rarely_fail(n, p):
    for change in (0.0, 0.04):
        out = simulate(n, p, change, seed=1)
        print(f"\n{n} cases, base {p:.0%}, change {change:+.0%}: coverage {out['coverage']:.3f}, "
              f"FAILED {out['fail']:.1%}, PASSED {out['pass']:.1%}")  # fmt: skip
        assert out["coverage"] >= 0.94 and out["zero"] == 0
        assert out["fail"] <= 0.025


@pytest.mark.parametrize("n", [45, 100, 300])
def test_real_rises_are_covered_and_never_pass(n):
    for change in (0.10, 0.20):
        out = simulate(n, 0.05, change, seed=2, draws=3000)  # true coverage 0.950-0.954
        print(f"\n{n} cases, change {change:+.0%}: coverage {out['coverage']:.3f}, "
              f"FAILED {out['fail']:.1%}, PASSED {out['pass']:.1%}")  # fmt: skip
        assert out["coverage"] >= 0.94 and out["pass"] <= 0.025


def test_the_comparison_keeps_pairing_when_one_side_abstains():
    # 10 cases; the candidate refuses on 2 of them: paired over all 10, not 8
    cases = [Case(case_id=f"c{i}", question="q") for i in range(10)]
    answers = [analysis(f"c{i}", "baseline", [claim("SUPPORTED")]) for i in range(10)]
    answers += [
        analysis(f"c{i}", "candidate", [] if i < 2 else [claim("SUPPORTED")],
                 abstention="refusal" if i < 2 else None)
        for i in range(10)
    ]  # fmt: skip
    cmp = compare_systems(answers, cases, "baseline", "candidate", POLICY)
    ab = cmp.abstention_change
    assert ab is not None and ab.method == "newcombe" and ab.n_cases == 10
    assert ab.estimate == pytest.approx(0.2)
    expected = paired_share_change([(0, 1)] * 10, [(1, 1)] * 2 + [(0, 1)] * 8)
    assert expected is not None and (ab.ci_low, ab.ci_high) == pytest.approx(expected)
    assert ab.ci_low < 0.2 < ab.ci_high and ab.ci_high - ab.ci_low > 0.2


def test_no_abstention_on_either_side_is_not_a_zero_width_change():
    cases = [Case(case_id=f"c{i}", question="q") for i in range(45)]
    answers = [analysis(c.case_id, s, [claim("SUPPORTED")]) for c in cases
               for s in ("baseline", "candidate")]  # fmt: skip
    ab = compare_systems(answers, cases, "baseline", "candidate", POLICY).abstention_change
    assert ab is not None and ab.estimate == 0.0
    assert (ab.ci_low, ab.ci_high) == pytest.approx((-0.0787, 0.0787), abs=1e-3)
