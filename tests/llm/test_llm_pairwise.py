"""Pairwise mode: judged in both orders, disagreement goes to a person, gate rules apply."""

from __future__ import annotations

import json

import jsonschema
import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.pairwise import OrderVerdict, combine_swapped, prefer_by_claims
from halgate.judges.protocol import JudgeResult, JudgeTask
from halgate.judges.registry import create_judge
from halgate.models import Case, GateStatus, JudgeSpec, Mode, Preference
from halgate.reports.json_report import report_to_json
from halgate.reports.schemas import load_schema
from halgate.run.engine import run_suite
from halgate.run.pairwise import pairwise_from_results
from halgate.scoring.pairwise_gate import review_id
from halgate.scoring.rescore import rescore

from ..conftest import TINY_CASES

KEY = "sk-pairwise-test-key-000000000000"
Q1 = TINY_CASES[0]["question"]


pytestmark = pytest.mark.usefixtures("isolated_llm_env")


def llm(fake, tmp_path, **options):
    return create_judge(
        "llm", base_url=fake.url, api_key=KEY, db=str(tmp_path / "h.db"), mode="pairwise", **options
    )


def test_position_biased_judge_disagrees_with_itself_and_pairs_go_to_review(
    tiny_suite, fake_openai, tmp_path
):
    fake_openai.mode = "prefer-a"  # always prefers whatever is shown first
    report = run_suite(
        load_suite(tiny_suite), llm(fake_openai, tmp_path), Policy(), mode=Mode.PAIRWISE
    )
    jsonschema.validate(json.loads(report_to_json(report)), load_schema("run_report"))
    assert len(fake_openai.completions()) == 6  # every case judged twice
    # Both orders were asked (requests run concurrently, so in either sequence).
    orders = sorted(
        r.user.index("maximum daily dose is 100 mg.\n</answer>") < r.user.index("200 mg")
        for r in fake_openai.completions()
        if Q1 in r.user
    )
    assert orders == [False, True]
    pairs = {p.case_id: p for p in report.pairwise}
    assert pairs["q1"].disagreement and pairs["q1"].needs_review
    assert pairs["q1"].preference == Preference.TIE
    assert pairs["q1"].swapped_preference == Preference.B
    assert report.decision.status == GateStatus.NEEDS_REVIEW
    assert review_id("q1") in report.decision.pending_review
    assert report.judge.prompt_version == "pairwise-v2"


def test_consistent_judge_prefers_the_factual_baseline_and_the_gate_fails(
    tiny_suite, fake_openai, tmp_path
):
    policy = Policy(decide_on="estimate")  # three pairs: no interval could decide
    report = run_suite(
        load_suite(tiny_suite), llm(fake_openai, tmp_path), policy, mode=Mode.PAIRWISE
    )
    pairs = {p.case_id: p for p in report.pairwise}
    assert pairs["q1"].preference == Preference.A and not pairs["q1"].disagreement
    assert pairs["q3"].preference == Preference.TIE  # identical answers
    reason = next(r for r in report.decision.reasons if r.rule == "pairwise_preference")
    wins = [p.preference for p in report.pairwise]
    share = (wins.count(Preference.A) - wins.count(Preference.B)) / 3
    assert reason.status == GateStatus.FAILED and reason.observed == pytest.approx(share, abs=1e-3)
    assert report.decision.status == GateStatus.FAILED
    # rescoring (as the store does after overrides) keeps the pairwise rules
    assert rescore(report).decision == report.decision
    assert rescore(report, reviewed={review_id("q1")}).decision.status == GateStatus.FAILED


def test_broken_pairwise_reply_is_a_harness_error(tiny_suite, fake_openai, tmp_path):
    fake_openai.script("reply", match=Q1, times=None, content='{"preference": "C"}')
    report = run_suite(
        load_suite(tiny_suite), llm(fake_openai, tmp_path), Policy(), mode=Mode.PAIRWISE
    )
    pairs = {p.case_id: p for p in report.pairwise}
    assert pairs["q1"].error and pairs["q1"].needs_review
    assert report.decision.status == GateStatus.HARNESS_ERROR
    assert pairs["q2"].error is None


def test_low_confidence_preference_needs_review():
    first = OrderVerdict(Preference.A, "A is better.", 0.55)
    swapped = OrderVerdict(Preference.B, "B (shown first) is worse.", 0.9)
    p = combine_swapped("c", "base", "cand", first, swapped, min_confidence=0.6)
    assert not p.disagreement and p.needs_review and p.preference == Preference.A


# --------------------------------------------------------------------------- offline pairwise


@pytest.mark.parametrize(
    "a, b, expected, breaker",
    [
        ([("SUPPORTED", None)], [("CONTRADICTED", "CRITICAL")], Preference.A, None),
        ([("UNSUPPORTED", "LOW")], [("UNSUPPORTED", "HIGH")], Preference.A, None),
        (
            [("SUPPORTED", None)],
            [("PARTIALLY_SUPPORTED", None)],
            Preference.A,
            "higher_consistency",
        ),
        ([("SUPPORTED", None)], [("SUPPORTED", None)], Preference.TIE, None),
        (None, [("SUPPORTED", None)], Preference.B, "other_output_empty"),
    ],
)
def test_offline_preference_from_claims(make_claim, a, b, expected, breaker):
    def claims(spec):
        return None if spec is None else [make_claim(v, severity=s) for v, s in spec]

    verdict = prefer_by_claims(claims(a), claims(b), Policy())
    assert verdict.preference == expected and verdict.tie_breaker == breaker


class ClaimsOnlyJudge:
    """A judge without a pairwise method: the engine derives preferences from its claims."""

    spec = JudgeSpec(name="stub")

    def __init__(self, make_claim):
        self.make_claim = make_claim

    def judge(self, tasks, progress=None):
        out = []
        for t in tasks:
            bad = "CONTRADICTED" if t.case.case_id == "q1" else "SUPPORTED"
            res = JudgeResult(
                case_id=t.case.case_id,
                claims={
                    "baseline": [
                        self.make_claim("SUPPORTED", case_id=t.case.case_id, system="baseline")
                    ],
                    "candidate": [
                        self.make_claim(
                            bad,
                            severity="HIGH" if bad != "SUPPORTED" else None,
                            case_id=t.case.case_id,
                            system="candidate",
                        )
                    ],
                },
            )
            out.append(res)
        return out


def test_engine_derives_pairwise_for_a_claims_only_judge(tiny_suite, make_claim):
    report = run_suite(
        load_suite(tiny_suite), ClaimsOnlyJudge(make_claim), Policy(), mode=Mode.PAIRWISE
    )
    pairs = {p.case_id: p for p in report.pairwise}
    assert pairs["q1"].preference == Preference.A
    assert pairs["q1"].swapped_preference == Preference.A  # symmetry checked in both orders
    assert pairs["q2"].preference == Preference.TIE and not pairs["q2"].needs_review
    assert report.analyses and all(a.claims for a in report.analyses)


def test_pairwise_from_results_records_judge_failures(make_claim):
    case = Case(case_id="c", question="?")
    task = JudgeTask(case=case, documents=[], answers={"a": "x", "b": "y"})
    res = JudgeResult(case_id="c", errors={"a": "boom"})
    (p,) = pairwise_from_results([task], [res], ["a", "b"], Policy())
    assert p.error == "boom" and p.needs_review
