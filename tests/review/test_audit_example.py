"""The audit through the real pipeline (issue #11 item 3): the example suite judged by the
offline judge into a real SQLite store, the audit sample labelled from the suite's
``labels.jsonl`` (reviewers played by the labels), the corrected estimate in the reviewed
report, and the gate on it with ``gate_on_corrected``."""

from __future__ import annotations

import json

import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.registry import create_judge
from halgate.review import audit_cases
from halgate.run.engine import run_suite
from halgate.scoring.metrics import outcome_counts, should_abstain_ids
from halgate.store import Store

from ..conftest import EXAMPLE_SUITE

HALLUCINATED = {"UNSUPPORTED", "CONTRADICTED"}
RUN = "20260109T000000Z-acme00"


def _truth() -> dict[tuple[str, str], bool]:
    """(case, system) -> the labelled answer holds a hallucinated claim."""
    rows = [json.loads(line) for line in (EXAMPLE_SUITE / "labels.jsonl").read_text().splitlines()]
    return {
        (r["case_id"], r["system"]): any(c["verdict"] in HALLUCINATED for c in r["claims"])
        for r in rows
    }


def test_example_suite_audited_from_its_labels_gates_on_the_corrected_rate(store_db):
    policy = Policy(gate_on_corrected=True, audit_sample=30, power_tuning=False)  # λ = 1 below
    judge = create_judge("offline", severity_rules=policy.severity_rules)
    judged = run_suite(load_suite(EXAMPLE_SUITE), judge, policy)
    judged = judged.model_copy(update={"run_id": RUN})
    truth = _truth()
    with Store(store_db) as store:
        run_id = store.save_run(judged)
        before = store.reviewed_run(run_id)
        items = before.queue.audit
        for item in items:
            hallucinated = truth[(item.case_id, item.system)]
            store.add_override(
                run_id, item.review_id, label="hallucinated" if hallucinated else "faithful",
                comment="from labels.jsonl", reviewer="labels",
            )  # fmt: skip
        run = store.reviewed_run(run_id)
        # The store's seed draws them. Labels past the first look (a should-abstain case next
        # in draw order is labelled by rule) wait for the next look: the estimate reads the
        # policy's 30 cases.
        drawn = set(audit_cases(store.load_report(run_id)))
    assert before.report.rates["candidate"].corrected.n_labelled == (
        before.report.rates["candidate"].corrected.n_by_rule
    )  # nothing labelled yet but the should-abstain answers, labelled by rule
    reason = next(r for r in before.report.decision.reasons if r.rule == "gate_on_corrected")
    assert reason.status == "NEEDS_REVIEW" and "audit sample incomplete" in reason.message
    # 30 cases drawn; each system's rated answers there, less should-abstain ones (by rule)
    assert 40 <= len(items) <= 60 and run.queue.counts.audit_labelled == len(items)

    report = run.report
    abstain = should_abstain_ids(report.cases)
    for system in report.systems:
        c = report.rates[system].corrected
        assert c is not None and c.complete and c.n_sample >= 20
        judge_says, reviewers_say = [], []  # over the rated answers; the audited ones
        for a in report.analyses:
            outcome = outcome_counts(a, a.case_id in abstain)
            if a.system != system or a.harness_error or not outcome.answers[1]:
                continue
            judge_says.append(outcome.answers[0])
            if a.case_id in drawn:  # should-abstain: hallucinated by rule when answered
                y = outcome.answers[0] if a.case_id in abstain else truth[(a.case_id, system)]
                reviewers_say.append(int(y) - outcome.answers[0])
        judge_rate = sum(judge_says) / len(judge_says)
        expected = judge_rate + sum(reviewers_say) / len(reviewers_say)
        assert c.judge_rate == report.rates[system].answer_level_rate == judge_rate
        assert (c.n_answers, c.n_labelled) == (len(judge_says), len(reviewers_say))
        assert c.estimate == pytest.approx(min(1.0, max(0.0, expected)))
        assert c.ci_low <= c.estimate <= c.ci_high
        print(f"\n{system}: judge {c.judge_rate:.1%}, corrected {c.estimate:.1%} "
              f"[{c.ci_low:.1%}, {c.ci_high:.1%}] from {c.n_labelled} of {c.n_answers} answers; "
              f"judge precision {c.judge_precision}, recall {c.judge_recall}")  # fmt: skip
    change = report.comparison.corrected_change
    assert change.complete and change.paired and change.ci_low is not None
    assert report.comparison.gated_on_corrected
    assert report.comparison.regression_detected == (
        change.ci_low > 0 or any(r.rule == "block_on_severity" and r.status == "FAILED"
                                 for r in report.decision.reasons)
    )  # fmt: skip
    rule = next(r for r in report.decision.reasons if r.rule == "max_rate_increase")
    assert "review-corrected (gated measure)" in rule.message
    assert rule.observed == change.estimate
    reason = next(r for r in report.decision.reasons if r.rule == "gate_on_corrected")
    assert reason.status == "PASSED" and "audit sample complete" in reason.message
