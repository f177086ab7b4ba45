"""'Label N more' for the paired corrected change (issue #33): counted in the pairing's own
sample, the audit answers of the cases either system rates up to the look that would decide,
not in one system's labels; labelling exactly that many more then decides. The Triage look
table counts its looks in the same cases."""

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

RUN = "20260107T000000Z-aaaaaa"
N = 80
BAD = {"baseline": {f"k{i}" for i in range(30)}}
BAD["candidate"] = BAD["baseline"] | {f"k{i}" for i in range(30, 43)}
REFUSED = {f"k{i}" for i in range(70, 80)}  # the candidate abstains: U keeps them, one-sided
FIRST_LOOK = 20  # looks at 20, 40 and 80 cases of U


def _report() -> RunReport:
    """80 cases, one claim an answer; the judge (and the reviewers) flag 30 baseline answers
    and 43 candidate ones; the candidate refuses 10 cases. Audit seed 16: at the first look
    the change is undecided and the look at 40 cases would decide (FAILED)."""
    policy = Policy(
        block_on_severity=None, max_contradiction_rate=None, max_fabrication_rate=None,
        max_abstention_increase=None, max_abstention_rate=None, max_hallucination_rate=None,
        gate_on_corrected=True, audit_sample=FIRST_LOOK,
    )  # fmt: skip
    return audit_report(RUN, policy, N, REFUSED, BAD, 16)


def _answers_in_order(report: RunReport) -> list[tuple[str, str]]:
    return answers_in_order(report, REFUSED)


def _labelled(report: RunReport, answers: list[tuple[str, str]]) -> ReviewedRun:
    return labelled(RUN, report, answers, BAD)


def _change_rule(run) -> GateReason:
    return next(r for r in run.report.decision.reasons if r.rule == "max_rate_increase")


def test_label_n_more_counts_the_pairings_answers_and_exactly_that_many_decide():
    report = _report()
    order = audit_order(report)
    answers = _answers_in_order(report)
    first = sum(1 for c, _ in answers if c in order[:FIRST_LOOK])
    run = _labelled(report, answers[:first])
    rule = _change_rule(run)
    assert rule.status.value == "NEEDS_REVIEW"
    # by hand: to the look at 40 cases of U, the answers of draw positions 20-39, two a case
    # but one where the candidate refused
    refused = sum(1 for c in order[FIRST_LOOK:40] if c in REFUSED)
    expected = 2 * 20 - refused
    assert refused > 0 and rule.more_to_decide == expected
    assert f"label {expected} more audit answers to decide" in rule.message
    # the per-system figures said 20 (cases of U to the look, each counted as one answer)
    candidate = run.report.rates["candidate"].corrected
    assert candidate is not None and candidate.n_labelled == first - FIRST_LOOK < FIRST_LOOK
    change = run.report.comparison.corrected_change
    assert (change.n_labelled, change.beyond_look) == (FIRST_LOOK, 0)
    assert change.answers_to_looks == [0, expected, 2 * N - len(REFUSED) - first]
    assert labels_to_go(run.report.decision) == expected  # Triage's count, the same
    one_short = _change_rule(_labelled(report, answers[: first + expected - 1]))
    assert one_short.status.value == "NEEDS_REVIEW"  # the look at 40 not yet reached
    decided = _change_rule(_labelled(report, answers[: first + expected]))
    assert decided.status.value == "FAILED", decided.message


def test_the_triage_look_table_counts_cases_of_the_pairing():
    report = _report()
    order = audit_order(report)
    answers = _answers_in_order(report)
    run = _labelled(report, [(c, s) for c, s in answers if c in order[:40]])
    progress = audit_progress(run)
    assert progress is not None
    gated = run.report.rates["candidate"].corrected
    assert gated is not None and gated.n_labelled + gated.beyond_look < 40  # its own count
    # the pairing reached its look at 40 cases: the table shows it, with the gate's interval
    assert [look.labels for look in progress.looks] == [20, 40] and progress.unit == "cases"
    change = run.report.comparison.corrected_change
    assert (progress.looks[-1].low, progress.looks[-1].high) == (change.ci_low, change.ci_high)
