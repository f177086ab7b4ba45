"""Routing by risk: what reaches a reviewer on HIGH/CRITICAL cases, and baseline twins."""

from __future__ import annotations

import pytest
from halgate.inputs.policy import Policy
from halgate.models import Case, Severity
from halgate.scoring.gate import queues_claim, review_queue

from ..conftest import claim
from .conftest import analysis


@pytest.mark.parametrize(
    ("verdict", "severity", "risk", "queued"),
    [
        ("PARTIALLY_SUPPORTED", "LOW", Severity.CRITICAL, True),
        ("PARTIALLY_SUPPORTED", "LOW", Severity.HIGH, True),
        ("OUT_OF_SCOPE", "LOW", Severity.HIGH, True),
        ("PARTIALLY_SUPPORTED", "LOW", Severity.MEDIUM, False),
        ("PARTIALLY_SUPPORTED", "LOW", None, False),
        ("SUPPORTED", None, Severity.CRITICAL, False),
        ("UNSUPPORTED", "HIGH", Severity.LOW, True),  # a reviewed severity, whatever the risk
    ],
)
def test_every_claim_not_supported_on_a_risky_case_is_queued(verdict, severity, risk, queued):
    assert queues_claim(claim(verdict, "DISTORTION", severity), risk, Policy()) is queued


CASES = [Case(case_id="c0", question="q"), Case(case_id="c1", question="q")]


def _with_text(c, text):
    return c.model_copy(update={"text": text})


def test_a_baseline_claim_identical_to_a_queued_candidate_claim_joins_the_queue():
    false_alarm = _with_text(claim("CONTRADICTED", "DISTORTION", "CRITICAL"), "Never mix X with Y.")
    other = _with_text(claim("CONTRADICTED", "DISTORTION", "CRITICAL"), "Something else.")
    analyses = [
        analysis("c0", "candidate", [false_alarm]),
        analysis("c0", "baseline", [false_alarm, other]),
        analysis("c1", "baseline", [false_alarm]),  # same words, another case: not a twin
    ]
    queue = review_queue(analyses, CASES, Policy(), "candidate")
    assert [c.claim_id for c in queue] == ["c0/candidate/0", "c0/baseline/0"]


def test_a_supported_baseline_twin_is_not_queued():
    text = "Refunds take 5 days."
    cand = _with_text(claim("UNSUPPORTED", "FABRICATION", "HIGH"), text)
    base = _with_text(claim("SUPPORTED"), text)
    analyses = [analysis("c0", "candidate", [cand]), analysis("c0", "baseline", [base])]
    assert [c.system for c in review_queue(analyses, CASES, Policy(), "candidate")] == ["candidate"]
