"""'Label N more' for one system's corrected rate in compare mode (issue #33): counted in audit
answers as labelling really proceeds (case by case in draw order, both systems' answers of a
case), to the look of that system's own schedule that would decide; and that schedule ends
at the system's own answers, so a system that refuses cases has a last look it can reach.
The gate, the Triage page's count and the exports read the same evidence
(``scoring.gate.rate_evidence``)."""

from __future__ import annotations

from halgate.inputs.policy import Policy
from halgate.models import (
    GateReason,
    RunReport,
)
from halgate.review import ReviewedRun, audit_progress
from halgate.review.audit import audit_order
from halgate.scoring.decide import labels_to_go

from .audit_answers import answers_in_order, audit_report, labelled

RUN = "20260108T000000Z-bbbbbb"
N = 40
FIRST_LOOK = 10  # cases; the candidate's own looks count its answers
REFUSED = {f"k{i}" for i in range(32, 40)}  # the candidate refuses 8 cases: 32 answers
BAD = {"baseline": {f"k{i}" for i in range(0, 40, 8)}}  # 5 of 40
BAD["candidate"] = {f"k{i}" for i in range(0, 32, 3)}  # 11 of its 32 answers: 34.4%


def _report(limit: float, seed: int) -> RunReport:
    """40 cases, one claim an answer; the judge and the reviewers agree (the truth is BAD);
    the gate reads the candidate's corrected rate against ``limit``."""
    policy = Policy(
        block_on_severity=None, max_contradiction_rate=None, max_fabrication_rate=None,
        max_abstention_increase=None, max_abstention_rate=None, max_rate_increase=1.0,
        max_hallucination_rate=limit, gate_on_corrected=True, audit_sample=FIRST_LOOK,
    )  # fmt: skip
    return audit_report(RUN, policy, N, REFUSED, BAD, seed)


def _answers_in_order(report: RunReport) -> list[tuple[str, str]]:
    return answers_in_order(report, REFUSED)


def _labelled(report: RunReport, answers: list[tuple[str, str]]) -> ReviewedRun:
    return labelled(RUN, report, answers, BAD)


def _rate_rule(run) -> GateReason:
    return next(r for r in run.report.decision.reasons if r.rule == "max_hallucination_rate")


def _candidate_answer_position(order: list[str], nth: int) -> int:
    """The draw position of the case holding the candidate's ``nth`` answer (1-based)."""
    answered = [i for i, c in enumerate(order) if c not in REFUSED]
    return answered[nth - 1]


def test_label_n_more_of_a_rate_counts_every_systems_answers_and_exactly_that_many_decide():
    report = _report(0.05, seed=2)
    order = audit_order(report)
    answers = _answers_in_order(report)
    first = sum(1 for c, _ in answers if c in order[:FIRST_LOOK])
    run = _labelled(report, answers[:first])
    rule = _rate_rule(run)
    assert rule.status.value == "NEEDS_REVIEW"
    candidate = run.report.rates["candidate"].corrected
    assert candidate is not None
    # by hand: the candidate refuses 4 of the first 10 drawn cases, so its own first look is
    # its 6 answers there, its later looks 12, 24 and all 32 of its answers; at this variance
    # the look at 24 would decide. Labelling proceeds case by case, both systems' answers of
    # a case, so reaching its 24th answer takes every answer of the draw positions 10 up to
    # that case: two a case, one where the candidate refuses
    mine = sum(1 for c in order[:FIRST_LOOK] if c not in REFUSED)
    assert (mine, candidate.first_look, candidate.eligible) == (6, 6, 32)
    last = _candidate_answer_position(order, 4 * mine)
    expected = sum(1 + (c not in REFUSED) for c in order[FIRST_LOOK : last + 1])
    assert expected == 38 and rule.more_to_decide == expected  # before the fix: 4
    assert f"label {expected} more audit answers to decide" in rule.message
    assert candidate.answers_to_looks[:3] == [0, 12, expected]
    assert labels_to_go(run.report.decision) == expected  # Triage's count, the same
    progress = audit_progress(run)  # and the rule it names there
    assert progress is not None
    assert (progress.labels_to_go, progress.asked_by) == (expected, "max_hallucination_rate")
    one_short = _labelled(report, answers[: first + expected - 1])
    assert _rate_rule(one_short).status.value == "NEEDS_REVIEW"  # its 24th answer not in yet
    assert one_short.report.rates["candidate"].corrected.n_labelled == 2 * mine
    decided = _rate_rule(_labelled(report, answers[: first + expected]))
    assert decided.status.value == "FAILED", decided.message


def test_a_system_that_refuses_cases_reaches_its_last_look_and_then_says_no_label_decides():
    report = _report(0.4, seed=4)
    run = _labelled(report, _answers_in_order(report))  # every audit answer labelled
    candidate = run.report.rates["candidate"].corrected
    assert candidate is not None
    # its last look is its own 32 answers (not the 40 cases, 8 of which it refused): every
    # one of them counts, none waits past a look it could never reach (before the fix: looks
    # at 10, 20 and 40 of its answers, so its interval rested on 20 and 12 labels waited for
    # the look at 40 for ever)
    assert (candidate.eligible, candidate.n_labelled, candidate.beyond_look) == (32, 32, 0)
    assert candidate.answers_to_looks[-1] == 0
    rule = _rate_rule(run)
    assert rule.status.value == "NEEDS_REVIEW" and rule.more_to_decide is None
    assert "every audit answer is labelled and the interval still holds the limit" in rule.message
    assert labels_to_go(run.report.decision) is None  # Triage: no label asked for
