"""Many reviewers at once: 20 processes × 100 overrides on one real SQLite file, none lost."""

from __future__ import annotations

import multiprocessing as mp
from collections import defaultdict

from halgate.store import Store

from ..conftest import build_report

PROCESSES = 20
PER_PROCESS = 100
CLAIMS = [f"q{i}/{s}/0" for i in (1, 2, 3) for s in ("baseline", "candidate")]
VERDICTS = ["SUPPORTED", "CONTRADICTED", None]


def _reviewer(db: str, run_id: str, worker: int, start, errors) -> None:
    """One reviewer process: waits for the starting gun, then records its overrides."""
    try:
        start.wait()
        with Store(db) as store:
            for i in range(PER_PROCESS):
                store.add_override(
                    run_id,
                    CLAIMS[(worker + i) % len(CLAIMS)],
                    verdict=VERDICTS[i % 3],
                    comment=f"w{worker}-{i}",
                    reviewer=f"reviewer-{worker}",
                )
    except BaseException as exc:  # reported to the parent; a silent child would hide a loss
        errors.put(f"worker {worker}: {exc!r}")
        raise


def test_twenty_processes_hundred_overrides_each(store_url):
    with Store(store_url) as store:
        run_id = store.save_run(build_report())
    ctx = mp.get_context("fork")
    start, errors = ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=_reviewer, args=(str(store_url), run_id, w, start, errors))
        for w in range(PROCESSES)
    ]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(timeout=300)
    problems = [errors.get() for _ in range(errors.qsize())] if not errors.empty() else []
    assert problems == [] and [p.exitcode for p in procs] == [0] * PROCESSES

    with Store(store_url) as store:
        history = store.override_history(run_id)
        assert len(history) == PROCESSES * PER_PROCESS
        assert len({o.id for o in history}) == len(history)
        by_worker = defaultdict(list)
        for o in history:
            by_worker[o.reviewer].append(int(o.comment.split("-")[1]))
        # every override of every worker is there, in the order that worker wrote them
        assert all(seq == list(range(PER_PROCESS)) for seq in by_worker.values())
        assert len(by_worker) == PROCESSES
        actions = [e.action for e in store.audit(run_id)]
        assert actions.count("override") == PROCESSES * PER_PROCESS
        [row] = store.list_runs()
        assert row.n_overrides == PROCESSES * PER_PROCESS  # cached summary is the newest
