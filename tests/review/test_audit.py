"""The audit sample (issue #11 item 3): a seeded random draw of answers, labelled as whole
answers by append-only overrides, whose labels correct the judge's rate; with
``gate_on_corrected`` the gate and ``regression_detected`` (item 4) use the correction once
the audit is complete."""

from __future__ import annotations

import pytest
from halgate.errors import NotFoundError, UsageError
from halgate.inputs.policy import Policy
from halgate.models import (
    Case,
    GateDecision,
    GateStatus,
    JudgeSpec,
    Mode,
    Override,
    RunReport,
    SuiteInfo,
)
from halgate.reports.summary import corrected_lines
from halgate.review import audit_cases, audit_review_ids, review_run
from halgate.scoring.rescore import analysis_of, rescore
from halgate.store import Store

from ..conftest import build_report, claim

RUN = "20260106T000000Z-aaaaaa"
N = 40
BASELINE_BAD = {f"k{i}" for i in range(4)}  # the judge and the truth agree on the baseline
FALSE_ALARMS = {f"k{i}" for i in range(4, 20)}  # the judge over-reads the candidate here


def wide_report(run_id: str = RUN, audit_seed: int | None = 11, **knobs) -> RunReport:
    """A compare run over 40 cases, one LOW claim an answer: the judge flags k0-k3 in both
    systems and also k4-k19 in the candidate (false alarms), so its change is +40%."""
    knobs = {"max_abstention_increase": None, **knobs}  # 0 of 40 cannot show under 5 points
    policy = Policy(
        block_on_severity=None, max_contradiction_rate=None, max_fabrication_rate=None, **knobs
    )
    cases = [Case(case_id=f"k{i}", question="q") for i in range(N)]
    analyses = []
    for case in cases:
        for system, bad in (("baseline", BASELINE_BAD), ("candidate", BASELINE_BAD | FALSE_ALARMS)):
            verdict = "UNSUPPORTED" if case.case_id in bad else "SUPPORTED"
            c = claim(verdict, "FABRICATION", "LOW", case_id=case.case_id, system=system)
            analyses.append(analysis_of(case.case_id, system, [c], policy))
    report = RunReport(
        run_id=run_id,
        created_at="2026-01-06T00:00:00+00:00",
        mode=Mode.COMPARE,
        suite=SuiteInfo(name="wide", path="wide", content_hash="0" * 64, n_cases=N, systems=[]),
        judge=JudgeSpec(name="fixture"),
        policy=policy.model_dump(mode="json"),
        systems=["baseline", "candidate"],
        cases=cases,
        documents=[],
        answers={
            s: {c.case_id: "It opens at nine." for c in cases} for s in ("baseline", "candidate")
        },
        analyses=analyses,
        rates={},
        decision=GateDecision(status="PASSED", exit_code=0, reasons=[], gated_system="candidate"),
        audit_seed=audit_seed,  # what a store draws when it saves the run
    )
    return rescore(report)


def truthful_labels(report: RunReport, ids: list[str] | None = None) -> list[Override]:
    """Reviewers who know the truth: only k0-k3 are hallucinated, in either system."""
    out = []
    for i, rid in enumerate(ids if ids is not None else audit_review_ids(report)):
        case_id = rid.split(":")[1]
        label = "HALLUCINATED" if case_id in BASELINE_BAD else "FAITHFUL"
        out.append(
            Override(id=i + 1, run_id=report.run_id, claim_id=rid, label=label, comment="read it",
                     reviewer="ana", created_at="2026-01-06T01:00:00+00:00")
        )  # fmt: skip
    return out


