"""The engine builds each case's analyses as its result arrives; what it reports must be
built from the results the judge returns, whatever the judge told its progress callback."""

from __future__ import annotations

import dataclasses

from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.offline.judge import OfflineJudge
from halgate.models import Mode
from halgate.run import engine
from halgate.run.engine import plan_tasks, run_suite

from ..conftest import EXAMPLE_SUITE


class _Reporting(OfflineJudge):
    """The offline judge, with a chosen way of calling progress."""

    def __init__(self, how: str):
        super().__init__()
        self.how = how

    def judge(self, tasks, progress=None):
        results = super().judge(tasks)
        for r in results:
            if progress and self.how == "early":  # a provisional result, later replaced
                progress(dataclasses.replace(r, claims={}, errors=dict.fromkeys(r.claims, "x")))
            elif progress and self.how == "same":
                progress(r)
        return results


def _dump(report):
    return [a.model_dump() for a in report.analyses]


def test_streamed_analyses_are_those_built_after_judging():
    suite, policy = load_suite(EXAMPLE_SUITE), Policy()
    systems = ["baseline", "candidate"]
    tasks = plan_tasks(suite, Mode.COMPARE, systems)
    results = OfflineJudge().judge(tasks)
    after = engine._analyses(suite, Mode.COMPARE, systems, tasks, results, policy)
    seen = []
    report = run_suite(suite, _Reporting("same"), policy, progress=seen.append)
    assert [a.model_dump() for a in after] == _dump(report)
    assert len(seen) == len(suite.cases)  # the caller's callback still sees every result


def test_results_told_to_progress_but_not_returned_are_not_reported():
    suite, policy = load_suite(EXAMPLE_SUITE), Policy()
    plain = run_suite(suite, _Reporting("never"), policy)
    early = run_suite(suite, _Reporting("early"), policy)
    assert not any(a.harness_error for a in early.analyses)
    assert _dump(early) == _dump(plain)
    assert plain.decision == early.decision
