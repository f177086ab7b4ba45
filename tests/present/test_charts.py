"""Charts are pure functions: the figure shows exactly the report's numbers, in a stable order."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from halgate.models.review import RunRow
from halgate.present.charts import (
    HEALTH_METRICS,
    empty_message,
    judge_health_chart,
    rate_trend_chart,
    severity_shift_chart,
    tag_shift_chart,
    transitions_chart,
    trend_column,
    type_shift_chart,
)
from halgate.present.tables import judge_health_row, rate_rows, trend_rows, verdict_transitions


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


def test_shift_charts_count_whole_claims_with_the_legend_above_the_bars(make_report):
    """At 1024 px a legend beside the bars took a third of a chart, and two claims were
    drawn on an axis stepping by 0.5."""
    for chart in (severity_shift_chart, type_shift_chart, tag_shift_chart):
        layout = chart(make_report()).layout
        assert layout.yaxis.tickformat == "d" and layout.yaxis.dtick == 1
        assert layout.legend.orientation == "h" and layout.legend.yanchor == "bottom"


def test_shift_charts_say_why_they_are_empty_without_a_comparison(make_report):
    report = make_report().model_copy(update={"comparison": None})
    for chart in (severity_shift_chart, type_shift_chart, tag_shift_chart):
        fig = chart(report)
        assert fig.data == ()
        assert "compare run" in fig.layout.annotations[0].text


def _row(
    run_id: str,
    rate: float,
    change: float | None,
    at: str = "2026-01-01T00:00",
    suite: str = "s",
    **more,
) -> RunRow:
    return RunRow(
        **more,
        run_id=run_id,
        created_at=f"{at}:00+00:00",
        mode="compare",
        suite_name=suite,
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


def _lines(fig: go.Figure) -> dict[str, list[tuple[str, float]]]:
    """Each trace as (run id, value) points in the order it draws them."""
    return {t.name: [(c[0], y) for c, y in zip(t.customdata, t.y, strict=True)] for t in fig.data}


def test_rate_trend_draws_one_line_per_suite_and_role_in_time_order():
    # newest first, as the store lists them; run ids sort differently from the times
    runs = [
        _row("b-late", 0.30, 0.10, at="2026-01-03T09:00"),
        _row("z-other", 0.50, None, at="2026-01-02T12:00", suite="other"),
        _row("a-mid", 0.25, None, at="2026-01-02T09:00"),
        _row("y-other", 0.40, None, at="2026-01-01T12:00", suite="other"),
        _row("c-early", 0.20, 0.05, at="2026-01-01T09:00"),
    ]
    fig = rate_trend_chart(pd.DataFrame(trend_rows(runs)))
    lines = _lines(fig)
    assert lines["s · candidate"] == [("c-early", 0.20), ("a-mid", 0.25), ("b-late", 0.30)]
    assert lines["other · candidate"] == [("y-other", 0.40), ("z-other", 0.50)]
    base = lines["s · baseline"]
    assert [r for r, _ in base] == ["c-early", "b-late"]
    assert [round(y, 9) for _, y in base] == [0.15, 0.20]
    for t in fig.data:  # a time axis, so the order is the times', whatever the run ids
        assert list(t.x) == sorted(t.x)
    assert "claims hallucinated" in fig.layout.title.text
    assert fig.layout.legend.orientation == "h" and fig.layout.legend.y >= 1


def test_rate_trend_says_why_it_is_empty_with_no_run_or_one_run_per_suite():
    assert empty_message(rate_trend_chart(pd.DataFrame())).startswith("No runs yet")
    one = rate_trend_chart(pd.DataFrame(trend_rows([_row("r1", 0.2, 0.1)])))
    assert one.data == () and "needs two runs of one suite" in empty_message(one)
    apart = [_row("r1", 0.2, None), _row("r2", 0.3, None, suite="other")]
    assert empty_message(rate_trend_chart(pd.DataFrame(trend_rows(apart))))
    two = rate_trend_chart(pd.DataFrame(trend_rows([_row("r1", 0.2, None), _row("r2", 0.3, None)])))
    assert empty_message(two) is None and len(two.data) == 1


def test_rate_trend_plots_the_gated_measure_answers_by_default(make_report):
    """#11: the trend shows what gates; both rates are in the rows, baselines by difference."""
    runs = [
        _row("r2", 0.30, 0.10, at="2026-01-02T09:00", answer_rate=0.5, answer_rate_change=0.25,
             gated_measure="answers"),
        _row("r1", 0.20, 0.05, at="2026-01-01T09:00", answer_rate=0.4, answer_rate_change=0.2,
             gated_measure="answers"),
    ]  # fmt: skip
    rates = pd.DataFrame(trend_rows(runs))
    assert trend_column(rates) == "answer_rate"
    fig = rate_trend_chart(rates)
    assert fig.layout.title.text == "answers with a hallucination (gated) across runs, per suite"
    lines = _lines(fig)
    assert lines["s · candidate"] == [("r1", 0.4), ("r2", 0.5)]
    assert [round(y, 9) for _, y in lines["s · baseline"]] == [0.2, 0.25]
    claims = rate_trend_chart(rates, "micro_rate")
    assert claims.layout.title.text == "claims hallucinated across runs, per suite"
    assert _lines(claims)["s · candidate"] == [("r1", 0.2), ("r2", 0.3)]
    # a run's own report gives the same rows (the HTML report and benchmarks use them)
    report = make_report()
    [base, cand] = sorted(rate_rows(report), key=lambda r: r["role"])
    assert cand["answer_rate"] == report.rates["candidate"].answer_level_rate
    assert cand["gated_measure"] == "answers" and base["role"] == "baseline"


