"""Many writers on one PostgreSQL store: 20 reviewer processes × 100 overrides with one of
them killed by SIGKILL mid-way, CI processes saving runs at once, and two dashboard
processes that see each other's reviews."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from collections import Counter
from pathlib import Path

from halgate.store import Store

from ..conftest import build_report

PROCESSES, PER_PROCESS, VICTIM = 20, 100, 7
CLAIMS = [f"q{i}/{s}/0" for i in (1, 2, 3) for s in ("baseline", "candidate")]


def _reviewer(url: str, run_id: str, worker: int, log: str, start) -> None:
    """Record overrides; after each one the database confirmed, note its id in ``log``."""
    start.wait()
    with Store(url) as store, open(log, "a", buffering=1) as committed:
        for i in range(PER_PROCESS):
            o = store.add_override(
                run_id, CLAIMS[(worker + i) % 6], comment=f"w{worker}-{i}", reviewer=f"r{worker}"
            )
            committed.write(f"{o.id}\n")
            os.fsync(committed.fileno())


def _lines(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def test_twenty_writers_one_killed_every_committed_row_present_none_doubled(pg_url, tmp_path):
    with Store(pg_url) as store:
        run_id = store.save_run(build_report())
    ctx = mp.get_context("fork")
    start = ctx.Event()
    logs = [tmp_path / f"w{w}.ids" for w in range(PROCESSES)]
    procs = [
        ctx.Process(target=_reviewer, args=(pg_url, run_id, w, str(logs[w]), start))
        for w in range(PROCESSES)
    ]
    for p in procs:
        p.start()
    start.set()
    deadline = time.monotonic() + 120
    while len(_lines(logs[VICTIM])) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(procs[VICTIM].pid, signal.SIGKILL)
    for p in procs:
        p.join(timeout=300)
    assert procs[VICTIM].exitcode == -signal.SIGKILL
    assert [p.exitcode for w, p in enumerate(procs) if w != VICTIM] == [0] * (PROCESSES - 1)

    committed = [i for log in logs for i in _lines(log)]
    with Store(pg_url) as store:
        history = store.override_history(run_id)
        audit = [e for e in store.audit(run_id) if e.action == "override"]
    present = {o.id for o in history}
    lost = [i for i in committed if i not in present]
    doubled = [k for k, n in Counter((o.reviewer, o.comment) for o in history).items() if n > 1]
    killed_rows = sum(o.reviewer == f"r{VICTIM}" for o in history)
    print(
        f"\nPostgreSQL, {PROCESSES} writers x {PER_PROCESS} overrides, writer {VICTIM} killed "
        f"(SIGKILL) after {len(_lines(logs[VICTIM]))} confirmed: expected (confirmed) "
        f"{len(committed)}, present {len(history)}, lost {len(lost)}, duplicated {len(doubled)}"
    )
    assert lost == [] and doubled == []
    assert len(committed) <= len(history) <= len(committed) + 1  # the write the kill cut off
    assert PER_PROCESS > killed_rows >= len(_lines(logs[VICTIM]))
    assert len(history) == (PROCESSES - 1) * PER_PROCESS + killed_rows
    assert len(audit) == len(history)  # each override's audit entry in the same transaction


def _save(url: str, index: int, start) -> None:
    start.wait()
    with Store(url) as store:
        store.save_run(build_report(run_id=f"20260101T0000{index:02d}Z-ci"))
        store.save_run(build_report(run_id="20260101T000000Z-shared"))  # the same run, twice


def test_ci_processes_saving_runs_at_once_never_collide(pg_url):
    ctx = mp.get_context("fork")
    start = ctx.Event()
    procs = [ctx.Process(target=_save, args=(pg_url, i, start)) for i in range(8)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0] * 8
    with Store(pg_url) as store:
        runs = store.list_runs()
        saves = [e for e in store.audit() if e.action == "save_run"]
    assert len(runs) == 9 and len(saves) == 9  # 8 own runs + the shared one, saved once


def _other_dashboard(url: str, run_id: str, inbox, outbox) -> None:
    with Store(url) as store:  # a second dashboard process, with its own connection
        outbox.put(len(store.override_history(run_id)))
        inbox.get(timeout=60)  # the first dashboard has reviewed
        outbox.put([o.comment for o in store.override_history(run_id)])
        store.add_override(run_id, "q2/candidate/0", verdict="SUPPORTED", comment="B", reviewer="b")
        outbox.put("done")


def test_two_dashboard_processes_see_each_others_reviews(pg_url):
    with Store(pg_url) as store:
        run_id = store.save_run(build_report())
        ctx = mp.get_context("fork")
        inbox, outbox = ctx.Queue(), ctx.Queue()
        other = ctx.Process(target=_other_dashboard, args=(pg_url, run_id, inbox, outbox))
        other.start()
        assert outbox.get(timeout=60) == 0
        store.add_override(run_id, "q1/candidate/0", verdict="SUPPORTED", comment="A", reviewer="a")
        inbox.put("reviewed")
        assert outbox.get(timeout=60) == ["A"]
        assert outbox.get(timeout=60) == "done"
        other.join(timeout=60)
        assert [o.comment for o in store.override_history(run_id)] == ["A", "B"]
        assert store.list_runs()[0].n_overrides == 2
