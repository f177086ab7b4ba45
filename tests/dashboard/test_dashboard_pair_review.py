"""Issue #11 on the dashboard: a disagreeing pair decided in Triage, and sign-off that needs an
acknowledgement to approve a gate that did not pass, with the sign-off in force marked."""

from __future__ import annotations

from halgate.scoring.rescore import rescore
from halgate.store import Store

from ..conftest import build_report, disagreeing_pair
from .conftest import goto

RUN = "20260105T000000Z-dddddd"


def _texts(elements) -> list[str]:
    return [e.value.replace("\\", "") for e in elements]


def _status(at) -> str:
    html = next(h.value for h in at.html if "hg-banner" in h.value)
    return html.split('data-status="')[1].split('"')[0]


def _pairwise_run(db) -> str:
    pair = disagreeing_pair("q1")
    report = build_report(run_id=RUN, candidate={}).model_copy(update={"pairwise": [pair]})
    with Store(db) as store:
        return store.save_run(rescore(report))


def test_triage_decides_a_disagreeing_pair_and_the_gate_leaves_needs_review(app, dashboard_db):
    db, _ = dashboard_db
    app.session_state["run_id"] = _pairwise_run(db)
    app.sidebar.text_input(key="reviewer_name").set_value("ana")
    goto(app, "triage")
    assert _status(app) == "NEEDS_REVIEW"
    assert any("0 of 1 reviewed, 1 awaiting review" in str(p.proto) for p in app.get("progress"))
    assert {"**A** · baseline", "**B** · candidate"} <= set(_texts(app.markdown))
    metrics = {m.label: m.value for m in app.metric}
    assert (metrics["A shown first"], metrics["B shown first (mapped to A/B)"]) == ("A", "B")
    app.radio(key="tr-pair-pairwise:q1-preference").set_value("B")
    app.text_area(key="tr-pair-pairwise:q1-comment").input("B keeps the dose")
    next(b for b in app.button if b.label == "Record decision").click().run()
    assert not app.exception and not app.error
    assert _status(app) == "PASSED"
    with Store(db) as store:
        [o] = store.override_history(RUN)
    assert (o.claim_id, o.preference.value, o.reviewer, o.comment) == (
        "pairwise:q1",
        "B",
        "ana",
        "B keeps the dose",
    )


def test_approving_a_failed_run_needs_the_acknowledgement_and_shows_in_force(app, dashboard_db):
    db, run_id = dashboard_db
    app.sidebar.text_input(key="reviewer_name").set_value("rita")
    goto(app, "signoff")
    app.text_area(key="so-comment").input("known issue")
    next(b for b in app.button if b.label == "Approve").click().run()
    assert any("FAILED" in e and "override" in e for e in _texts(app.error))
    with Store(db) as store:
        assert store.signoffs(run_id) == []
    assert app.text_area(key="so-comment").value == "known issue"
    app.checkbox(key="so-override-gate").check()
    next(b for b in app.button if b.label == "Approve").click().run()
    assert not app.exception
    with Store(db) as store:
        [s] = store.signoffs(run_id)
    assert s.override_gate and s.decision_status.value == "FAILED"
    assert any(t.startswith("IN FORCE") and "gate overridden" in t for t in _texts(app.success))
    with Store(db) as store:
        store.add_override(run_id, "q1/candidate/0", comment="confirmed", reviewer="ana")
    goto(app, "signoff")
    assert any(t.startswith("STALE") for t in _texts(app.warning))
    assert not any(t.startswith("IN FORCE") for t in _texts(app.success))
