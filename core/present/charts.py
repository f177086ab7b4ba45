"""Charts as pure functions: report or DataFrame in, plotly Figure out.

Keeping them free of Streamlit lets tests check what a chart shows (its traces and numbers)
and lets the HTML report reuse them. Every chart states its empty case instead of failing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from ..models import SEVERITIES_DESC, HallucinationType, RunReport, Shift
from .tables import TRANSITION_STATES

BASELINE_COLOUR = "#8c9eff"
CANDIDATE_COLOUR = "#e4572e"
_LAYOUT = {"margin": {"l": 40, "r": 10, "t": 40, "b": 40}, "height": 320}


def empty_figure(message: str) -> go.Figure:
    """A blank figure that says why it is blank."""
    fig = go.Figure()
    fig.add_annotation(text=message, showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    fig.update_layout(xaxis_visible=False, yaxis_visible=False, **_LAYOUT)
    return fig


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
    fig.update_layout(title=title, barmode="group", yaxis_title="hallucinated claims", **_LAYOUT)
    return fig


def _labels(report: RunReport) -> tuple[str, str]:
    c = report.comparison
    return (c.baseline, c.candidate) if c else ("baseline", "candidate")


def severity_shift_chart(report: RunReport) -> go.Figure:
    """Hallucinated claims per severity, baseline vs candidate, worst severity first."""
    if report.comparison is None:
        return empty_figure("severity shift needs a compare run")
    order = [s.value for s in SEVERITIES_DESC]
    return shift_chart(report.comparison.severity_shift, "per severity", order, _labels(report))


def type_shift_chart(report: RunReport) -> go.Figure:
    """Hallucinated claims per hallucination type, baseline vs candidate."""
    if report.comparison is None:
        return empty_figure("type shift needs a compare run")
    order = [t.value for t in HallucinationType]
    return shift_chart(
        report.comparison.type_shift, "per hallucination type", order, _labels(report)
    )


def tag_shift_chart(report: RunReport, top: int = 15) -> go.Figure:
    """Hallucinated claims per case tag, the ``top`` tags with the largest change first."""
    if report.comparison is None:
        return empty_figure("tag shift needs a compare run")
    shifts = report.comparison.tag_shift
    order = sorted(shifts, key=lambda k: (-abs(shifts[k].delta), k))[:top]
    return shift_chart(shifts, "per case tag", order, _labels(report))


def rate_trend_chart(rates: pd.DataFrame, column: str = "micro_rate") -> go.Figure:
    """A line per system role of ``column`` across runs (rows from ``tables.rate_rows``)."""
    if rates.empty or column not in rates:
        return empty_figure("no runs yet")
    fig = go.Figure()
    data = rates.sort_values("created_at")
    for role, part in data.groupby("role", sort=True):
        fig.add_trace(
            go.Scatter(
                name=str(role),
                x=part["run_id"],
                y=part[column],
                mode="lines+markers",
                customdata=part[["system"]],
                hovertemplate="%{x}<br>%{customdata[0]}: %{y:.1%}<extra></extra>",
            )
        )
    fig.update_layout(
        title=f"{column.replace('_', ' ')} across runs",
        yaxis_tickformat=".0%",
        xaxis_title="run",
        **_LAYOUT,
    )
    return fig


HEALTH_METRICS = [
    "validation_failures",
    "repairs",
    "harness_errors",
    "unverified_citations",
    "pairwise_disagreements",
]


def judge_health_chart(health: pd.DataFrame) -> go.Figure:
    """Judge drift signals per run: counts as bars, the overturned share as a line (right axis)."""
    if health.empty:
        return empty_figure("no runs yet")
    data = health.sort_values("created_at")
    fig = go.Figure()
    for metric in HEALTH_METRICS:
        if metric in data:
            fig.add_trace(go.Bar(name=metric.replace("_", " "), x=data["run_id"], y=data[metric]))
    if "overturned_share" in data:
        fig.add_trace(
            go.Scatter(
                name="share overturned by reviewers",
                x=data["run_id"],
                y=data["overturned_share"],
                mode="lines+markers",
                yaxis="y2",
            )
        )
    fig.update_layout(
        title="judge health across runs",
        barmode="group",
        yaxis_title="count",
        yaxis2={"overlaying": "y", "side": "right", "tickformat": ".0%", "range": [0, 1]},
        **_LAYOUT,
    )
    return fig


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
    fig = go.Figure(
        go.Heatmap(
            z=counts.values,
            x=keep_cols,
            y=keep_rows,
            text=counts.values,
            texttemplate="%{text}",
            colorscale="Reds",
            showscale=False,
            hovertemplate="baseline %{y} → candidate %{x}: %{z} case(s)<extra></extra>",
        )
    )
    fig.update_layout(
        title="worst verdict per case: baseline → candidate",
        xaxis_title="candidate",
        yaxis_title="baseline",
        yaxis_autorange="reversed",
        **_LAYOUT,
    )
    return fig
