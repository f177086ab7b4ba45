"""Every dashboard page driven through Streamlit's AppTest on a real SQLite review database.

The database is built by running the real offline judge on the tiny suite (see conftest
``dashboard_db``): the candidate contradicts two CRITICAL medication facts, so the gate starts
FAILED, and its q3 answer carries an ``<img onerror>`` payload.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from halgate.dashboard import actions
from halgate.store import Store
from streamlit.testing.v1 import AppTest

from ..conftest import build_report, disagreeing_pair
from .conftest import goto

ANSWER = '<div class="hg-text hg-answer"'
PAGES = ["runs", "overview", "claims", "triage", "signoff", "pairwise", "selftest"]


def as_reviewer(at: AppTest, name: str) -> AppTest:
    at.sidebar.text_input(key="reviewer_name").set_value(name)
    return at


def banner(at: AppTest) -> str:
    return next(h.value for h in at.html if "hg-banner" in h.value)


def status(at: AppTest) -> str:
    return banner(at).split('data-status="')[1].split('"')[0]


def texts(elements) -> list[str]:
    return [e.value for e in elements]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_the_selected_run_without_error(app, page):
    goto(app, page)
    assert not app.error


def test_runs_page_lists_the_run_with_its_decision_and_selects_it(app, dashboard_db):
    _, run_id = dashboard_db
    table = app.dataframe[0].value
    assert list(table["run"]) == [run_id]
    assert list(table["decision"]) == ["FAILED"]
    assert app.sidebar.selectbox[0].value == run_id
    assert app.session_state["run_id"] == run_id


def test_open_button_switches_to_the_overview_of_the_chosen_run(app, dashboard_db):
    next(b for b in app.button if b.label == "Open").click().run()
    assert not app.exception
    assert app.title[0].value == "Overview"
    assert status(app) == "FAILED"


def test_overview_shows_every_reason_rates_with_interval_and_pending_reviews(app):
    goto(app, "overview")
    text = banner(app)
    assert status(app) == "FAILED"
    assert text.count('class="hg-reason') >= 3
    assert "block_on_severity" in text
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Pending review"] == "2"
    change = next(m for m in app.metric if m.label.startswith("Rate change"))
    assert change.value.startswith("+") and "95% CI" in change.delta
    assert len(app.get("plotly_chart")) == 4  # three severity-shift charts + transitions


def test_claims_explorer_filters_and_shows_side_by_side_evidence(app, dashboard_db):
    with Store(dashboard_db[0]) as store:
        report = store.load_report(dashboard_db[1])
    total = sum(len(a.claims) for a in report.analyses)
    goto(app, "claims")
    assert f"{total} of {total} claims match" in app.caption[0].value
    app.multiselect(key="f-verdict").set_value(["CONTRADICTED"]).run()
    assert f"2 of {total} claims match" in app.caption[0].value
    assert set(app.dataframe[0].value["verdict"]) == {"CONTRADICTED"}
    app.multiselect(key="f-verdict").set_value([])
    app.multiselect(key="f-case").set_value(["q3"])
    app.multiselect(key="f-system").set_value(["candidate"]).run()
    assert set(app.dataframe[0].value["case"]) == {"q3"}
    evidence = [
        h.value
        for h in app.html
        if h.value.startswith(('<div class="hg-text hg-answer"', '<div class="hg-text hg-doc"'))
    ]
    assert len(evidence) == 2  # the answer and its source, side by side


def test_untrusted_answer_html_is_shown_as_text(app):
    goto(app, "claims")
    app.multiselect(key="f-case").set_value(["q3"])
    app.multiselect(key="f-system").set_value(["candidate"]).run()
    answer = next(h.value for h in app.html if h.value.startswith(ANSWER))
    assert "<img" not in answer
    assert html.escape("<img src=x onerror=") in answer


def test_claims_explorer_override_form_records_a_confirmation(app, dashboard_db):
    db, run_id = dashboard_db
    as_reviewer(app, "ana")
    goto(app, "claims")
    app.selectbox(key="f-overridden").set_value("no").run()
    claim_id = app.selectbox(key="pick-").value
    next(b for b in app.button if b.label == "Confirm judge").click().run()
    assert not app.exception
    with Store(db) as store:
        (o,) = store.override_history(run_id)
    assert (o.claim_id, o.reviewer, o.verdict) == (claim_id, "ana", None)
    app.selectbox(key="f-overridden").set_value("yes").run()
    assert list(app.dataframe[0].value["claim_id"]) == [claim_id]


def _overturn(at: AppTest, verdict: str, comment: str) -> None:
    at.text_area[0].input(comment)
    key = next(s.key for s in at.selectbox if s.key and s.key.endswith("-verdict"))
    at.selectbox(key=key).set_value(verdict)
    next(b for b in at.button if b.label == "Overturn").click().run()
    assert not at.exception


def test_triage_overturn_updates_banner_and_progress_right_away(app, dashboard_db):
    db, run_id = dashboard_db
    as_reviewer(app, "ana")
    goto(app, "triage")
    assert status(app) == "FAILED"
    assert app.get("progress")[0].proto.text == "0 of 2 reviewed, 2 awaiting review"
    assert app.subheader[0].value.startswith("CRITICAL")
    _overturn(app, "SUPPORTED", "the leaflet supports it")
    assert "1 pending review" in banner(app)
    assert app.get("progress")[0].proto.text == "1 of 2 reviewed, 1 awaiting review"
    _overturn(app, "SUPPORTED", "also supported")
    assert status(app) == "PASSED"
    assert "Every claim in the queue has been reviewed." in texts(app.success)
    with Store(db) as store:
        assert [o.reviewer for o in store.override_history(run_id)] == ["ana", "ana"]


def test_triage_refuses_an_anonymous_review_and_an_overturn_without_a_change(app, dashboard_db):
    db, run_id = dashboard_db
    goto(app, "triage")
    _overturn(app, "SUPPORTED", "why")
    assert any("Enter your name" in e for e in texts(app.error))
    as_reviewer(app, "ana").run()
    app.text_area[0].input("no change chosen")
    key = next(s.key for s in app.selectbox if s.key and s.key.endswith("-verdict"))
    app.selectbox(key=key).set_value("(keep)")  # the refused form kept SUPPORTED
    next(b for b in app.button if b.label == "Overturn").click().run()
    assert any("choose a new verdict" in e for e in texts(app.error))
    with Store(db) as store:
        assert store.override_history(run_id) == []


def test_triage_skip_moves_to_the_next_claim(app):
    as_reviewer(app, "ana")
    goto(app, "triage")
    first = _on_screen(app)
    next(b for b in app.button if b.label == "Skip").click().run()
    assert _on_screen(app) != first


def _on_screen(at: AppTest) -> str:
    """The "claim ID · N left to review" caption of the item Triage shows."""
    return next(c.value for c in at.caption if c.value.startswith("claim "))


def _sign(at: AppTest, comment: str, label: str = "Approve", override_gate: bool = False) -> None:
    at.text_area(key="so-comment").input(comment)
    if override_gate:  # the fixture run is FAILED: approving it needs the acknowledgement
        at.checkbox(key="so-override-gate").check()
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception


def test_signoff_refused_for_a_non_manager(app, dashboard_db):
    db, run_id = dashboard_db
    as_reviewer(app, "mallory")
    goto(app, "signoff")
    _sign(app, "ship it")
    assert any("not a release manager" in e for e in texts(app.error))
    with Store(db) as store:
        assert store.signoffs(run_id) == []


def test_signoff_accepted_for_a_manager_and_marked_stale_after_an_override(app, dashboard_db):
    db, run_id = dashboard_db
    as_reviewer(app, "rita")
    goto(app, "signoff")
    _sign(app, "known issue, rejecting", label="Reject")
    assert any("REJECTED by rita" in s.replace("\\", "") for s in texts(app.error))
    with Store(db) as store:
        (s,) = store.signoffs(run_id)
        assert (s.reviewer, s.decision.value, s.decision_status.value) == (
            "rita",
            "REJECTED",
            "FAILED",
        )
        store.add_override(
            run_id, "q1/candidate/0", verdict="SUPPORTED", comment="x", reviewer="ana"
        )
    goto(app, "signoff")
    assert any(w.startswith("STALE") for w in texts(app.warning))


def test_release_managers_from_the_environment_may_sign_off(app, dashboard_db, monkeypatch):
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "omar, zoe")
    as_reviewer(app, "zoe")
    goto(app, "signoff")
    _sign(app, "approved after review", override_gate=True)
    assert any("APPROVE recorded by zoe" in s.replace("\\", "") for s in texts(app.success))


def test_logged_in_user_is_the_reviewer(app, dashboard_db):
    app.user = {"is_logged_in": True, "email": "rita", "email_verified": True, "name": "Rita"}
    goto(app, "signoff")
    assert "rita" in texts(app.sidebar.text)
    _sign(app, "approved", override_gate=True)
    with Store(dashboard_db[0]) as store:
        assert store.signoffs(dashboard_db[1])[0].reviewer == "rita"


def test_bad_report_upload_is_rejected_with_a_clear_message_and_nothing_stored(app, dashboard_db):
    db, _ = dashboard_db
    app.file_uploader(key="rep").set_value(("report.json", b'{"run_id": 1}', "application/json"))
    app.run()
    app.button(key="rep-load").click().run()
    assert not app.exception
    (err,) = texts(app.error)
    assert "Not loaded" in err and "schema" in err
    with Store(db) as store:
        assert len(store.list_runs()) == 1


def test_a_valid_report_upload_is_stored_and_selected(app, dashboard_db):
    db, _ = dashboard_db
    data = build_report(run_id="20260102T000000Z-bbbbbb").model_dump_json().encode()
    app.file_uploader(key="rep").set_value(("good.json", data, "application/json"))
    app.run()
    app.button(key="rep-load").click().run()
    assert not app.exception
    assert app.session_state["run_id"] == "20260102T000000Z-bbbbbb"
    with Store(db) as store:
        assert len(store.list_runs()) == 2


def test_import_report_rejects_non_json_and_schema_violations(dashboard_db):
    db, _ = dashboard_db
    with pytest.raises(actions.ActionError, match="not valid JSON"):
        actions.import_report(str(db), b"\xff\xfe not json", "x.json")
    bad = json.loads(build_report().model_dump_json())
    bad["analyses"][0]["claims"][0]["verdict"] = "MAYBE"
    with pytest.raises(actions.ActionError, match="MAYBE"):
        actions.import_report(str(db), json.dumps(bad).encode(), "x.json")


def test_new_run_from_a_suite_folder_is_judged_saved_and_selected(app, dashboard_db, tiny_suite):
    db, first = dashboard_db
    app.text_input(key="nr-folder").input(str(tiny_suite))
    next(b for b in app.button if b.label == "Run").click().run()
    assert not app.exception
    assert not app.error
    with Store(db) as store:
        runs = store.list_runs()
    assert len(runs) == 2
    assert app.session_state["run_id"] in {r.run_id for r in runs} - {first}


def test_new_run_from_a_bad_folder_shows_the_suite_problem(app, tmp_path: Path):
    app.text_input(key="nr-folder").input(str(tmp_path / "missing"))
    next(b for b in app.button if b.label == "Run").click().run()
    assert not app.exception
    assert any("Run not started" in e for e in texts(app.error))


def test_pairwise_page_shows_both_orders_and_flags_disagreement(app, dashboard_db):
    from halgate.models import PairwiseJudgement

    db, _ = dashboard_db
    pairs = [
        disagreeing_pair("q1", "orders disagree"),
        PairwiseJudgement(
            case_id="q2",
            system_a="baseline",
            system_b="candidate",
            preference="A",
            swapped_preference="A",
            justification="A is right",
            confidence=0.9,
        ),
    ]
    report = build_report(run_id="20260103T000000Z-cccccc").model_copy(update={"pairwise": pairs})
    with Store(db) as store:
        store.save_run(report)
    app.session_state["run_id"] = report.run_id
    goto(app, "pairwise")
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Disagreements / needs review"] == "1 of 2"
    assert metrics["Reconciled preference"] == "TIE"
    assert metrics["B shown first (mapped to A/B)"] == "B"
    assert any("disagree" in w for w in texts(app.warning))
    assert sum(h.value.startswith(ANSWER) for h in app.html) == 2


def test_new_run_from_an_uploaded_zipped_suite(app, dashboard_db, tiny_suite):
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in tiny_suite.rglob("*"):
            if p.is_file():
                z.write(p, "tiny/" + str(p.relative_to(tiny_suite)))
    app.radio(key="nr-src").set_value("Upload a zipped suite")
    app.file_uploader(key="nr-zip").set_value(("tiny.zip", buf.getvalue(), "application/zip"))
    next(b for b in app.button if b.label == "Run").click().run()
    assert not app.exception
    assert not app.error
    with Store(dashboard_db[0]) as store:
        assert len(store.list_runs()) == 2


def test_a_loaded_run_is_kept_out_of_the_garbage_collectors_walk(app):
    import gc

    gc.unfreeze()
    try:
        goto(app, "claims")  # the Overview draws the run's overview: no claims loaded
        assert not app.exception
        assert gc.get_freeze_count() > 0  # the cached run will not stall later clicks
    finally:
        gc.unfreeze()


# #13 item 5 on the Runs page: a trend needs two runs of a suite, and says so until then.


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


def test_overview_says_how_often_a_repeated_judge_flipped(app, dashboard_db):
    from halgate.models import Verdict, VerdictCounts
    from halgate.scoring.rescore import rescore

    db, _ = dashboard_db
    report = build_report(run_id="20260104T000000Z-dddddd")
    sampled = []
    for a in report.analyses:  # a second sample that turns every verdict SUPPORTED
        claims = [c.model_copy(update={"sample_verdicts": [Verdict.SUPPORTED]}) for c in a.claims]
        counts = [VerdictCounts(SUPPORTED=len(claims))]
        sampled.append(a.model_copy(update={"claims": claims, "sample_counts": counts}))
    report = rescore(report.model_copy(update={"analyses": sampled}))
    flips = report.rates["candidate"].judge_flips
    assert flips is not None and flips.flipped > 0
    with Store(db) as store:
        store.save_run(report)
    app.session_state["run_id"] = report.run_id
    goto(app, "overview")
    captions = " ".join(texts(app.caption)).replace("\\", "")
    assert f"candidate: judge flips: {flips.flipped} of {flips.compared} claims" in captions
    assert f"Flipped claims: {flips.flipped_claims[0]}" in captions