def test_the_sample_is_seeded_by_the_stores_seed_alone_and_sized_by_the_policy():
    report = wide_report(audit_sample=10)
    drawn = audit_cases(report)
    assert len(drawn) == 10 == len(set(drawn))
    assert drawn == audit_cases(wide_report(audit_sample=10))  # reproducible
    # No other field of the report (run id, the policy's bootstrap seed) moves the sample.
    assert drawn == audit_cases(wide_report("20260106T000000Z-bbbbbb", audit_sample=10))
    assert drawn == audit_cases(wide_report(audit_sample=10, seed=7))
    assert drawn != audit_cases(wide_report(audit_sample=10, audit_seed=12))
    assert audit_cases(wide_report(audit_sample=10, audit_seed=None)) == []  # no store, no sample
    assert len(audit_cases(wide_report(audit_sample="5%"))) == 2  # 5% of 40
    assert len(audit_cases(wide_report(audit_sample="12.5%"))) == 5
    assert len(audit_cases(wide_report(audit_sample=100))) == N  # at most every case
    assert audit_cases(wide_report(audit_sample=0)) == []
    ids = audit_review_ids(report)
    assert ids[:2] == [f"audit:{drawn[0]}:baseline", f"audit:{drawn[0]}:candidate"]


def test_harness_errors_and_abstentions_are_never_drawn():
    report = build_report(audit_sample=100)  # tiny: 3 cases
    q2 = next(a for a in report.analyses if a.case_id == "q2" and a.system == "candidate")
    q3 = next(a for a in report.analyses if a.case_id == "q3" and a.system == "candidate")
    broken = q2.model_copy(update={"harness_error": "timeout", "claims": []})
    refused = q3.model_copy(update={"claims": [], "abstention": "refusal"})
    analyses = [broken if a is q2 else refused if a is q3 else a for a in report.analyses]
    ids = audit_review_ids(report.model_copy(update={"analyses": analyses}))
    assert "audit:q2:candidate" not in ids and "audit:q3:candidate" not in ids
    assert {"audit:q2:baseline", "audit:q3:baseline", "audit:q1:candidate"} <= set(ids)


def test_the_corrected_rate_sits_beside_the_judges_in_the_reviewed_report():
    report = wide_report()
    run = review_run(RUN, report, truthful_labels(report))
    cand = run.report.rates["candidate"].corrected
    assert cand is not None and cand.complete and cand.n_sample == 30 == cand.n_labelled
    assert cand.judge_rate == pytest.approx(0.5)
    assert cand.estimate < 0.25 and cand.ci_low <= 0.1 <= cand.ci_high  # truth: 4/40
    assert cand.judge_precision < 0.5 and cand.judge_recall == 1.0
    assert run.queue.counts.audit == 60 and run.queue.counts.audit_labelled == 60
    assert run.queue.counts.audit_text() == "audit sample: 60 of 60 answers labelled"
    assert run.report.comparison.corrected_change.paired
    # without gate_on_corrected the gate keeps the judge's figure (and fails on it)
    assert not run.report.comparison.gated_on_corrected
    assert run.report.decision.status == GateStatus.FAILED
    assert run.report.comparison.regression_detected


def test_gate_on_corrected_waits_for_the_audit_then_uses_it():
    # 40 cases without one discordant pair bound the change at 7.2 % (rule of three), so a
    # 5-point limit stays undecided however the labels fall; 10 points can be shown.
    report = wide_report(gate_on_corrected=True, audit_sample=N, max_rate_increase=0.1)
    assert report.decision.status == GateStatus.FAILED  # the judge's +40% fails it
    reason = next(r for r in report.decision.reasons if r.rule == "gate_on_corrected")
    assert reason.status == GateStatus.NEEDS_REVIEW and "no audit labels yet" in reason.message
    labels = truthful_labels(report)
    partial = review_run(RUN, report, labels[:-1]).report
    reason = next(r for r in partial.decision.reasons if r.rule == "gate_on_corrected")
    assert reason.status == GateStatus.NEEDS_REVIEW and "79 of 80" not in reason.message
    assert "incomplete (baseline 40 of 40, candidate 39 of 40" in reason.message
    assert reason.claim_ids == [labels[-1].claim_id] == partial.decision.pending_review
    assert partial.comparison.regression_detected  # still the judge's interval
    done = review_run(RUN, report, labels).report
    assert done.comparison.gated_on_corrected and not done.comparison.regression_detected
    assert done.decision.status == GateStatus.PASSED
    rate = next(r for r in done.decision.reasons if r.rule == "max_rate_increase")
    assert rate.message.startswith("answers with a hallucination, review-corrected (gated")
    assert "(95% CI " in rate.message and rate.observed == pytest.approx(0.0)


