"""eval-judge names the claims it got wrong, and labels may give a claim by its text."""

from __future__ import annotations

import json

import pytest
from halgate.cli.app import app
from halgate.errors import SuiteError
from halgate.evaluation.suite_labels import load_labels
from halgate.inputs.suite import load_suite
from typer.testing import CliRunner

from ..conftest import write_jsonl


def _labels(root, *claims_of):
    """labels.jsonl with one record per (case, system, claims)."""
    rows = [{"case_id": c, "system": s, "claims": claims} for c, s, claims in claims_of]
    write_jsonl(root / "labels.jsonl", rows)


def test_a_claim_given_by_its_text_is_located_in_the_answer(tiny_suite):
    dose = "The maximum daily dose is 200 mg."
    _labels(tiny_suite, ("q1", "candidate", [{"text": dose, "verdict": "CONTRADICTED"}]))
    [label] = load_labels(tiny_suite / "labels.jsonl", load_suite(tiny_suite))
    assert (label.claims[0].start, label.claims[0].end) == (0, len(dose))


@pytest.mark.parametrize(
    ("text", "why"),
    [("The maximum daily dose is 300 mg.", "not found in the answer"), ("dose", None)],
)
def test_a_text_absent_or_standing_twice_is_an_error_naming_file_line_and_field(
    tiny_suite, text, why
):
    answers = tiny_suite / "answers" / "candidate.jsonl"
    if why is None:  # make "dose" stand twice in q1's answer
        rows = [json.loads(line) for line in answers.read_text().splitlines()]
        rows[0]["answer"] = "The dose is 200 mg; that dose is daily."
        write_jsonl(answers, rows)
        why = "stands 2 times in the answer"
    _labels(tiny_suite, ("q1", "candidate", [{"text": text, "verdict": "CONTRADICTED"}]))
    with pytest.raises(SuiteError) as err:
        load_labels(tiny_suite / "labels.jsonl", load_suite(tiny_suite))
    assert err.value.problems == [
        f"{tiny_suite / 'labels.jsonl'}:1: claims.0.text: {why}: give start and end"
    ]


def test_eval_judge_lists_missed_and_false_alarm_claims_with_ids(tiny_suite):
    # The dose really is wrong, but these labels call it fine: the judge's flag is a false
    # alarm by them. The refund sentence is labelled contradicted and the judge supports it.
    dose = {"text": "The maximum daily dose is 200 mg.", "verdict": "SUPPORTED"}
    refund = {"text": "Refunds are issued within 14 days of a return.", "verdict": "CONTRADICTED"}
    _labels(tiny_suite, ("q1", "candidate", [dose]), ("q3", "candidate", [refund]))
    runner = CliRunner()
    data = json.loads(runner.invoke(app, ["eval-judge", str(tiny_suite), "--json", "-q"]).output)
    assert [(m["claim_id"], m["expected"]) for m in data["missed"]] == [
        ("q3/candidate/0", "CONTRADICTED")
    ]
    assert [(m["claim_id"], m["expected"]) for m in data["false_alarms"]] == [
        ("q1/candidate/0", "SUPPORTED")
    ]
    text = runner.invoke(app, ["eval-judge", str(tiny_suite), "-q"]).output
    assert "missed (1)" in text and "q3/candidate/0  CONTRADICTED -> SUPPORTED" in text
    assert "false alarms (1)" in text and "q1/candidate/0  SUPPORTED -> " in text
