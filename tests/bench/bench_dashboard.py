"""Dashboard responsiveness on a large run (compare mode, offline judge), old against new.

Targets (issue #31, this 2-core machine): on a 10,000-case run, opening the run cold < 2 s
and an overturn in Triage until the banner updates < 1 s.

    .venv/bin/python tests/bench/bench_dashboard.py build 10000 /tmp/bench10000.db
    .venv/bin/python tests/bench/bench_dashboard.py build 10000 /tmp/old10000.db \\
        --baseline f7b06ee
    .venv/bin/python tests/bench/bench_dashboard.py measure /tmp/bench10000.db
    .venv/bin/python tests/bench/bench_dashboard.py compare /tmp/bench10000.db \\
        --baseline f7b06ee --old-db /tmp/old10000.db --rounds 3

``build`` judges a synthetic suite with the real offline judge and saves it in a real SQLite
store. ``measure`` renders the pages with Streamlit's AppTest (the script runs a browser
session makes, minus the network) in one fresh process, on a fresh copy of the database, so
"cold" means what a dashboard just started sees: nothing cached. ``compare`` alternates old
(a ``git archive`` of the baseline commit, imported ahead of the installed halgate) and new
in one loop, each measurement a fresh process, and prints the median wall and CPU seconds
of each step. A baseline from before schema 12 cannot open a newer database: give it one
its own code built (``--old-db``; ``build N DB --baseline COMMIT`` builds one).
CPU seconds are the process's own (all threads), so they say what a step costs
on a busy host where wall time also counts the neighbours. Prints figures; asserts nothing
about time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
STEPS = [
    "runs page",
    "open run cold (Overview)",
    "claims page",
    "triage page",
    "overturn until the banner updates",
    "open run, another session (server warm)",
]
TARGETS = {"open run cold (Overview)": 2.0, "overturn until the banner updates": 1.0}


def build(n_cases: int, db: Path) -> str:
    """Judge a synthetic suite of ``n_cases`` and store the run in ``db``."""
    sys.path.insert(0, str(HERE))
    from halgate.inputs.policy import Policy
    from halgate.inputs.suite import load_suite
    from halgate.judges.registry import create_judge
    from halgate.run.engine import run_suite
    from halgate.store import Store
    from synthetic import write_suite

    with tempfile.TemporaryDirectory() as tmp:
        suite = load_suite(write_suite(Path(tmp) / "synthetic", n_cases))
        report = run_suite(suite, create_judge("offline"), Policy())
    with Store(db) as store:
        return store.save_run(report)


def _timed(label: str, fn: Callable[[], Any], figures: dict[str, dict[str, float]]) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    figures[label] = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}


def measure(app: Path, db: Path) -> dict[str, dict[str, float]]:
    """Each step's wall and CPU seconds in this (fresh) process, on a copy of ``db``."""
    from streamlit.testing.v1 import AppTest

    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "bench.db"
        shutil.copyfile(db, copy)
        os.environ["HALGATE_DB"] = str(copy)
        os.environ["HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF"] = "1"  # a typed name may review
        at = AppTest.from_file(str(app), default_timeout=600)

        def step(label: str, fn: Callable[[], Any]) -> None:
            _timed(label, fn, figures)
            assert not at.exception, at.exception

        step("runs page", at.run)
        for label, page in zip(STEPS[1:4], ["overview.py", "claims.py", "triage.py"], strict=True):
            at.switch_page(f"views/{page}")
            step(label, at.run)
        at.sidebar.text_input(key="reviewer_name").set_value("bench")
        at.run()
        at.text_area[0].input("bench overturn")
        key = next(s.key for s in at.selectbox if s.key and s.key.endswith("-verdict"))
        at.selectbox(key=key).set_value("SUPPORTED")
        button = next(b for b in at.button if b.label == "Overturn")
        step(STEPS[4], button.click().run)
        assert any("overturned by bench" in m.value for m in at.success), "no overturn"
        other = AppTest.from_file(str(app), default_timeout=600)  # a second browser session
        other.run()
        other.switch_page("views/overview.py")
        _timed(STEPS[5], other.run, figures)
        assert not other.exception, other.exception
    return figures


