"""'About N more cases' for a share whose interval does not shrink like 1/√n (issue #33):
Newcombe's paired interval of the abstention change and Wilson's of one system's abstention
rate, with nothing abstaining (or no case differing), are as wide as z²/(n + z²), a 1/n
width; the variance's projection assumed 1/√n and asked for far more cases than decide it,
calling a suite of 8 out of reach. The count is now read from the interval itself over more
cases of the same shares (``scoring.decide.cases_to_decide``). And Newcombe's φ carries his
own continuity correction, so cases that all agree never give a zero-width interval."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest
from halgate.inputs.policy import Policy
from halgate.models import Case, GateDecision, GateReason, JudgeSpec, Mode, RunReport, SuiteInfo
from halgate.scoring.intervals import paired_share_change
from halgate.scoring.rescore import analysis_of, rescore

from ..conftest import claim

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
