"""Runs page, "Start a new run": every `halgate run --mode`, pairwise included, with the two
systems to set against each other; the run goes through the same ``run_suite`` as the CLI."""

from __future__ import annotations

from halgate.dashboard import actions
from halgate.models import Mode, Preference
from halgate.store import Store
from streamlit.testing.v1 import AppTest


def start(app: AppTest, folder, mode: str, baseline: str | None = None, candidate=None):
    app.text_input(key="nr-folder").input(str(folder))
    app.selectbox(key="nr-mode").set_value(mode)
    if baseline is not None:
        app.text_input(key="nr-baseline").input(baseline)
    if candidate is not None:
        app.text_input(key="nr-candidate").input(candidate)
    next(b for b in app.button if b.label == "Run").click().run()
    assert not app.exception, app.exception
    return app


def new_reports(db, first: str):
    with Store(db) as store:
        return [store.load_report(r.run_id) for r in store.list_runs() if r.run_id != first]


def test_the_form_offers_every_mode_and_the_two_systems_by_default(app):
    assert app.selectbox(key="nr-mode").options == ["compare", "gate", "consistency", "pairwise"]
    assert app.text_input(key="nr-baseline").value == "baseline"
    assert app.text_input(key="nr-candidate").value == "candidate"


def test_a_pairwise_run_with_the_offline_judge_is_saved_with_a_preference_per_case(
    app, dashboard_db, tiny_suite
):
    db, first = dashboard_db
    start(app, tiny_suite, "pairwise")
    assert not app.error
    (report,) = new_reports(db, first)
    assert app.session_state["run_id"] == report.run_id
    assert report.mode == Mode.PAIRWISE and report.systems == ["baseline", "candidate"]
    assert report.pairwise is not None and len(report.pairwise) == 3
    # q1: the candidate doubles the dose, q2: it allows pregnancy; the baseline is right.
    prefs = {p.case_id: p.preference for p in report.pairwise}
    assert prefs["q1"] == prefs["q2"] == Preference.A


def test_the_systems_chosen_are_the_ones_compared(app, dashboard_db, tiny_suite):
    db, first = dashboard_db
    start(app, tiny_suite, "pairwise", baseline="candidate", candidate="baseline")
    (report,) = new_reports(db, first)
    assert report.systems == ["candidate", "baseline"]
    assert {(p.system_a, p.system_b) for p in report.pairwise or []} == {("candidate", "baseline")}


def test_gate_mode_judges_the_candidate_named(app, dashboard_db, tiny_suite):
    db, first = dashboard_db
    start(app, tiny_suite, "gate", candidate="baseline")
    (report,) = new_reports(db, first)
    assert report.mode == Mode.GATE and report.systems == ["baseline"]


def test_a_system_set_against_itself_is_refused_and_nothing_is_stored(
    app, dashboard_db, tiny_suite
):
    db, first = dashboard_db
    start(app, tiny_suite, "pairwise", candidate="baseline")
    errors = [e.value for e in app.error]
    assert any("baseline and candidate are both 'baseline'" in e for e in errors), errors
    assert new_reports(db, first) == []


def test_an_unknown_system_names_the_known_ones(app, dashboard_db, tiny_suite):
    db, first = dashboard_db
    start(app, tiny_suite, "compare", candidate="nope")
    errors = [e.value for e in app.error]
    assert any("Run not started" in e and "'nope'" in e and "baseline" in e for e in errors)
    assert new_reports(db, first) == []


def test_start_run_passes_every_mode_to_the_engine(dashboard_db, tiny_suite, monkeypatch):
    db, _ = dashboard_db
    monkeypatch.setenv("HALGATE_SUITE_ROOTS", str(tiny_suite.parent))
    for mode in actions.MODES:
        run_id = actions.start_run(
            str(db),
            folder=str(tiny_suite),
            archive=None,
            judge="offline",
            mode=mode,
            policy_choice=actions.POLICY_DEFAULTS,
        )
        with Store(db) as store:
            assert store.load_report(run_id).mode == Mode(mode)


# #31: what the Runs page's actions tell the reviewer, and whom the audit log names.


def _load(app: AppTest, data: bytes) -> AppTest:
    app.file_uploader(key="rep").set_value(("same.json", data, "application/json"))
    app.run()
    app.button(key="rep-load").click().run()
    assert not app.exception, app.exception
    return app


def test_loading_the_same_report_twice_says_it_was_already_stored(app, dashboard_db):
    db, first = dashboard_db
    with Store(db) as store:
        data = store.load_report(first).model_copy(update={"audit_seed": None})
    said = " ".join(m.value for m in _load(app, data.model_dump_json().encode()).info)
    assert "already stored" in said and "loaded as run" not in " ".join(
        m.value for m in app.success
    )
    with Store(db) as store:
        assert len(store.list_runs()) == 1


def test_dashboard_actions_are_audited_as_the_reviewer_never_the_server_login(
    app, dashboard_db, tiny_suite
):
    import getpass

    db, first = dashboard_db
    app.sidebar.text_input(key="reviewer_name").set_value("ana").run()
    start(app, tiny_suite, "compare")
    with Store(db) as store:
        saved = [e for e in store.audit() if e.action == "save_run" and e.run_id != first]
    assert [e.actor for e in saved] == ["ana"]
    assert getpass.getuser() != "ana"


def test_upload_errors_name_the_file_in_the_zip_never_the_servers_temp_folder(app, tiny_suite):
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in tiny_suite.rglob("*"):
            if p.is_file() and p.name != "cases.jsonl":
                z.write(p, "tiny/" + str(p.relative_to(tiny_suite)))
        z.writestr("tiny/cases.jsonl", '{"case_id": "q1"\n')
    app.radio(key="nr-src").set_value("Upload a zipped suite")
    app.file_uploader(key="nr-zip").set_value(("tiny.zip", buf.getvalue(), "application/zip"))
    next(b for b in app.button if b.label == "Run").click().run()
    said = " ".join(e.value for e in app.error).replace("\\", "")  # Markdown escapes
    assert "upload/tiny/cases.jsonl:1" in said, said
    assert "halgate-upload-" not in said and "/tmp" not in said
