"""The example suite judged as shipped (issue #15's acceptance), pinned so no change of the
judge slips below it unseen: every inserted CRITICAL hallucination caught as CRITICAL/HIGH,
the faithful baseline read as hallucinated in at most 12 % of its answers, and the invented
"a further 10 weeks of cover at half price" found. The example suite is never trained on."""

from __future__ import annotations

from halgate.evaluation.suite_labels import evaluate_judge_on_suite
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.registry import create_judge
from halgate.models import Severity, Verdict
from halgate.run.engine import run_suite

from ..conftest import EXAMPLE_SUITE


def test_example_suite_scores_meet_the_acceptance_figures():
    scores = evaluate_judge_on_suite(load_suite(EXAMPLE_SUITE), create_judge("offline"))
    assert scores.critical_total == 12 and scores.critical_caught == 12
    al = scores.answer_level
    assert al["balanced_accuracy"] is not None and al["balanced_accuracy"] >= 0.85
    low, high = al["balanced_accuracy_low"], al["balanced_accuracy_high"]
    assert low is not None and high is not None
    assert low < al["balanced_accuracy"] < high  # the interval is printed beside it


def test_faithful_baseline_is_rarely_flagged_and_the_invented_cover_is_caught():
    report = run_suite(load_suite(EXAMPLE_SUITE), create_judge("offline"), Policy())
    baseline = report.rates["baseline"]
    assert baseline.answer_level_rate is not None and baseline.answer_level_rate <= 0.12
    (trv,) = [a for a in report.analyses if a.case_id == "trv-011" and a.system == "candidate"]
    (invented,) = [c for c in trv.claims if "half price" in c.text]
    assert invented.verdict in (Verdict.UNSUPPORTED, Verdict.CONTRADICTED), invented.rationale
    assert invented.severity is not None and invented.severity.rank >= Severity.HIGH.rank
    assert report.decision.status.value == "FAILED"
