"""Judging in processes gives what judging in-process gives, and judging makes no cycles
(which is why the collector may be paused while the offline judge works)."""

from __future__ import annotations

import gc
import json

import pytest
from halgate.collector import relaxed_collector
from halgate.inputs.suite import load_suite
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.protocol import JudgeResult, JudgeTask
from halgate.models import Case, Document, Mode
from halgate.run import parallel
from halgate.run.engine import plan_tasks

from ..conftest import EXAMPLE_SUITE

RECORD = Document(
    doc_id="shop",
    text=json.dumps(
        {
            "name": "Corner Books",
            "open": {"Monday": "09:00-17:00", "Sunday": None},
            "delivery": False,
            "stars": 4.5,
        }
    ),
)


def _tasks() -> list[JudgeTask]:
    suite = load_suite(EXAMPLE_SUITE)
    tasks = plan_tasks(suite, Mode.COMPARE, ["baseline", "candidate"])
    record = JudgeTask(
        case=Case(case_id="shop", question="When is Corner Books open?", doc_ids=["shop"]),
        documents=[RECORD],
        answers={
            "baseline": "Corner Books opens at 9am on Monday and has 4.5 stars.",
            "candidate": "Corner Books delivers, and it is open on Sunday from 10am.",
        },
    )
    return [*tasks, record]


def _dump(results: list[JudgeResult]) -> list[dict]:
    return [
        {
            "case_id": r.case_id,
            "claims": {s: [c.model_dump() for c in cs] for s, cs in r.claims.items()},
            "errors": r.errors,
            "usage": r.usage,
        }
        for r in results
    ]


def test_judging_in_processes_gives_the_in_process_results_in_task_order(monkeypatch):
    tasks = _tasks()
    judge = OfflineJudge()
    alone = judge.judge(tasks)
    monkeypatch.setattr(parallel, "MIN_TASKS_PER_PROCESS", 5)
    monkeypatch.setattr(parallel, "CHUNK", 7)  # several chunks, finishing out of order
    assert parallel.worker_count(len(tasks), 2) == 2
    seen: list[str] = []
    spread = parallel.judge_tasks(judge, tasks, lambda r: seen.append(r.case_id), workers=2)
    assert _dump(spread) == _dump(alone)
    assert sorted(seen) == sorted(t.case.case_id for t in tasks)
    assert gc.isenabled()  # the pause ends with the judging


def test_the_collector_comes_back_when_judging_fails():
    class Broken(OfflineJudge):
        def judge(self, tasks, progress=None):
            raise RuntimeError("judge crashed")

    results = parallel.judge_tasks(Broken(), _tasks()[:3])  # the guard keeps the run going
    assert all(f.exception_type == "RuntimeError" for r in results for f in r.failures.values())
    assert all(r.errors for r in results)
    assert gc.isenabled()

    def stop(result):
        raise KeyboardInterrupt  # what the guard lets through: not a judge's exception

    with pytest.raises(KeyboardInterrupt):
        parallel.judge_tasks(OfflineJudge(), _tasks()[:3], stop)
    assert gc.isenabled()


def test_the_offline_judge_makes_no_reference_cycles():
    tasks = _tasks()
    judge = OfflineJudge()
    gc.collect()
    gc.disable()
    try:
        results = judge.judge(tasks)
        assert sum(len(cs) for r in results for cs in r.claims.values()) > 100
        del results
        assert gc.collect() == 0  # nothing a paused collector would have had to free
    finally:
        gc.enable()


def test_a_run_freezes_what_judging_built_and_thaws_it_at_its_end():
    tasks = _tasks()[:3]
    gc.unfreeze()  # what an earlier test froze (the dashboard freezes its loaded runs)
    parallel.judge_tasks(OfflineJudge(), tasks)
    assert gc.get_freeze_count() == 0  # outside a run nothing is frozen
    with relaxed_collector():
        results = parallel.judge_tasks(OfflineJudge(), tasks)
        assert gc.get_freeze_count() > 0  # kept out of the collector's sight to the run's end
        assert gc.isenabled()
        with relaxed_collector():  # a run inside it (or beside it, in another thread)
            parallel.judge_tasks(OfflineJudge(), tasks)
        assert gc.get_freeze_count() > 0  # the outer run is not over
    assert gc.get_freeze_count() == 0
    assert all(r.claims for r in results)


def test_a_freeze_the_caller_made_is_left_alone():
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with relaxed_collector():
            parallel.judge_tasks(OfflineJudge(), _tasks()[:3])
        assert gc.get_freeze_count() >= before
    finally:
        gc.unfreeze()
