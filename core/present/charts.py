"""Charts as pure functions: report or DataFrame in, plotly Figure out.

Keeping them free of Streamlit lets tests check what a chart shows (its traces and numbers)
and lets the HTML report reuse them. Every chart states its empty case instead of failing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from ..models import SEVERITIES_DESC, HallucinationType, RunReport, Shift
from ..review.overview import RunOverview
from .tables import TRANSITION_STATES

BASELINE_COLOUR = "#8c9eff"
CANDIDATE_COLOUR = "#e4572e"
_MARGIN = {"l": 40, "r": 10, "t": 40, "b": 40}
_LAYOUT = {"margin": _MARGIN, "height": 320}


# Legends sit in a row between the title and the plot, where they cover no axis label, tick
# or bar (the default, right of the plot, covers a right-hand axis's labels).
_LEGEND = {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02, "yanchor": "bottom"}
_TOP_LEGEND_LAYOUT = {
    **_LAYOUT,
    "margin": {**_MARGIN, "t": 90},
    "legend": _LEGEND,
    "title_y": 0.97,
    "title_yanchor": "top",
}


def empty_figure(message: str) -> go.Figure:
    """A blank figure that says why it is blank (``empty_message`` reads the reason back)."""
    fig = go.Figure()
    fig.add_annotation(text=message, showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    fig.update_layout(xaxis_visible=False, yaxis_visible=False, meta={"empty": message}, **_LAYOUT)
    return fig


def empty_message(fig: go.Figure) -> str | None:
    """Why a chart has nothing to draw, or None when it does: faces show the message instead."""
    meta = fig.layout.meta
    return meta.get("empty") if isinstance(meta, dict) else None


def _times(created: pd.Series) -> pd.Series:
    """Creation times as UTC timestamps, for a time axis and ordering."""
    return pd.to_datetime(created, utc=True, format="ISO8601", errors="coerce")


def _count_axis(top: float) -> dict[str, object]:
    """A count axis from 0: whole-number ticks, and 0..1 rather than -1..1 when all are 0."""
    axis: dict[str, object] = {"rangemode": "tozero", "title": "count", "tickformat": "d"}
    if top <= 0:
        axis |= {"range": [0, 1], "dtick": 1}
    elif top <= 5:
        axis |= {"range": [0, top * 1.15], "dtick": 1}
    return axis


def shift_chart(
    shifts: Mapping[str, Shift],
    title: str,
    order: Sequence[str] | None = None,
    labels: tuple[str, str] = ("baseline", "candidate"),
) -> go.Figure:
    """Grouped bars: baseline vs candidate count for each category (severity, type or tag)."""
    keys = [k for k in (order or sorted(shifts)) if k in shifts]
    if not keys:
        return empty_figure(f"{title}: nothing to compare")
    fig = go.Figure(
        [
            go.Bar(
                name=labels[0],
                x=keys,
                y=[shifts[k].baseline for k in keys],
                marker_color=BASELINE_COLOUR,
            ),
            go.Bar(
                name=labels[1],
                x=keys,
                y=[shifts[k].candidate for k in keys],
                marker_color=CANDIDATE_COLOUR,
                text=[f"{shifts[k].delta:+d}" for k in keys],
                textposition="outside",
            ),
        ]
    )
    top = max(max(shifts[k].baseline, shifts[k].candidate) for k in keys)
    fig.update_layout(
        title=title,
        barmode="group",
        yaxis=_count_axis(top) | {"title": "hallucinated claims"},  # whole claims: 0, 1, 2
        **_TOP_LEGEND_LAYOUT,  # above the bars, not beside them: the bars keep the width
    )
    return fig


def _labels(report: RunReport | RunOverview) -> tuple[str, str]:
    c = report.comparison
    return (c.baseline, c.candidate) if c else ("baseline", "candidate")


def severity_shift_chart(report: RunReport | RunOverview) -> go.Figure:
    """Hallucinated claims per severity, baseline vs candidate, worst severity first."""
    if report.comparison is None:
        return empty_figure("severity shift needs a compare run")
    order = [s.value for s in SEVERITIES_DESC]
    return shift_chart(report.comparison.severity_shift, "per severity", order, _labels(report))


def type_shift_chart(report: RunReport | RunOverview) -> go.Figure:
    """Hallucinated claims per hallucination type, baseline vs candidate."""
    if report.comparison is None:
        return empty_figure("type shift needs a compare run")
    order = [t.value for t in HallucinationType]
    return shift_chart(
        report.comparison.type_shift, "per hallucination type", order, _labels(report)
    )


def tag_shift_chart(report: RunReport | RunOverview, top: int = 15) -> go.Figure:
    """Hallucinated claims per case tag, the ``top`` tags with the largest change first."""
    if report.comparison is None:
        return empty_figure("tag shift needs a compare run")
    shifts = report.comparison.tag_shift
    order = sorted(shifts, key=lambda k: (-abs(shifts[k].delta), k))[:top]
    return shift_chart(shifts, "per case tag", order, _labels(report))


TREND_COLUMN_TITLES = {
    "answer_rate": "answers with a hallucination",
    "micro_rate": "claims hallucinated",
    "fabrication_rate": "fabrication rate",
    "contradiction_rate": "contradiction rate",
}
TREND_COLUMNS = {"answers": "answer_rate", "claims": "micro_rate"}
"""The trend column of each measure a gate can use (``Policy.gate_on``)."""
_ROLE_DASH = {"candidate": "solid", "gated": "solid", "baseline": "dot"}


def _gated_column(rates: pd.DataFrame) -> str | None:
    """The column of the measure the newest run that says so gated on, if it has values."""
    if rates.empty or "gated_measure" not in rates:
        return None
    known = rates.dropna(subset=["gated_measure"])
    if known.empty:
        return None
    newest = known.assign(time=_times(known["created_at"])).sort_values(["time", "created_at"])
    column = TREND_COLUMNS.get(str(newest["gated_measure"].iloc[-1]))
    return column if column in rates and rates[column].notna().any() else None


def trend_column(rates: pd.DataFrame) -> str:
    """The column of the measure the newest run's gate used, so a trend shows what gates:
    answers with a hallucination (the default) or claims hallucinated. Runs that do not say
    (stored before runs were listed with it), or have no answer-level figure, show claims."""
    return _gated_column(rates) or "micro_rate"


def rate_trend_chart(rates: pd.DataFrame, column: str | None = None) -> go.Figure:
    """``column`` across runs on a time axis (default: the gated measure, ``trend_column``):
    one line per suite and system role, so two suites never share a line (rows from
    ``tables.trend_rows`` or ``tables.rate_rows``). The title says when it is the measure the
    newest run's gate used.

    With no suite run twice there is no trend to draw, and the figure says so instead.
    """
    gated = _gated_column(rates)
    column = column or gated or "micro_rate"
    title = TREND_COLUMN_TITLES.get(column, column.replace("_", " "))
    if rates.empty or column not in rates:
        return empty_figure("No runs yet: the trend appears once a suite has been run twice.")
    data = rates.assign(suite=rates.get("suite", "suite"), time=_times(rates["created_at"]))
    data = data.dropna(subset=[column]).sort_values(["time", "created_at", "run_id"])
    if data.empty or data.groupby("suite")["run_id"].nunique().max() < 2:
        n = data["run_id"].nunique() if not data.empty else 0
        return empty_figure(
            f"{n} run(s), no suite run twice yet: the {title} trend needs two runs of one suite."
        )
    x = "time" if data["time"].notna().all() else "created_at"
    fig = go.Figure()
    for (suite, role), part in data.groupby(["suite", "role"], sort=True):
        fig.add_trace(
            go.Scatter(
                name=f"{suite} · {role}",
                legendgroup=str(suite),
                x=part[x],
                y=part[column],
                mode="lines+markers",
                line={"dash": _ROLE_DASH.get(str(role), "solid")},
                customdata=part[["run_id", "system"]],
                hovertemplate="%{customdata[0]}<br>%{customdata[1]}: %{y:.1%}<extra></extra>",
            )
        )
    mark = " (gated)" if column == gated else ""
    fig.update_layout(
        title=f"{title}{mark} across runs, per suite",
        yaxis={"tickformat": ".0%", "rangemode": "tozero", "title": title},
        xaxis_title="run time (UTC)",
        **_TOP_LEGEND_LAYOUT,
    )
    if x == "created_at":
        fig.update_xaxes(categoryorder="array", categoryarray=list(dict.fromkeys(data[x])))
    return fig


HEALTH_METRICS = [
    "repairs",
    "harness_errors",
    "unverified_citations",
    "pairwise_disagreements",
]
"""Judge-health counts, drawn when a run produced them (``tables.judge_health_row`` leaves a
signal None for a run that cannot have it: repairs without LLM calls, disagreements outside
pairwise mode)."""


def judge_health_chart(health: pd.DataFrame) -> go.Figure:
    """Judge drift signals per run, oldest first: counts as bars (only the signals some run
    produced), the share overturned by reviewers as a line on its own 0-100% axis."""
    if health.empty:
        return empty_figure("No runs yet: judge health appears after the first run.")
    data = health.assign(time=_times(health["created_at"])).sort_values(
        ["time", "created_at", "run_id"]
    )
    metrics = [m for m in HEALTH_METRICS if m in data and data[m].notna().any()]
    runs = list(data["run_id"])
    fig = go.Figure()
    for metric in metrics:
        fig.add_trace(go.Bar(name=metric.replace("_", " "), x=runs, y=data[metric].fillna(0)))
    overturned = "overturned_share" in data and data["overturned_share"].notna().any()
    if overturned:
        fig.add_trace(
            go.Scatter(
                name="share overturned by reviewers",
                x=runs,
                y=data["overturned_share"],
                mode="lines+markers",
                yaxis="y2",
            )
        )
    top = float(data[metrics].max().max()) if metrics else 0.0
    fig.update_layout(
        title="judge health across runs",
        barmode="group",
        yaxis=_count_axis(top),
        xaxis={"categoryorder": "array", "categoryarray": runs, "title": "run"},
        **_TOP_LEGEND_LAYOUT,
    )
    if overturned:
        fig.update_layout(
            yaxis2={"overlaying": "y", "side": "right", "tickformat": ".0%", "range": [0, 1]}
        )
    if metrics and top <= 0 and not overturned:
        fig.add_annotation(
            text="all zero: " + ", ".join(m.replace("_", " ") for m in metrics),
            showarrow=False,
            x=0.5,
            y=0.5,
            xref="paper",
            yref="paper",
        )
    return fig


_DIVERGING = [[0.0, "#2e7d32"], [0.5, "#f2f2f2"], [1.0, "#c62828"]]
_WORST_FIRST = TRANSITION_STATES[: TRANSITION_STATES.index("SUPPORTED") + 1]


def _direction(baseline: str, candidate: str) -> int:
    """+1 when the candidate's worst verdict is worse than the baseline's, -1 when better,
    0 when the same or not comparable (no claims, an error)."""
    if baseline not in _WORST_FIRST or candidate not in _WORST_FIRST:
        return 0
    return (_WORST_FIRST.index(candidate) < _WORST_FIRST.index(baseline)) - (
        _WORST_FIRST.index(candidate) > _WORST_FIRST.index(baseline)
    )


def transitions_chart(transitions: pd.DataFrame) -> go.Figure:
    """Heatmap of cases by baseline answer state (rows) and candidate state (columns)."""
    if transitions.empty:
        return empty_figure("verdict transitions need a compare run")
    counts = (
        pd.crosstab(transitions["baseline"], transitions["candidate"])
        .reindex(index=TRANSITION_STATES, columns=TRANSITION_STATES, fill_value=0)
        .fillna(0)
        .astype(int)
    )
    keep_rows = [s for s in TRANSITION_STATES if counts.loc[s].sum() > 0]
    keep_cols = [s for s in TRANSITION_STATES if counts[s].sum() > 0]
    counts = counts.loc[keep_rows, keep_cols]
    # Colour says the direction, not the size: unchanged cases (the diagonal, usually the
    # biggest cell) are neutral grey, worse red, better green; the count is the cell's text.
    values = counts.to_numpy()
    signed = [
        [int(values[i][j]) * _direction(b, c) for j, c in enumerate(keep_cols)]
        for i, b in enumerate(keep_rows)
    ]
    fig = go.Figure(
        go.Heatmap(
            z=signed,
            x=keep_cols,
            y=keep_rows,
            text=counts.values,
            texttemplate="%{text}",
            colorscale=_DIVERGING,
            zmid=0,
            showscale=False,
            hovertemplate="baseline %{y} → candidate %{x}: %{text} case(s)<extra></extra>",
        )
    )
    fig.update_layout(
        title="worst verdict per case",  # the axes say baseline and candidate
        xaxis_title="candidate",
        yaxis_title="baseline",
        yaxis_autorange="reversed",
        **_LAYOUT,
    )
    return fig
