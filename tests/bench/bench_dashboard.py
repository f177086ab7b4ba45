"""Dashboard responsiveness on a 10,000-case run (compare mode, offline judge).

Run: `.venv/bin/python tests/bench/bench_dashboard.py [N_CASES]`. Targets on this machine:
first render of the Overview < 3 s, a filtered claims table < 1 s. The run is judged by the
real offline judge and saved in a real SQLite store; the pages are rendered by Streamlit's
AppTest (the same script runs a browser session would make, minus the network). Prints
figures; asserts nothing about time.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from halgate.inputs.policy import Policy  # noqa: E402
from halgate.inputs.suite import load_suite  # noqa: E402
from halgate.judges.registry import create_judge  # noqa: E402
from halgate.review import effective as eff  # noqa: E402
from halgate.run.engine import run_suite  # noqa: E402
from halgate.store import Store  # noqa: E402
from synthetic import write_suite  # noqa: E402

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def timed(label: str, fn, figures: dict[str, float]):
    t0 = time.perf_counter()
    out = fn()
    figures[label] = time.perf_counter() - t0
    print(f"{label:<48} {figures[label]:7.2f} s", flush=True)
    return out


def main(n_cases: int = 10_000) -> dict[str, float]:
    from streamlit.testing.v1 import AppTest

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = write_suite(Path(tmp) / "synthetic", n_cases)
        suite = timed("load suite", lambda: load_suite(root), figures)
        judge = create_judge("offline")
        report = timed("judge (offline)", lambda: run_suite(suite, judge, Policy()), figures)
        n_claims = sum(len(a.claims) for a in report.analyses)
        print(f"{n_cases} cases, {n_claims} claims")
        db = str(Path(tmp) / "bench.db")
        with Store(db) as store:
            run_id = timed("save run to the store", lambda: store.save_run(report), figures)
        os.environ["HALGATE_DB"] = db

        at = AppTest.from_file(str(APP), default_timeout=300)
        timed("first render: Runs page", at.run, figures)
        assert not at.exception, at.exception
        at.switch_page("views/overview.py")
        timed("open run cold: read + apply reviews + Overview", at.run, figures)
        assert not at.exception, at.exception
        at.switch_page("views/claims.py")
        timed("first render: Claims explorer (builds table)", at.run, figures)
        assert not at.exception, at.exception
        at.switch_page("views/overview.py")
        timed("first render: Overview, run loaded", at.run, figures)
        at.switch_page("views/claims.py")
        timed("render: Claims explorer, table cached", at.run, figures)
        at.multiselect(key="f-verdict").set_value(["CONTRADICTED", "UNSUPPORTED"])
        at.multiselect(key="f-system").set_value(["candidate"])
        timed("filtered claims table (verdict + system)", at.run, figures)
        at.selectbox(key="f-citation").set_value("verified")
        timed("filtered claims table (+ citation)", at.run, figures)
        assert not at.exception, at.exception
        print(at.caption[0].value)
        at.switch_page("views/triage.py")
        timed("first render: Triage", at.run, figures)
        assert not at.exception, at.exception
        at.sidebar.text_input(key="reviewer_name").set_value("bench")
        at.text_area[0].input("bench overturn")
        key = next(s.key for s in at.selectbox if s.key and s.key.endswith("-verdict"))
        at.selectbox(key=key).set_value("SUPPORTED")
        button = next(b for b in at.button if b.label == "Overturn")
        timed("overturn in Triage until the banner updates", button.click().run, figures)
        assert not at.exception, at.exception
        print("cold-path breakdown (core functions the dashboard calls):")
        with Store(db) as store:
            judged = timed(
                "  store.load_report (parse + validate)", lambda: store.load_report(run_id), figures
            )
            history = store.override_history(run_id)
        timed(
            "  effective_report (apply + rescore)",
            lambda: eff.effective_report(judged, history),
            figures,
        )
        print(f"run {run_id}")
    ok_overview = figures["first render: Overview, run loaded"] < 3
    ok_filter = figures["filtered claims table (verdict + system)"] < 1
    print(
        f"targets: overview < 3 s {'met' if ok_overview else 'MISSED'}; "
        f"filtered table < 1 s {'met' if ok_filter else 'MISSED'}"
    )
    return figures


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
