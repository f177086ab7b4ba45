"""Abstentions are an outcome: counted per system, gated, never a silent gap in a rate."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from halgate.inputs.policy import Policy
from halgate.models import Case, GateStatus
from halgate.scoring.abstention import abstention_of, answer_problem, is_refusal_only
from halgate.scoring.compare import compare_systems
from halgate.scoring.gate import decide
from halgate.scoring.metrics import system_rates

from ..conftest import EXAMPLE_SUITE, claim
from .conftest import analysis


@pytest.mark.parametrize(
    "text",
    [
        "I'm sorry, I can't help with that.",
        "Unable to answer based on given passages",
        "I don't know.",
        "The passages do not mention the dose.",
        "Sorry. I am unable to answer that. Can I help with something else?",
    ],
)
def test_refusals_are_recognised(text):
    assert is_refusal_only(text)
    assert abstention_of(text, [claim("SUPPORTED")]) == "refusal"


@pytest.mark.parametrize(
    "text",
    [
        "Unfortunately, refunds are not possible for opened software.",
        "I'm sorry, but opened software cannot be refunded.",
        "We don't have stores in France.",
        "The maximum dose is 100 mg. I do not know about children.",
    ],
)
def test_answers_that_say_something_are_not_refusals(text):
    assert not is_refusal_only(text)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "empty output"),
        ("  \n", "empty output"),
        ("1234 !!!", "output contains no words (nonsense)"),
        ("xkcd qwrt zzzp lorem", "output is gibberish (nonsense)"),
        ("asdf 1234 !!!", "output is gibberish (nonsense)"),
        ("The dose is 100 mg.", None),
        ("Use the PDF form.", None),
        ("No.", None),
    ],
)
def test_empty_and_nonsense(text, problem):
    assert answer_problem(text) == problem


CASES = [Case(case_id=f"c{i}", question="q", doc_ids=["d"]) for i in range(6)] + [
    Case(case_id="s0", question="q", doc_ids=["d"], tags=["should-abstain"])
]


def test_abstentions_are_left_out_of_hallucination_rates_and_counted_apart():
    bad, ok = [claim("UNSUPPORTED", "FABRICATION", "LOW")], [claim("SUPPORTED")]
    analyses = [
        analysis("c0", "x", bad),
        analysis("c1", "x", ok),
        analysis("c2", "x", [], abstention="empty output"),
        analysis("c3", "x", [], abstention="refusal"),
        analysis("s0", "x", []),  # abstaining on a should-abstain case: correct, rated clean
    ]
    r = system_rates(analyses, "x", cases=CASES)
    assert r.answer_level_rate == pytest.approx(1 / 3)  # c0 of c0, c1, s0
    assert r.n_abstained == 2 and r.n_expected_answers == 4 and r.abstention_rate == 0.5
    assert r.abstention_reasons == {"empty output": 1, "refusal": 1}
    assert r.micro_rate == 0.5 and r.answer_level_interval.method == "wilson"
    # Answering a should-abstain case with claims counts as an answer with a hallucination.
    r2 = system_rates([analysis("s0", "x", ok)], "x", cases=CASES)
    assert r2.answer_level_rate == 1.0 and r2.n_should_abstain_answered == 1


def _gate(cand_claims, policy=None):
    policy = policy or Policy(
        require_review_before_pass=False, max_fabrication_rate=None, decide_on="estimate"
    )  # six cases: the point-estimate rule, so the test is about which measure fires
    analyses = []
    for i in range(6):
        analyses.append(analysis(f"c{i}", "baseline", [claim("SUPPORTED")]))
        cs = cand_claims.get(i, [claim("SUPPORTED")])
        analyses.append(analysis(f"c{i}", "candidate", cs, abstention=None if cs else "refusal"))
    cases = CASES[:6]
    cmp = compare_systems(analyses, cases, "baseline", "candidate", policy)
    rates = system_rates(analyses, "candidate", cases=cases)
    return cmp, decide(analyses, cases, policy, "candidate", rates, cmp)


def test_abstaining_more_fails_the_gate_naming_the_measure():
    cmp, d = _gate({0: [], 1: []})
    assert cmp.abstention_change.estimate == pytest.approx(2 / 6)
    reason = next(r for r in d.reasons if r.rule == "max_abstention_increase")
    assert d.status == GateStatus.FAILED and reason.status == GateStatus.FAILED
    assert "abstentions" in reason.message and "95% CI" in reason.message


def test_refusing_everything_fails():
    _, d = _gate({i: [] for i in range(6)})
    failed = {r.rule for r in d.reasons if r.status == GateStatus.FAILED}
    assert {"answers_measured", "max_abstention_increase"} <= failed


def test_gate_on_picks_the_measure_and_regression_needs_its_interval_above_zero():
    cs = [claim("UNSUPPORTED", "DISTORTION", "LOW")] + [claim("SUPPORTED")] * 9
    cmp, d = _gate({0: cs})
    assert cmp.gated_measure == "answers" and cmp.gated_change() == cmp.answer_rate_change
    assert cmp.answer_rate_change.estimate == pytest.approx(1 / 6)
    assert "answers with a hallucination" in next(
        r.message for r in d.reasons if r.rule == "max_rate_increase"
    )
    assert not cmp.regression_detected  # one case in six: the interval reaches zero
    cmp2, d2 = _gate({0: cs}, Policy(gate_on="claims", require_review_before_pass=False))
    assert cmp2.gated_change() == cmp2.rate_change
    assert "claims hallucinated" in next(
        r.message for r in d2.reasons if r.rule == "max_rate_increase"
    )


def test_new_type_alone_is_not_a_regression():
    cmp, _ = _gate({0: [claim("UNSUPPORTED", "FABRICATION", "LOW")] + [claim("SUPPORTED")] * 30})
    assert cmp.new_hallucination_types and not cmp.regression_detected


def test_severity_block_is_a_regression():
    cmp, _ = _gate(
        {0: [claim("CONTRADICTED", "DISTORTION", "CRITICAL")] + [claim("SUPPORTED")] * 30}
    )
    assert cmp.regression_detected


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "halgate.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_refusing_candidate_fails_from_the_cli_with_abstentions_reported(tmp_path):
    suite = tmp_path / "suite"
    shutil.copytree(EXAMPLE_SUITE, suite)
    path = suite / "answers" / "candidate.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for row in rows:
        row["answer"] = "I'm sorry, I can't help with that."
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    res = _cli("run", str(suite), "--no-save", "-q", "--judge", "offline")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "[FAILED] max_abstention_increase" in res.stdout
    assert "Abstentions" in res.stdout


def test_suite_with_no_cases_is_bad_input(tmp_path):
    suite = tmp_path / "empty"
    (suite / "answers").mkdir(parents=True)
    for name in (
        "documents.jsonl",
        "cases.jsonl",
        "answers/baseline.jsonl",
        "answers/candidate.jsonl",
    ):
        (suite / name).write_text("")
    res = _cli("run", str(suite), "--no-save", "-q", "--judge", "offline")
    assert res.returncode == 4, res.stdout + res.stderr
    assert "no cases" in res.stderr and str(suite) in res.stderr
