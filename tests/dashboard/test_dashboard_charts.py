"""#13 item 5 on the Runs page: a trend needs two runs of a suite, and says so until then."""

from __future__ import annotations

import json

from halgate.store import Store

from ..conftest import build_report


def _figures(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def test_runs_page_explains_the_missing_trend_then_draws_one_line_per_suite(app, dashboard_db):
    db, _ = dashboard_db
    infos = [i.value for i in app.info]
    assert any("no suite run twice yet" in i for i in infos), infos
    [health] = _figures(app)  # one run: judge health, no trend chart
    assert health["layout"]["yaxis"]["range"] == [0, 1]  # all zero: 0..1, never -1..1
    with Store(db) as store:  # a second run of the same suite (name "tiny"), a day later
        store.save_run(
            build_report(run_id="20990101T000000Z-bbbbbb").model_copy(
                update={"created_at": "2099-01-01T00:00:00+00:00"}
            )
        )
    app.run()
    assert not app.exception
    assert not any("no suite run twice yet" in i.value for i in app.info)
    trend = next(f for f in _figures(app) if "across runs, per suite" in str(f["layout"]["title"]))
    names = {t["name"] for t in trend["data"]}
    assert names == {"tiny · candidate", "tiny · baseline"}
