"""A suite in a new domain (boat hire: safety rules, an exception, prices, a date), judged for
real: the faithful baseline raises no CRITICAL claim, every inverted safety rule and dropped
exception is caught and queued, and one inversion alone fails the gate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.registry import create_judge
from halgate.models import GateStatus, Mode, RunReport, Severity, Verdict
from halgate.run.engine import run_suite
from halgate.scoring.gate import review_queue

SUITE = Path(__file__).parents[1] / "suites" / "lakeside-boats"

#: (case, the candidate's changed answer): safety rules inverted, exceptions dropped.
INVERTED_SAFETY = [
    ("sf-001", "No. Children under 12 do not have to wear a life jacket on board."),
    ("sf-002", "You can operate the boat after sunset."),
    ("sf-003", "Yes, swimming from the boat is allowed."),
]
DROPPED_EXCEPTION = [
    ("pr-002", "The deposit of €200 is refunded in full."),
    ("pr-003", "Rentals can be cancelled free of charge."),
]


def run_with(tmp_path: Path, case_id: str | None = None, answer: str | None = None) -> RunReport:
    """The suite run in compare mode with the candidate's answer to ``case_id`` replaced."""
    folder = tmp_path / "suite"
    shutil.copytree(SUITE, folder)
    path = folder / "answers" / "candidate.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        if row["case_id"] == case_id:
            row["answer"] = answer
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return run_suite(load_suite(folder), create_judge("offline"), Policy(), Mode.COMPARE)


def claims_of(report: RunReport, system: str, case_id: str):
    return next(a for a in report.analyses if a.system == system and a.case_id == case_id).claims


def test_the_faithful_answers_raise_no_critical_claim_and_pass(tmp_path):
    report = run_with(tmp_path)
    severities = [c.severity for a in report.analyses for c in a.claims]
    assert Severity.CRITICAL not in severities
    # 0 fabricated or contradicting claims in 8 is not proof of rates under 10% and 5% (Wilson
    # up to 32%): those two rules wait for more claims; nor is no abstention on either side in
    # a few cases proof of a change under 5 points (Newcombe's paired interval): that rule
    # waits for more cases; nothing fails and every other rule passes
    waiting = {r.rule for r in report.decision.reasons if r.status != GateStatus.PASSED}
    assert report.decision.status == GateStatus.NEEDS_REVIEW
    assert waiting == {"max_fabrication_rate", "max_contradiction_rate", "max_abstention_increase"}


@pytest.mark.parametrize(("case_id", "answer"), INVERTED_SAFETY + DROPPED_EXCEPTION)
def test_each_inversion_and_dropped_exception_is_caught_and_queued(tmp_path, case_id, answer):
    report = run_with(tmp_path, case_id, answer)
    changed = claims_of(report, "candidate", case_id)
    assert any(c.verdict != Verdict.SUPPORTED for c in changed), [c.rationale for c in changed]
    queued = {
        c.claim_id for c in review_queue(report.analyses, report.cases, Policy(), "candidate")
    }
    assert any(c.claim_id in queued for c in changed if c.verdict != Verdict.SUPPORTED)


@pytest.mark.parametrize(("case_id", "answer"), INVERTED_SAFETY)
def test_one_inverted_safety_rule_alone_fails_the_gate(tmp_path, case_id, answer):
    report = run_with(tmp_path, case_id, answer)
    assert report.decision.status == GateStatus.FAILED, [
        (c.verdict, c.severity, c.rationale) for c in claims_of(report, "candidate", case_id)
    ]
