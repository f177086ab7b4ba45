"""The audit's progress (issue #33 item 2): labels to go, the gate's own count, and the
corrected interval at each look of the sequential audit, narrowing as labels accrue."""

from __future__ import annotations

from halgate.review import audit_progress, review_run
from halgate.review.audit import audit_order
from halgate.scoring.decide import labels_to_go

from .test_audit import RUN, truthful_labels, wide_report


def _ids(report, cases: int) -> list[str]:
    """The audit ids of the first ``cases`` cases in draw order, both systems."""
    return [f"audit:{c}:{s}" for c in audit_order(report)[:cases] for s in report.systems]


def test_labels_to_go_counts_the_sample_then_the_look_that_would_decide():
    report = wide_report(gate_on_corrected=True, audit_sample=10)
    none = audit_progress(review_run(RUN, report, []))
    assert none is not None and none.labels_to_go == 20  # the sample's 10 cases, 2 systems
    assert none.measure == "change candidate − baseline" and none.looks == []
    first = review_run(RUN, report, truthful_labels(report, _ids(report, 10)))
    progress = audit_progress(first)
    assert progress is not None and [look.labels for look in progress.looks] == [10]
    rule = next(r for r in first.report.decision.reasons if r.rule == "max_rate_increase")
    assert progress.labels_to_go == labels_to_go(first.report.decision)
    # undecided at 10 labels, and no look of this 40-case suite would decide at this variance
    assert rule.status.value == "NEEDS_REVIEW" and progress.labels_to_go is None
    # 30 cases of the pairing left, each with an answer of both systems to label
    assert "more labels than the 60 answers left would be needed" in rule.message


def test_the_interval_narrows_at_each_look_and_stays_put_between_looks():
    report = wide_report(gate_on_corrected=True, audit_sample=10)
    widths = []
    for cases in (10, 15, 20, 40):
        run = review_run(RUN, report, truthful_labels(report, _ids(report, cases)))
        progress = audit_progress(run)
        assert progress is not None
        last = progress.looks[-1]
        widths.append(last.high - last.low)
        assert [look.labels for look in progress.looks] == {
            10: [10],
            15: [10],
            20: [10, 20],
            40: [10, 20, 40],
        }[cases]
        change = run.report.comparison.corrected_change
        assert (change.ci_low, change.ci_high) == (last.low, last.high)  # the gate's interval
    assert widths[0] == widths[1] > widths[2] > widths[3] > 0
