"""Runs: every run with its decision, trends across runs, and ways to add a run.

A run is added by evaluating a suite (a folder on the server or an uploaded zip) or by loading
a report JSON; either way it goes through the same halgate functions the CLI uses.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st
from halgate.dashboard import actions, components, loaders, state
from halgate.database import mask_url
from halgate.judges import judge_names
from halgate.models import Mode, RunRow
from halgate.present import (
    TREND_COLUMN_TITLES,
    TREND_COLUMNS,
    judge_health_chart,
    rate_trend_chart,
    trend_column,
    trend_rows,
)

HEALTH_RUNS = 12
HEALTH_AUTO_CLAIMS = 50_000
# Shown whole at 1440 px (about 980 px beside the sidebar). The run id carries its creation
# time; each rate cell holds the gated system's rate and, in compare mode, its change; created,
# mode, pending reviews and override counts stay in the table's data.
ANSWERS = "answers"
CLAIMS = "claims"
RATES_LEGEND = (
    "**answers**: share of answers with a hallucination · **claims**: share of claims "
    "hallucinated (the gated system's, effective verdicts) · in brackets: candidate − baseline "
    "in percentage points, positive = worse · ● the measure the gate uses"
)
# What a reviewer looks for first comes first, so at 1024 px (about 700 px of table) the
# decision, both rates, the reviews and the sign-off show without scrolling sideways.
RUN_COLUMNS = [
    "run",
    "decision",
    ANSWERS,
    CLAIMS,
    "reviewed",
    "sign-off",
    "suite",
    "judge",
    "as judged",
]
_RATE_HELP = (
    "Gated system's {what} (effective verdicts), then in brackets candidate − baseline in "
    "percentage points (positive = worse). ● marks the measure the gate uses; n/a: the run "
    "has none (pairwise) or was stored without it."
)
RUN_CONFIG = {
    "run": st.column_config.TextColumn(width=165),
    "suite": st.column_config.TextColumn(width=90),
    "judge": st.column_config.TextColumn(width=115),
    "decision": st.column_config.TextColumn(width=105),
    "as judged": st.column_config.TextColumn(width=105),
    ANSWERS: st.column_config.TextColumn(
        width=115, help=_RATE_HELP.format(what="share of answers with a hallucination")
    ),
    CLAIMS: st.column_config.TextColumn(
        width=115, help=_RATE_HELP.format(what="share of claims hallucinated")
    ),
    "reviewed": st.column_config.TextColumn(width=65, help="Of the items in the review queue."),
    "sign-off": st.column_config.TextColumn(width=90),
}

MODE_HELP = (
    "As `halgate run --mode`. compare: candidate vs baseline; gate: the candidate vs the "
    "documents; consistency: the candidate vs each case's reference answer; pairwise: which "
    "of baseline / candidate is more factual, judged in both orders (any judge: llm asks the "
    "model, offline and cascade prefer the answer with fewer severity-weighted "
    "hallucinations). Pairwise checks claims against the documents and the reference answer."
)


def _rate(row: RunRow, measure: str) -> str:
    """One measure's rate with its change ("● 20.8% (+5.0)"); a pairwise run has
    preferences, not a rate."""
    rate, change = (
        (row.answer_rate, row.answer_rate_change)
        if measure == "answers"
        else (row.micro_rate, row.rate_change)
    )
    if rate is None:
        return "n/a (pairwise)" if row.mode == Mode.PAIRWISE else "n/a"
    text = f"{rate:.1%}" + ("" if change is None else f" ({_change(change)})")
    return ("● " if row.gated_measure == measure else "") + text


def _change(change: float) -> str:
    """Candidate − baseline with its sign, in percentage points ("+21.2")."""
    return f"{change * 100:+.1f}"


def _open_new_run(run_id: str, message: str, kind: str = "success") -> None:
    """After a run is stored: forget cached lists, select it, say so, and redraw."""
    loaders.invalidate(runs_changed=True)
    state.select_run(run_id)
    state.flash(message, kind)
    st.rerun()


components.page_setup()
st.title("Runs")
state.show_flash()
db = state.db_path()
runs = loaders.run_rows(db)

if not runs:
    st.info(f"No runs in {mask_url(db)} yet. Start one or load a report below.")
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
                ANSWERS: _rate(r, "answers"),
                CLAIMS: _rate(r, "claims"),
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
    st.caption(RATES_LEGEND)
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
    rates = pd.DataFrame(trend_rows(runs))
    measures = list(TREND_COLUMNS.values())
    column = trend.radio(
        "Trend of",
        measures,
        index=measures.index(trend_column(rates)),
        format_func=TREND_COLUMN_TITLES.__getitem__,
        horizontal=True,
        key="runs-trend",
        help="Default: the measure the newest run's gate uses.",
    )
    components.chart(trend, rate_trend_chart(rates, column), key="trend")
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
        mode = c2.selectbox("Mode", actions.MODES, key="nr-mode", help=MODE_HELP)
        c3, c4 = st.columns(2)
        baseline = c3.text_input(
            "Baseline system",
            "baseline",
            key="nr-baseline",
            help="answers/NAME.jsonl; compare and pairwise set the candidate against it.",
        )
        candidate = c4.text_input(
            "Candidate system",
            "candidate",
            key="nr-candidate",
            help="answers/NAME.jsonl; the system gated (gate and consistency judge only it).",
        )
        policy_choice = st.radio("Policy", actions.POLICY_CHOICES, key="nr-policy")
        policy_file = st.file_uploader("Policy TOML", type=["toml"], key="nr-policy-file")
        submitted = st.form_submit_button("Run", type="primary")
    if submitted:
        bar = st.progress(0.0, text="Loading the suite…")
        try:
            run_id = actions.start_run(
                db,
                folder=folder if source.startswith("Folder") else None,
                archive=archive if archive and source.startswith("Upload") else None,
                judge=judge,
                mode=mode,
                baseline=baseline,
                candidate=candidate,
                policy_choice=policy_choice,
                policy_toml=policy_file.getvalue() if policy_file else None,
                progress=lambda done, total: bar.progress(
                    done / max(total, 1), text=f"Judged {done} of {total} cases"
                ),
                actor=state.reviewer(),
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
            run_id, known = actions.load_report_upload(
                db, upload.getvalue(), upload.name, actor=state.reviewer()
            )
        except actions.ActionError as exc:
            components.problems(str(exc))
        else:
            if known:
                said = f"Report {upload.name} was already stored as run {run_id}: nothing changed."
                _open_new_run(run_id, said, "info")
            else:
                _open_new_run(run_id, f"Report {upload.name} loaded as run {run_id}.")
