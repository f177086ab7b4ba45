"""Issue #11 item 3 on the dashboard: Triage shows the audit sample's answers, each judged as
a whole answer (hallucinated yes / no, with its claims and sources, and a comment), and the
banner follows the labels when the gate waits for the audit (``gate_on_corrected``)."""

from __future__ import annotations

import pytest
from halgate.review import audit_review_ids
from halgate.store import Store
from streamlit.testing.v1 import AppTest

from ..conftest import AUDIT_GATED, build_report
from .conftest import APP, goto

RUN = "20260108T000000Z-aaaaaa"
TRUTH = {"q1": "HALLUCINATED", "q2": "HALLUCINATED", "q3": "FAITHFUL"}  # candidate answers


@pytest.fixture
def audit_app(store_db, monkeypatch) -> tuple[AppTest, list[str]]:
    """The app on a run that gates on the corrected rate; its severity queue is reviewed, so
    only the audit sample holds the gate (NEEDS_REVIEW). Returns the app and the audit ids."""
    report = build_report(run_id=RUN, **AUDIT_GATED)
    with Store(store_db) as store:
        store.save_run(report)
        for claim in ("q1/candidate/0", "q2/candidate/0"):
            store.add_override(RUN, claim, comment="confirmed", reviewer="rita")
        ids = audit_review_ids(store.load_report(RUN))  # drawn from the store's seed
    monkeypatch.setenv("HALGATE_DB", str(store_db))
    monkeypatch.setenv("HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF", "1")  # typed names may review
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.session_state["run_id"] = RUN
    at.sidebar.text_input(key="reviewer_name").set_value("ana")
    return goto(at, "triage"), ids


def _texts(elements) -> list[str]:
    return [e.value.replace("\\", "") for e in elements]  # Markdown escapes dropped


def _status(at: AppTest) -> str:
    html = next(h.value for h in at.html if "hg-banner" in h.value)
    return html.split('data-status="')[1].split('"')[0]


def _label(at: AppTest, rid: str, label: str, comment: str) -> None:
    at.radio(key=f"au-{rid}-label").set_value(label)
    at.text_area(key=f"au-{rid}-comment").input(comment)
    next(b for b in at.button if b.label == "Record label").click().run()
    assert not at.exception


def test_triage_shows_an_audited_answer_whole_and_records_its_label(audit_app, store_db):
    at, ids = audit_app
    assert _status(at) == "NEEDS_REVIEW"
    [section] = [e for e in at.expander if e.label.startswith("Audit sample")]
    assert section.label == "Audit sample · 0 of 6 answers labelled"
    first = ids[0]
    system = first.split(":")[2]
    assert f"{first} · 6 left to label" in _texts(at.caption)
    assert f"**Audited answer** · system {system}" in _texts(at.markdown)
    claims = at.dataframe[0].value
    assert list(claims.columns) == ["claim", "judge verdict", "severity", "cited"]
    # refused without a choice, then recorded with one
    next(b for b in at.button if b.label == "Record label").click().run()
    assert any("Choose whether" in e for e in _texts(at.error))
    _label(at, first, "HALLUCINATED", "the dose is wrong")
    with Store(store_db) as store:
        [o] = store.override_history(RUN, first)
    assert (o.label.value, o.reviewer, o.comment) == ("HALLUCINATED", "ana", "the dose is wrong")
    [section] = [e for e in at.expander if e.label.startswith("Audit sample")]
    assert section.label == "Audit sample · 1 of 6 answers labelled"
    assert f"{ids[1]} · 5 left to label" in _texts(at.caption)  # the next answer


def test_labelling_the_whole_audit_sample_lifts_the_hold(audit_app):
    at, ids = audit_app
    for rid in ids:
        case_id, system = rid.split(":")[1:]
        label = TRUTH[case_id] if system == "candidate" else "FAITHFUL"
        _label(at, rid, label, "read against the leaflet")
    assert _status(at) == "PASSED"
    assert "Every answer of the audit sample is labelled." in [s.value for s in at.success]


def test_the_audit_comes_after_the_severity_queue_or_its_skipped_items(store_db, monkeypatch):
    with Store(store_db) as store:
        store.save_run(build_report(run_id=RUN))
    monkeypatch.setenv("HALGATE_DB", str(store_db))
    monkeypatch.setenv("HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF", "1")  # typed names may review
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.session_state["run_id"] = RUN
    at.sidebar.text_input(key="reviewer_name").set_value("ana")
    goto(at, "triage")
    assert "Its answers come after the review queue above (or skip its items)." in _texts(
        at.caption
    )
    assert not any(b.label == "Record label" for b in at.button)
    for _ in range(2):  # skip both severe claims
        next(b for b in at.button if b.label == "Skip").click().run()
    assert any(b.label == "Record label" for b in at.button)


def test_triage_shows_labels_to_go_and_the_corrected_interval_at_each_look(audit_app):
    at, ids = audit_app
    # the sample's unlabelled answers, asked for by the rule that waits for them
    to_go = "**6 labels to go** before the gate can decide (`gate_on_corrected`)"
    assert to_go in _texts(at.markdown)
    for rid in ids:
        case_id, system = rid.split(":")[1:]
        _label(at, rid, TRUTH[case_id] if system == "candidate" else "FAITHFUL", "read it")
    assert not any("labels to go" in t for t in _texts(at.markdown))
    # the paired change's looks count cases either system rates, not one system's labels
    looks = next(d.value for d in at.dataframe if "cases labelled" in d.value.columns)
    assert list(looks.columns) == ["cases labelled", "corrected change candidate − baseline",
                                   "interval", "width"]  # fmt: skip
    assert list(looks["cases labelled"]) == [3]  # every eligible case: the first look is last
    assert any("a look counts those cases" in t for t in _texts(at.caption))
    assert looks["interval"][0].endswith("%") and looks["width"][0] not in ("0.0%", "–")
