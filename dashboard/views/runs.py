"""Runs: every run with its decision, trends across runs, and ways to add a run.

A run is added by evaluating a suite (a folder on the server or an uploaded zip) or by loading
a report JSON; either way it goes through the same halgate functions the CLI uses.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st
from halgate.dashboard import actions, components, loaders, state
from halgate.judges import judge_names
from halgate.models import Mode, RunRow
from halgate.present import judge_health_chart, rate_trend_chart, trend_rows

HEALTH_RUNS = 12
HEALTH_AUTO_CLAIMS = 50_000
# Shown whole at 1440 px (about 980 px beside the sidebar). The run id carries its creation
# time and a pairwise run says so in its rate; created, mode, pending reviews and override
# counts stay in the table's data.
RUN_COLUMNS = [
    "run",
    "suite",
    "judge",
    "decision",
    "as judged",
    "rate",
    "change",
    "reviewed",
    "sign-off",
]
RUN_CONFIG = {
    "run": st.column_config.TextColumn(width=170),
    "suite": st.column_config.TextColumn(width=100),
    "judge": st.column_config.TextColumn(width=130),
    "decision": st.column_config.TextColumn(width=115),
    "as judged": st.column_config.TextColumn(width=115),
    "rate": st.column_config.TextColumn(
        width=95, help="Gated system's share of claims hallucinated (effective verdicts)."
    ),
    "change": st.column_config.TextColumn(
        width=75, help="Candidate − baseline in percentage points; positive = worse."
    ),
    "reviewed": st.column_config.TextColumn(width=65, help="Of the claims in the review queue."),
    "sign-off": st.column_config.TextColumn(width=100),
}


def _rate(row: RunRow) -> str:
    """The gated rate as a percentage; a pairwise run has preferences, not a rate."""
    if row.micro_rate is not None:
        return f"{row.micro_rate:.1%}"
    return "n/a (pairwise)" if row.mode == Mode.PAIRWISE else "—"


def _change(change: float | None) -> str:
    """Candidate − baseline with its sign, in percentage points ("+21.2 pts")."""
    return "—" if change is None else f"{change * 100:+.1f} pts"


def _open_new_run(run_id: str, message: str) -> None:
    """After a run is stored: forget cached lists, select it, say so, and redraw."""
    loaders.invalidate(runs_changed=True)
    state.select_run(run_id)
    state.flash(message)
    st.rerun()


components.page_setup()
st.title("Runs")
state.show_flash()
db = state.db_path()
runs = loaders.run_rows(db)

if not runs:
    st.info(f"No runs in {db} yet. Start one or load a report below.")
else:
    table = pd.DataFrame(
        [
            {
                "run": r.run_id,
                "created": r.created_at,
                "suite": r.suite_name,
                "mode": r.mode.value,
                "judge": r.judge_id,
                "decision": r.status.value,
                "as judged": r.judged_status.value,
                "rate": _rate(r),
                "change": _change(r.rate_change),
                "reviewed": f"{r.n_review - r.pending_review} of {r.n_review}",
                "pending review": r.pending_review,
                "overrides": r.n_overrides,
                "sign-off": (r.signoff.value + (" (stale)" if r.signoff_stale else ""))
                if r.signoff
                else "",
            }
            for r in runs
        ]
    )
    st.dataframe(table, hide_index=True, column_order=RUN_COLUMNS, column_config=RUN_CONFIG)
    ids = [r.run_id for r in runs]
    current = state.selected_run()
    choice = st.selectbox(
        "Open run", ids, index=ids.index(current) if current in ids else 0, key="runs-open"
    )
    if st.button("Open", type="primary"):
        state.select_run(choice)
        st.switch_page("views/overview.py")

    trend, health = st.columns(2)
    components.chart(trend, rate_trend_chart(pd.DataFrame(trend_rows(runs))), key="trend")
    recent = runs[:HEALTH_RUNS]
    # Judge health needs each run's full report; read it without asking only when cheap.
    cheap = sum(r.n_claims for r in recent) <= HEALTH_AUTO_CLAIMS
    if cheap or health.button(f"Load judge health of the last {len(recent)} runs"):
        rows = [loaders.health_row(db, r.run_id, r.agreement) for r in recent]
        components.chart(health, judge_health_chart(pd.DataFrame(rows)), key="health")
    else:
        health.caption(
            f"Judge health reads {sum(r.n_claims for r in recent):,} claims; load it on demand."
        )

st.divider()
start, load = st.tabs(["Start a new run", "Load a report JSON"])

with start:
    with st.form("new-run"):
        source = st.radio(
            "Suite", ["Folder on this machine", "Upload a zipped suite"], key="nr-src"
        )
        folder = st.text_input(
            "Suite folder path",
            key="nr-folder",
            help="A folder under this server's suite roots (HALGATE_SUITE_ROOTS or "
            "[dashboard] suite_roots in halgate.toml; default: the folder the dashboard was "
            "started from). A relative path is looked for under each root.",
        )
        archive = st.file_uploader("Zipped suite", type=["zip"], key="nr-zip")
        c1, c2 = st.columns(2)
        names = judge_names()
        judge = c1.selectbox(
            "Judge",
            names,
            index=names.index("offline") if "offline" in names else 0,
            key="nr-judge",
            help="offline: embedded, no network; llm: OPENAI_* settings or halgate.toml, "
            "responses cached in this database.",
        )
        mode = c2.selectbox("Mode", ["compare", "gate", "consistency"], key="nr-mode")
        policy_choice = st.radio("Policy", actions.POLICY_CHOICES, key="nr-policy")
        policy_file = st.file_uploader("Policy TOML", type=["toml"], key="nr-policy-file")
        submitted = st.form_submit_button("Run", type="primary")
    if submitted:
        bar = st.progress(0.0, text="Loading the suite…")
        try:
            run_id = actions.start_run(
                db,
                folder=folder if source.startswith("Folder") else None,
                archive=archive.getvalue() if archive and source.startswith("Upload") else None,
                judge=judge,
                mode=mode,
                policy_choice=policy_choice,
                policy_toml=policy_file.getvalue() if policy_file else None,
                progress=lambda done, total: bar.progress(
                    done / max(total, 1), text=f"Judged {done} of {total} cases"
                ),
            )
        except actions.ActionError as exc:
            bar.empty()
            components.problems(str(exc))
        else:
            _open_new_run(run_id, f"Run {run_id} saved.")

with load:
    upload = st.file_uploader("Report JSON (from `halgate run --out`)", type=["json"], key="rep")
    if upload is not None and st.button("Load report", key="rep-load"):
        try:
            run_id = actions.import_report(db, upload.getvalue(), upload.name)
        except actions.ActionError as exc:
            components.problems(str(exc))
        else:
            _open_new_run(run_id, f"Report {upload.name} loaded as run {run_id}.")
