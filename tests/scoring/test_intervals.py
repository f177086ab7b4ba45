"""The 95% intervals halgate prints cover the truth about 95% of the time (simulated)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.models import (
    Case,
    GateDecision,
    GateReason,
    Interval,
    JudgeSpec,
    Mode,
    RunReport,
    SuiteInfo,
)
from halgate.scoring.intervals import cluster_interval, paired_share_change, with_pooled_floor
from halgate.scoring.metrics import bootstrap_interval, paired_bootstrap, wilson_interval
from halgate.scoring.rescore import analysis_of, rescore

from ..conftest import claim

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


# 'About N more cases' for a share whose interval does not shrink like 1/√n (issue #33):
# Newcombe's paired interval of the abstention change and Wilson's of one system's abstention
# rate, with nothing abstaining (or no case differing), are as wide as z²/(n + z²), a 1/n
# width; the variance's projection assumed 1/√n and asked for far more cases than decide it,
# calling a suite of 8 out of reach. The count is now read from the interval itself over more
# cases of the same shares (``scoring.decide.cases_to_decide``). And Newcombe's φ carries his
# own continuity correction, so cases that all agree never give a zero-width interval.

Z = NormalDist().inv_cdf(0.975)


def _reasons(n: int) -> dict[str, GateReason]:
    """A compare run of ``n`` cases, both systems answering every one (nothing abstains),
    gated on abstentions only: the change and the candidate's rate against 5 points."""
    policy = Policy(
        block_on_severity=None, max_contradiction_rate=None, max_fabrication_rate=None,
        max_hallucination_rate=None, max_rate_increase=1.0, max_abstention_increase=0.05,
        max_abstention_rate=0.05, require_review_before_pass=False,
    )  # fmt: skip
    cases = [Case(case_id=f"k{i}", question="q") for i in range(n)]
    systems = ["baseline", "candidate"]
    analyses = [
        analysis_of(c.case_id, s, [claim("SUPPORTED", case_id=c.case_id, system=s)], policy)
        for c in cases
        for s in systems
    ]
    report = RunReport(
        run_id="20260110T000000Z-cccccc", created_at="2026-01-10T00:00:00+00:00",
        mode=Mode.COMPARE, judge=JudgeSpec(name="fixture"), policy=policy.model_dump(mode="json"),
        suite=SuiteInfo(name="s", path="s", content_hash="0" * 64, n_cases=n, systems=[]),
        systems=systems, cases=cases, documents=[], analyses=analyses, rates={},
        answers={s: {c.case_id: "It opens at nine." for c in cases} for s in systems},
        decision=GateDecision(status="PASSED", exit_code=0, reasons=[], gated_system="candidate"),
    )  # fmt: skip
    return {r.rule: r for r in rescore(report).decision.reasons}


@pytest.mark.parametrize(("n", "more"), [(8, 65), (45, 28)])
def test_about_n_more_cases_is_read_from_the_interval_when_nothing_differs(n, more):
    # by hand: 0 of n on both sides, Newcombe's interval is ±z²/(n + z²) (the Wilson upper
    # end of 0 of n); it lies within 5 points once z²/(n' + z²) <= 0.05, n' >= 19·z² =
    # 72.99: 73 cases, so 73 − n more. The variance's projection, n·(half / gap)² − n,
    # asked for 329 more at 8 (over 10× the 8: "no realistic number") and 67 at 45
    assert math.ceil(19 * Z**2) == 73 and 73 - n == more
    reasons = _reasons(n)
    change = reasons["max_abstention_increase"]
    assert change.status.value == "NEEDS_REVIEW" and change.more_to_decide == more
    assert change.message.endswith(f"undecided: about {more} more cases would decide")
    # the candidate's own abstention rate, Wilson's 0 to z²/(n + z²): the same count (the
    # variance's projection asked for 77 more at 8)
    rate = reasons["max_abstention_rate"]
    assert rate.more_to_decide == more and f"about {more} more cases" in rate.message


def test_cases_that_all_agree_at_a_share_of_one_half_give_no_zero_width():
    # 20 cases, both sides abstain on the same 10: no case differs. Newcombe's φ without his
    # correction is 1 and both Wilson halves are equal, so the interval had zero width
    # (0.0, 0.0); with it φ = (10·10 − 20/2) / (10·10) = 0.9 and the half width is the
    # Wilson half width of 10 of 20 times √(2·(1 − 0.9))
    same = [(1, 1)] * 10 + [(0, 1)] * 10
    wilson_half = Z * math.sqrt(0.25 / 20 + Z**2 / 1600) / (1 + Z**2 / 20)
    half = wilson_half * math.sqrt(2 * (1 - 0.9))
    assert paired_share_change(same, same) == pytest.approx((-half, half), abs=1e-9)
    assert half == pytest.approx(0.0898, abs=1e-4)
