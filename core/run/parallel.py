"""Spread a CPU-bound judge over processes, keeping results in task order; every judge
call goes through the guard (guard.py), in-process or in a worker.

The offline judge is pure Python CPU work; on a 2-core machine two processes nearly halve a
large run. Small runs stay in-process, where start-up would cost more than it saves.

While a CPU-bound judge works, and while its results arrive, the cyclic collector is
paused: judging makes no reference cycles (tests/run/test_parallel.py checks), so each
collection only walked the caches and results again. That was a twentieth of the workers'
time, and a third to a half of the main process's time unpickling the results.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_all_start_methods, get_context

from ..collector import collector_paused, relax_collector
from ..judges.protocol import Judge, JudgeResult, JudgeTask, ProgressCallback
from .guard import guarded_judge

MIN_TASKS_PER_PROCESS = 400
CHUNK = 100

_worker_judge: Judge | None = None


def _init(judge: Judge) -> None:
    global _worker_judge
    _worker_judge = judge
    relax_collector()  # a spawned worker does not inherit the run's setting


def _judge_chunk(tasks: list[JudgeTask]) -> list[JudgeResult]:
    if _worker_judge is None:
        raise RuntimeError("judge worker used before initialisation")
    with collector_paused():
        return guarded_judge(_worker_judge, tasks)


def worker_count(n_tasks: int, requested: int | None = None) -> int:
    """Processes worth starting for n_tasks (1 = judge in-process)."""
    available = requested or int(os.environ.get("HALGATE_WORKERS", 0)) or (os.cpu_count() or 1)
    return max(1, min(available, n_tasks // MIN_TASKS_PER_PROCESS))


def judge_tasks(
    judge: Judge,
    tasks: Sequence[JudgeTask],
    progress: ProgressCallback | None = None,
    workers: int | None = None,
) -> list[JudgeResult]:
    """Judge every task, in processes when the judge is CPU-bound and the run is large."""
    if not getattr(judge, "cpu_bound", False):
        return guarded_judge(judge, tasks, progress)  # network-bound: may make cycles
    with collector_paused(keep=True):  # the results live to the run's end
        return _judge_cpu_bound(judge, tasks, progress, worker_count(len(tasks), workers))


def _judge_cpu_bound(
    judge: Judge, tasks: Sequence[JudgeTask], progress: ProgressCallback | None, n: int
) -> list[JudgeResult]:
    if n == 1:
        return guarded_judge(judge, tasks, progress)
    chunks = [list(tasks[i : i + CHUNK]) for i in range(0, len(tasks), CHUNK)]
    results: list[list[JudgeResult] | None] = [None] * len(chunks)
    ctx = get_context("fork") if "fork" in get_all_start_methods() else None
    with ProcessPoolExecutor(n, mp_context=ctx, initializer=_init, initargs=(judge,)) as pool:
        futures = {pool.submit(_judge_chunk, c): i for i, c in enumerate(chunks)}
        for fut in as_completed(futures):
            done = fut.result()
            results[futures[fut]] = done
            if progress:
                for r in done:
                    progress(r)
    return [r for chunk in results if chunk is not None for r in chunk]