def test_an_incomplete_audit_does_not_hold_the_gate_when_reviews_need_not_come_first():
    report = wide_report(gate_on_corrected=True, require_review_before_pass=False)
    reason = next(r for r in report.decision.reasons if r.rule == "gate_on_corrected")
    assert reason.status == GateStatus.PASSED and "judge's figures" in reason.message


def test_a_corrected_regression_is_detected_when_the_judge_misses_it():
    report = wide_report(gate_on_corrected=True, audit_sample=N, max_rate_increase=0.5)
    labels = [
        o.model_copy(update={"label": "HALLUCINATED"}) if o.claim_id.endswith(":candidate") else o
        for o in truthful_labels(report)
    ]  # every candidate answer is in fact hallucinated
    done = review_run(RUN, report, labels).report
    change = done.comparison.corrected_change
    assert change.estimate == pytest.approx(0.9) and change.ci_low > 0
    assert done.comparison.regression_detected
    assert done.decision.status == GateStatus.FAILED


def test_labels_are_append_only_overrides_with_provenance(store_db):
    report = build_report(run_id=RUN)
    ids = audit_review_ids(report)
    with Store(store_db) as store:
        store.save_run(report)
        with pytest.raises(UsageError, match="--label"):
            store.add_override(RUN, ids[0], comment="x", reviewer="ana")
        with pytest.raises(UsageError, match="label"):
            store.add_override(RUN, ids[0], label="maybe", comment="x", reviewer="ana")
        with pytest.raises(UsageError, match="audit sample"):
            store.add_override(RUN, ids[0], label="faithful", verdict="SUPPORTED", comment="x",
                               reviewer="ana")  # fmt: skip
        with pytest.raises(UsageError, match="audited answer"):
            store.add_override(RUN, "q1/candidate/0", label="faithful", comment="x", reviewer="a")
        with pytest.raises(NotFoundError, match="not in the audit sample"):
            store.add_override(RUN, "audit:nope:candidate", label="faithful", comment="x",
                               reviewer="ana")  # fmt: skip
        first = store.add_override(RUN, ids[0], label="hallucinated", comment="a", reviewer="ana")
        store.add_override(RUN, ids[0], label="FAITHFUL", comment="on second read", reviewer="bo")
        history = store.override_history(RUN, ids[0])
        run = store.reviewed_run(RUN)
        log = [e for e in store.audit(RUN) if e.action == "override"]
    assert first.label.value == "HALLUCINATED"
    assert [(o.label.value, o.reviewer) for o in history] == [("HALLUCINATED", "ana"),
                                                             ("FAITHFUL", "bo")]  # fmt: skip
    item = next(i for i in run.queue.audit if i.review_id == ids[0])
    assert item.label.value == "FAITHFUL" and item.latest_override.reviewer == "bo"
    assert log[-1].detail["label"] == "FAITHFUL"
    assert run.queue.counts.audit_labelled == 1


def test_the_corrected_change_stays_paired_when_the_candidate_refuses_some_cases():
    report = wide_report()
    refused = {"k30", "k31"}
    analyses = [
        a.model_copy(update={"claims": [], "abstention": "refusal"})
        if a.system == "candidate" and a.case_id in refused
        else a
        for a in report.analyses
    ]
    report = rescore(report.model_copy(update={"analyses": analyses}))
    run = review_run(RUN, report, truthful_labels(report))
    change = run.report.comparison.corrected_change
    drawn = set(audit_cases(report))
    assert change.paired and (change.n_cases, change.n_one_sided) == (N, 2)
    assert change.n_labelled == len(drawn) == 30  # every drawn case: U is all 40
    # the truth: 4/40 baseline, 4/38 candidate; the interval holds it
    assert change.ci_low <= 4 / 38 - 4 / 40 <= change.ci_high
    shown = "\n".join(corrected_lines(run.report))
    assert f"paired over {N} cases, 2 rated by one side only" in shown