def test_rate_trend_follows_the_newest_run_that_says_what_gates():
    claims = {"gated_measure": "claims", "answer_rate": 0.4}
    runs = [
        _row("new", 0.3, None, at="2026-01-03T09:00", **claims),
        _row("mid", 0.2, None, at="2026-01-02T09:00", answer_rate=0.5, gated_measure="answers"),
    ]
    assert trend_column(pd.DataFrame(trend_rows(runs))) == "micro_rate"
    assert "(gated)" in rate_trend_chart(pd.DataFrame(trend_rows(runs))).layout.title.text


def test_runs_stored_without_the_answer_level_rate_trend_the_claims_unmarked():
    """Older stored summaries say neither the answer-level rate nor the gated measure."""
    runs = [_row("r2", 0.3, None, at="2026-01-02T09:00"), _row("r1", 0.2, None)]
    rates = pd.DataFrame(trend_rows(runs))
    assert trend_column(rates) == "micro_rate"
    fig = rate_trend_chart(rates)
    assert fig.layout.title.text == "claims hallucinated across runs, per suite"
    # asked for the answer-level trend, the chart says why it has nothing to draw
    assert "needs two runs" in empty_message(rate_trend_chart(rates, "answer_rate"))


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
    assert list(fig.layout.yaxis2.range) == [0, 1]


def test_judge_health_shows_only_the_signals_a_run_produced(make_report):
    """The offline judge makes no model call (no repairs) and a compare run has no pairwise
    disagreements: those series are left out, not drawn as zeros; none is never produced."""
    row = judge_health_row(make_report())
    assert row["repairs"] is None and row["pairwise_disagreements"] is None
    assert "validation_failures" not in row
    fig = judge_health_chart(pd.DataFrame([row]))
    assert [t.name for t in fig.data] == ["harness errors", "unverified citations"]
    assert not any("validation" in name for name in HEALTH_METRICS)


def test_judge_health_with_all_zero_counts_has_a_count_axis_from_zero_and_a_clear_legend(
    make_report,
):
    rows = [judge_health_row(make_report(run_id=f"2026010{i}T000000Z-aaaaaa")) for i in range(1, 4)]
    fig = judge_health_chart(pd.DataFrame(rows))
    assert all(list(t.y) == [0, 0, 0] for t in fig.data)
    y = fig.layout.yaxis
    assert list(y.range) == [0, 1] and y.rangemode == "tozero" and y.dtick == 1
    legend = fig.layout.legend  # a row above the plot, clear of every axis label
    assert legend.orientation == "h" and legend.y >= 1 and legend.yanchor == "bottom"
    assert fig.layout.margin.t >= 80
    assert "all zero" in fig.layout.annotations[0].text
    assert fig.layout.xaxis.categoryarray == tuple(r["run_id"] for r in rows)


def test_judge_health_says_why_it_is_empty_without_runs():
    assert empty_message(judge_health_chart(pd.DataFrame())).startswith("No runs yet")


def test_transitions_heatmap_counts_every_case_once(make_report):
    report = make_report()
    frame = verdict_transitions(report)
    assert list(frame["baseline"]) == ["SUPPORTED"] * 3
    assert list(frame["candidate"]) == ["CONTRADICTED", "CONTRADICTED", "SUPPORTED"]
    fig = transitions_chart(frame)
    counts = fig.data[0].text
    assert sum(map(sum, counts)) == len(report.cases)
    row = list(fig.data[0].y).index("SUPPORTED")
    cell = dict(zip(fig.data[0].x, counts[row], strict=True))
    assert cell == {"CONTRADICTED": 2, "SUPPORTED": 1}
    # The colour is the direction: unchanged is neutral (0), worse positive (red).
    colour = dict(zip(fig.data[0].x, fig.data[0].z[row], strict=True))
    assert colour == {"CONTRADICTED": 2, "SUPPORTED": 0}
    assert fig.data[0].zmid == 0
