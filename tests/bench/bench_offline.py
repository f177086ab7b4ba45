"""Offline judge throughput on a synthetic suite (default 10,000 cases, both systems).

Run: `.venv/bin/python tests/bench/bench_offline.py [N_CASES] [--repeat R]`. Target (issue
#15): the whole run in under 20 s and 1 GB on a 2-core machine. Prints figures, with CPU
seconds beside wall seconds (a busy machine stretches the wall time, not the CPU time), and
the memory of all its processes together: their proportional set size (shared pages counted
once), sampled while the run goes, where Linux's /proc tells it. `--repeat` runs it R times,
each in a fresh process (so no run finds another's caches warm), and prints the spread of
the totals: on a shared machine one run says little. `--against CHECKOUT` compares this
checkout with another one (say `git worktree add --detach /tmp/main main`) in one loop that
alternates them, R rounds, each run in a fresh process, and prints the CPU seconds of each
(main process + judge workers) with their medians: load on a shared machine then falls on
both alike. Asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from halgate.inputs.policy import Policy  # noqa: E402
from halgate.inputs.suite import load_suite  # noqa: E402
from halgate.judges.registry import create_judge  # noqa: E402
from halgate.reports.json_report import write_report  # noqa: E402
from halgate.run.engine import run_suite  # noqa: E402
from synthetic import write_suite  # noqa: E402


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            return next((int(line.split()[1]) for line in f if line.startswith("Pss:")), 0)
    except OSError:
        return 0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


class TotalMemory(threading.Thread):
    """The peak, over the run, of this process's and its children's proportional set size
    (a page shared by the forked judge workers is counted once, split between them).

    Sampled once a second: Linux computes smaps_rollup by walking the process's page
    tables, about 7 ms of CPU for a 500 MB process. Five samples a second took 1.3 CPU
    seconds from the main process (mean of four runs each way, 10.7 against 9.4), CPU
    the run it measures needs on a 2-core machine.
    """

    INTERVAL_S = 1.0

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak_kb = 0
        self.done = threading.Event()
        self._lock = threading.Lock()  # this thread and the run's progress both sample

    def run(self) -> None:
        while not self.done.wait(self.INTERVAL_S):
            self.sample()

    def at_last(self, n_results: int) -> Callable[[object], None]:
        """A progress callback that takes a reading when the last judge result arrives: the
        peak, with every worker still alive and every result held (samples taken once a
        second would miss up to a second of growth, about 30 MB)."""
        seen = itertools.count(1)

        def progress(_result: object) -> None:
            if next(seen) == n_results:
                self.sample()

        return progress

    def sample(self) -> None:
        """Take one reading now."""
        me = os.getpid()
        total = _pss_kb(me) + sum(_pss_kb(c) for c in _children(me))
        with self._lock:
            self.peak_kb = max(self.peak_kb, total)


def main(n_cases: int = 10_000) -> float:
    """Run the benchmark once and print its figures; returns the total seconds."""
    memory = TotalMemory()
    memory.start()
    with tempfile.TemporaryDirectory() as tmp:
        root = write_suite(Path(tmp) / "synthetic", n_cases)
        t0 = time.perf_counter()
        suite = load_suite(root)
        t1 = time.perf_counter()
        report = run_suite(
            suite, create_judge("offline"), Policy(), progress=memory.at_last(n_cases)
        )
        t2 = time.perf_counter()
        write_report(report, Path(tmp) / "report.json")
        t3 = time.perf_counter()
    memory.done.set()
    claims = sum(len(a.claims) for a in report.analyses)
    me, workers = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    peak_mb, worker_mb = me.ru_maxrss / 1024, workers.ru_maxrss / 1024
    cpu = {w: round(r.ru_utime + r.ru_stime, 1) for w, r in (("main", me), ("workers", workers))}
    print(f"cases {n_cases}, answers {len(report.analyses)}, claims {claims}")
    judged = report.timings["judge_seconds"]  # planning and judging, as the engine times them
    print(
        f"load {t1 - t0:.1f}s  judge+aggregate {t2 - t1:.1f}s (judge {judged:.1f}s, aggregate "
        f"{t2 - t1 - judged:.1f}s)  write report {t3 - t2:.1f}s  total {t3 - t0:.1f}s"
    )
    print(f"cpu seconds: main process {cpu['main']}, judge workers {cpu['workers']}")
    print(
        f"throughput {claims / (t2 - t1):,.0f} claims/s; peak memory {peak_mb:,.0f} MB "
        f"(largest judge worker {worker_mb:,.0f} MB)"
    )
    together = f"{memory.peak_kb / 1024:,.0f} MB" if memory.peak_kb else "n/a (no /proc)"
    print(f"all processes together, at their peak: {together} (proportional set size)")
    print(
        f"decision {report.decision.status.value}; candidate micro rate "
        f"{report.rates['candidate'].micro_rate:.3f}"
    )
    return t3 - t0


def _run_and_send(n_cases: int, conn: Connection) -> None:
    conn.send(main(n_cases))
    conn.close()


def repeated(n_cases: int, repeat: int) -> None:
    """Run the benchmark `repeat` times in fresh processes; print each run, then the spread."""
    totals = []
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no cache is warm
    for i in range(repeat):
        print(f"-- run {i + 1} of {repeat}", flush=True)
        receive, send = spawn.Pipe(duplex=False)
        run = spawn.Process(target=_run_and_send, args=(n_cases, send))
        run.start()
        send.close()
        totals.append(receive.recv())  # EOFError if the run died before sending its total
        run.join()
    print(
        f"total over {repeat} runs: min {min(totals):.1f}s, median "
        f"{statistics.median(totals):.1f}s, max {max(totals):.1f}s"
    )


_CPU = re.compile(r"cpu seconds: main process ([\d.]+), judge workers ([\d.]+)")
_WALL = re.compile(r"total ([\d.]+)s$", re.M)


def _link_tree(checkout: Path, into: Path) -> Path:
    """A folder whose `halgate` package is `checkout`'s core/ (data/ as halgate.data), as the
    installed package maps them: put first on PYTHONPATH, it shadows the installed halgate."""
    pkg = into / "halgate"
    pkg.mkdir(parents=True)
    for entry in (checkout / "core").iterdir():
        (pkg / entry.name).symlink_to(entry)
    (pkg / "data").symlink_to(checkout / "data")
    return into


def _cpu_of(tree: Path, n_cases: int) -> tuple[float, float, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, __file__, str(n_cases)], env=env, capture_output=True, text=True
    )
    found, wall = _CPU.search(out.stdout), _WALL.search(out.stdout)
    if out.returncode or not found or not wall:
        raise SystemExit(f"benchmark run failed in {tree}:\n{out.stdout}{out.stderr}")
    return float(found[1]), float(found[2]), float(wall[1])


def against(other: Path, n_cases: int, rounds: int) -> None:
    """This checkout and `other`, alternating, `rounds` times; CPU seconds of each run."""
    this = Path(__file__).resolve().parents[2]
    cpu: dict[str, list[float]] = {"this": [], "other": []}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {
            "this": _link_tree(this, Path(tmp) / "a"),
            "other": _link_tree(other, Path(tmp) / "b"),
        }
        for i in range(rounds):
            for name in ("other", "this") if i % 2 else ("this", "other"):
                main_s, workers_s, wall_s = _cpu_of(trees[name], n_cases)
                cpu[name].append(main_s + workers_s)
                print(
                    f"round {i + 1} {name:<5} cpu seconds: main {main_s}, workers {workers_s}, "
                    f"total {main_s + workers_s:.1f} (wall {wall_s:.1f}s)",
                    flush=True,
                )
    for name, totals in cpu.items():
        print(
            f"{name} ({this if name == 'this' else other}): total CPU seconds median "
            f"{statistics.median(totals):.1f} (min {min(totals):.1f}, max {max(totals):.1f})"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n_cases", nargs="?", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=1, help="runs, each in a fresh process")
    parser.add_argument("--against", type=Path, help="another checkout to alternate with")
    args = parser.parse_args()
    if args.against is not None:
        against(args.against.resolve(), args.n_cases, args.repeat)
    elif args.repeat > 1:
        repeated(args.n_cases, args.repeat)
    else:
        main(args.n_cases)
