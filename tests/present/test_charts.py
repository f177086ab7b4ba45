"""Charts are pure functions: the figure shows exactly the report's numbers, in a stable order."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from halgate.models.review import RunRow
from halgate.present.charts import (
    judge_health_chart,
    rate_trend_chart,
    severity_shift_chart,
    tag_shift_chart,
    transitions_chart,
    type_shift_chart,
)
from halgate.present.tables import judge_health_row, trend_rows, verdict_transitions


def bars(fig: go.Figure) -> dict[str, dict[str, int]]:
    return {t.name: dict(zip(t.x, t.y, strict=True)) for t in fig.data}


def test_severity_shift_chart_shows_baseline_and_candidate_per_severity_worst_first(make_report):
    report = make_report()  # two CRITICAL contradictions in the candidate, none in the baseline
    fig = severity_shift_chart(report)
    shift = report.comparison.severity_shift
    assert [t.name for t in fig.data] == ["baseline", "candidate"]
    assert list(fig.data[0].x) == [k for k in ("CRITICAL", "HIGH", "MEDIUM", "LOW") if k in shift]
    assert bars(fig)["candidate"]["CRITICAL"] == shift["CRITICAL"].candidate == 2
    assert bars(fig)["baseline"]["CRITICAL"] == 0
    assert fig.data[1].text[0] == "+2"


def test_type_and_tag_shift_charts_follow_the_comparison(make_report):
    report = make_report()
    t = bars(type_shift_chart(report))
    for key, s in report.comparison.type_shift.items():
        assert (t["baseline"][key], t["candidate"][key]) == (s.baseline, s.candidate)
    g = tag_shift_chart(report)
    tags = report.comparison.tag_shift
    assert set(g.data[0].x) == set(tags)
    biggest = max(tags.values(), key=lambda s: abs(s.delta))
    assert abs(int(g.data[1].text[0])) == abs(biggest.delta)  # largest change first


def test_shift_charts_say_why_they_are_empty_without_a_comparison(make_report):
    report = make_report().model_copy(update={"comparison": None})
    for chart in (severity_shift_chart, type_shift_chart, tag_shift_chart):
        fig = chart(report)
        assert fig.data == ()
        assert "compare run" in fig.layout.annotations[0].text


def _row(run_id: str, rate: float, change: float | None) -> RunRow:
    return RunRow(
        run_id=run_id,
        created_at=run_id,
        mode="compare",
        suite_name="s",
        suite_hash="h",
        judge_id="offline",
        gated_system="candidate",
        judged_status="FAILED",
        status="FAILED",
        exit_code=1,
        micro_rate=rate,
        rate_change=change,
        n_claims=10,
        n_review=1,
        pending_review=1,
        n_overrides=0,
        agreement=None,
    )


def test_rate_trend_plots_candidate_and_derived_baseline_rate_per_run():
    rows = trend_rows([_row("r2", 0.30, 0.10), _row("r1", 0.20, None)])
    fig = rate_trend_chart(pd.DataFrame(rows))
    lines = {t.name: dict(zip(t.x, t.y, strict=True)) for t in fig.data}
    assert lines["candidate"] == {"r1": 0.20, "r2": 0.30}
    assert lines["baseline"] == {"r2": 0.30 - 0.10}
    assert rate_trend_chart(pd.DataFrame()).layout.annotations[0].text == "no runs yet"


def test_judge_health_chart_counts_errors_and_puts_overturned_share_on_its_own_axis(make_report):
    report = make_report()
    broken = report.analyses[0].model_copy(update={"harness_error": "timeout"})
    report = report.model_copy(
        update={"analyses": [broken, *report.analyses[1:]], "usage": {"repairs": 3}}
    )
    row = judge_health_row(report, agreement=0.75)
    assert (row["harness_errors"], row["repairs"], row["overturned_share"]) == (1, 3, 0.25)
    fig = judge_health_chart(pd.DataFrame([row]))
    by_name = {t.name: t for t in fig.data}
    assert list(by_name["harness errors"].y) == [1]
    assert list(by_name["repairs"].y) == [3]
    assert by_name["share overturned by reviewers"].yaxis == "y2"


def test_transitions_heatmap_counts_every_case_once(make_report):
    report = make_report()
    frame = verdict_transitions(report)
    assert list(frame["baseline"]) == ["SUPPORTED"] * 3
    assert list(frame["candidate"]) == ["CONTRADICTED", "CONTRADICTED", "SUPPORTED"]
    fig = transitions_chart(frame)
    z = fig.data[0].z
    assert sum(map(sum, z)) == len(report.cases)
    cell = dict(zip(fig.data[0].x, z[list(fig.data[0].y).index("SUPPORTED")], strict=True))
    assert cell == {"CONTRADICTED": 2, "SUPPORTED": 1}