def baseline_package(commit: str, into: Path) -> Path:
    """An importable ``halgate`` of ``commit`` (core, dashboard and data laid out as the
    installed package maps them); returns the folder to put on PYTHONPATH."""
    src = into / "src"
    src.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", commit, "core", "dashboard", "data"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    pkg = into / "pkg" / "halgate"
    shutil.move(src / "core", pkg)
    shutil.move(src / "dashboard", pkg / "dashboard")
    shutil.move(src / "data", pkg / "data")
    return into / "pkg"


def _measure_in_fresh_process(db: Path, pythonpath: Path | None) -> dict[str, dict[str, float]]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    out = subprocess.run(
        [sys.executable, __file__, "measure", str(db), "--json"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def compare(db: Path, baseline: str, rounds: int, old_db: Path | None = None) -> None:
    """Old and new alternating, ``rounds`` times each; medians of wall and CPU seconds
    (old on ``old_db`` when given: the same run as built by the old code)."""
    results: dict[str, list[dict[str, dict[str, float]]]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as tmp:
        old = baseline_package(baseline, Path(tmp))
        for i in range(rounds):
            for name, path, where in (("old", old, old_db or db), ("new", None, db)):
                results[name].append(_measure_in_fresh_process(where, path))
                print(f"round {i + 1} {name}: done", flush=True)
    print(f"\n{'step':<40} {'old wall':>9} {'old cpu':>8} {'new wall':>9} {'new cpu':>8}")
    for step in STEPS:
        cells = [
            statistics.median(r[step][kind] for r in results[name])
            for name in ("old", "new")
            for kind in ("wall", "cpu")
        ]
        print(f"{step:<40} " + " ".join(f"{c:8.2f}s" for c in cells))
    print(f"(medians of {rounds} fresh processes each, alternating old/new; old = {baseline})")
    for kind in ("wall", "cpu"):
        _print_targets({s: {kind: statistics.median(r[s][kind] for r in results["new"])}
                        for s in TARGETS}, kind)  # fmt: skip


def _print_targets(figures: dict[str, dict[str, float]], kind: str = "wall") -> None:
    for step, limit in TARGETS.items():
        got = figures[step][kind]
        verdict = "met" if got < limit else "MISSED"
        print(f"target {step} < {limit:g} s ({kind}): {verdict} ({got:.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("n_cases", type=int)
    b.add_argument("db", type=Path)
    b.add_argument("--baseline", help="build it with this commit's halgate (for --old-db)")
    m = sub.add_parser("measure")
    m.add_argument("db", type=Path)
    m.add_argument("--json", action="store_true")
    c = sub.add_parser("compare")
    c.add_argument("db", type=Path)
    c.add_argument("--baseline", default="f7b06ee")
    c.add_argument("--old-db", type=Path, default=None)
    c.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.command == "build" and args.baseline:
        with tempfile.TemporaryDirectory() as tmp:
            pkg = baseline_package(args.baseline, Path(tmp))
            argv = [sys.executable, __file__, "build", str(args.n_cases), str(args.db)]
            subprocess.run(argv, check=True, env={**os.environ, "PYTHONPATH": str(pkg)})
    elif args.command == "build":
        print(f"run {build(args.n_cases, args.db)} in {args.db}")
    elif args.command == "compare":
        compare(args.db, args.baseline, args.rounds, args.old_db)
    else:
        import halgate

        app = Path(halgate.__file__).parent / "dashboard" / "app.py"
        if not app.is_file():  # the editable install maps halgate.dashboard elsewhere
            app = REPO / "dashboard" / "app.py"
        figures = measure(app, args.db)
        if args.json:
            print(json.dumps(figures))
            return
        for step, f in figures.items():
            print(f"{step:<40} {f['wall']:7.2f} s wall {f['cpu']:7.2f} s CPU")
        _print_targets(figures)
        _print_targets(figures, "cpu")


if __name__ == "__main__":
    main()
