"""The team store against the embedded one: a 10,000-case run saved to PostgreSQL and to
SQLite, and the dashboard's runs list, claims page and triage page loaded on each.

Run: `.venv/bin/python tests/bench/bench_pg_store.py [N_CASES]`. The run is judged once by
the real offline judge; PostgreSQL is a throwaway server started from Debian's binaries
(tests/pg/server.py, as in the tests: fsync off, on this machine's local disk); the pages
are rendered by Streamlit's AppTest on a fresh session per engine, after one warm-up.
Prints a table of seconds, SQLite beside PostgreSQL; asserts nothing about time.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from halgate.inputs.policy import Policy  # noqa: E402
from halgate.inputs.suite import load_suite  # noqa: E402
from halgate.judges.registry import create_judge  # noqa: E402
from halgate.run.engine import run_suite  # noqa: E402
from halgate.store import Store  # noqa: E402
from pg.fixtures import fresh_database  # noqa: E402
from pg.server import start_server  # noqa: E402
from synthetic import write_suite  # noqa: E402

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
STEPS = (
    "save run",
    "runs list (first render)",
    "claims page (first render)",
    "claims page (table cached)",
    "triage page (first render)",
)


def _time(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def measure(db: str, report: Any) -> dict[str, float]:
    """Save the run into ``db``, then load the three pages there in a fresh AppTest."""
    from streamlit.testing.v1 import AppTest

    out: dict[str, float] = {}
    with Store(db) as store:
        out["save run"] = _time(lambda: store.save_run(report))
    os.environ["HALGATE_DB"] = db
    at = AppTest.from_file(str(APP), default_timeout=600)
    out["runs list (first render)"] = _time(at.run)
    assert not at.exception, at.exception
    at.switch_page("views/claims.py")
    out["claims page (first render)"] = _time(at.run)
    at.switch_page("views/overview.py")
    at.run()
    at.switch_page("views/claims.py")
    out["claims page (table cached)"] = _time(at.run)
    at.switch_page("views/triage.py")
    out["triage page (first render)"] = _time(at.run)
    assert not at.exception, at.exception
    return out


def main(n_cases: int = 10_000) -> dict[str, dict[str, float]]:
    server = start_server()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            suite = load_suite(write_suite(Path(tmp) / "synthetic", n_cases))
            report = run_suite(suite, create_judge("offline"), Policy())
            n_claims = sum(len(a.claims) for a in report.analyses)
            print(f"{n_cases} cases, {n_claims} claims (judged once, offline)", flush=True)
            warm_up = str(Path(tmp) / "warm.db")  # imports and Streamlit's first start
            measure(warm_up, report.model_copy(update={"run_id": "warm-up"}))
            figures = {
                "SQLite": measure(str(Path(tmp) / "bench.db"), report),
                "PostgreSQL": measure(fresh_database(server), report),
            }
    finally:
        server.stop()
    print(f"{'seconds':<30} {'SQLite':>9} {'PostgreSQL':>11}")
    for step in STEPS:
        print(f"{step:<30} {figures['SQLite'][step]:9.2f} {figures['PostgreSQL'][step]:11.2f}")
    return figures


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
