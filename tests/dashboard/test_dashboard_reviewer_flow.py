"""Issue #13 item 2 through AppTest: Triage's keyboard flow (every review button carries its
shortcut, and the page lists the keys), the whole queue saying who reviewed what and when, the
"My reviews" page, and (#11) both rates on the Runs page with the trend of the gated one.

The fixture database is the tiny suite judged by the offline judge (conftest ``dashboard_db``):
a FAILED compare run with two CRITICAL claims in the review queue.
"""

from __future__ import annotations

import json

import pytest
from halgate.dashboard.review_form import KEYS
from halgate.scoring.rescore import rescore
from halgate.store import Store
from streamlit.testing.v1 import AppTest

from ..conftest import build_report, disagreeing_pair
from .conftest import goto

OTHER = "20260102T000000Z-bbbbbb"


def _as(at: AppTest, name: str) -> AppTest:
    at.sidebar.text_input(key="reviewer_name").set_value(name)
    return at


def _button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


def _shortcut(at: AppTest, label: str) -> str:
    return _button(at, label).proto.shortcut


def _frame(at: AppTest, column: str):
    """The first table with ``column`` among its columns."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _on_screen(at: AppTest) -> str:
    """The id of the claim Triage shows (from its "claim ID · N left to review" caption)."""
    return next(c.value for c in at.caption if c.value.startswith("claim ")).split()[1]


# ------------------------------------------------------------------ keyboard


def test_triage_buttons_answer_to_the_keys_the_page_lists(app):
    goto(app, "triage")
    assert KEYS == {"confirm": "Alt+Y", "overturn": "Alt+O", "skip": "Alt+N"}
    assert _shortcut(app, "Confirm judge") == "alt+y"
    assert _shortcut(app, "Overturn") == "alt+o"
    assert _shortcut(app, "Skip") == "alt+n"
    listed = next(c.value for c in app.caption if c.value.startswith("Keyboard:"))
    for key in (*KEYS.values(), "Tab", "Enter"):
        assert key in listed, key


def _forms(node, found=None) -> dict[str, bool]:
    """form id -> whether Enter (Ctrl+Enter in a text area) submits it, for every form."""
    found = {} if found is None else found
    proto = getattr(node, "proto", None)
    if getattr(proto, "DESCRIPTOR", None) is not None and proto.DESCRIPTOR.name == "Block":
        if proto.WhichOneof("type") == "form":
            found[proto.form.form_id] = proto.form.enter_to_submit
    for child in getattr(node, "children", {}).values():
        _forms(child, found)
    return found


def test_ctrl_enter_in_the_comment_cannot_confirm_a_claim_meant_to_be_overturned(app):
    """Ctrl+Enter would press the form's first button, Confirm judge: off in the claim form."""
    goto(app, "triage")
    assert _forms(app._tree) == {f"tr-{_on_screen(app)}-form": False}


def test_the_keyboard_flow_skips_then_confirms_with_the_typed_comment(app, dashboard_db):
    """What the shortcuts press: skip to the next claim, then confirm it with a comment."""
    db, run_id = dashboard_db
    _as(app, "ana")
    goto(app, "triage")
    first = _on_screen(app)
    _button(app, "Skip").click().run()
    second = _on_screen(app)
    assert second != first
    app.text_area(key=f"tr-{second}-comment").input("the leaflet says so")
    _button(app, "Confirm judge").click().run()
    assert not app.exception
    with Store(db) as store:
        [o] = store.override_history(run_id)
    assert (o.claim_id, o.comment, o.reviewer) == (second, "the leaflet says so", "ana")


def test_a_confirm_without_comment_asks_once_before_it_records(app, dashboard_db):
    """Alt+Y twice must not confirm a claim nobody read with a comment nobody wrote."""
    db, run_id = dashboard_db
    _as(app, "ana")
    goto(app, "triage")
    first = _on_screen(app)
    _button(app, "Confirm judge").click().run()
    assert _on_screen(app) == first  # still the same claim, and nothing recorded
    assert any("again to confirm without one" in w.value for w in app.warning)
    with Store(db) as store:
        assert store.override_history(run_id) == []
    _button(app, "Confirm judge").click().run()  # asked once: the second press records
    with Store(db) as store:
        [o] = store.override_history(run_id)
    assert (o.claim_id, o.comment) == (first, "confirmed the judge's verdict")
    second = _on_screen(app)
    _button(app, "Confirm judge").click().run()  # the next claim asks again
    with Store(db) as store:
        assert len(store.override_history(run_id)) == 1
    assert _on_screen(app) == second


def test_triage_messages_come_after_the_form_and_the_banner_is_compact(app):
    _as(app, "ana")
    goto(app, "triage")
    _button(app, "Overturn").click().run()  # no new verdict chosen: refused
    order = [
        str(getattr(e, "label", "") or getattr(e, "value", "")) for e in _in_page_order(app.main)
    ]
    refusal = next(i for i, v in enumerate(order) if "To overturn, choose" in v)
    button = next(i for i, v in enumerate(order) if v == "Overturn")
    banner = next(i for i, v in enumerate(order) if "hg-banner" in v)
    assert banner < button < refusal  # the message under the button that caused it
    assert "<details><summary>" in order[banner]


def _in_page_order(node):
    """Every element under ``node``, depth first, in the order the page draws them."""
    children = getattr(node, "children", None)
    if not children:
        yield node
        return
    for key in sorted(children):
        yield from _in_page_order(children[key])


def test_the_claims_explorer_form_has_no_shortcuts(app):
    """Only Triage offers the keyboard flow: one form per page answers to the keys."""
    goto(app, "claims")
    assert _shortcut(app, "Confirm judge") == ""


def _pairwise_run(db) -> str:
    report = build_report(run_id=OTHER, candidate={}).model_copy(
        update={"pairwise": [disagreeing_pair("q1")]}
    )
    with Store(db) as store:
        return store.save_run(rescore(report))


def test_pair_and_audit_forms_answer_to_the_same_keys(app, dashboard_db):
    db, _ = dashboard_db
    app.session_state["run_id"] = _pairwise_run(db)
    goto(app, "triage")
    assert _shortcut(app, "Record decision") == "alt+y"
    assert _shortcut(app, "Skip") == "alt+n"
    _button(app, "Skip").click().run()  # the pair skipped: the audit sample is next
    assert _shortcut(app, "Record label") == "alt+y"
    assert _shortcut(app, "Skip answer") == "alt+n"


# ------------------------------------------------------------------ who reviewed what, when


def test_the_whole_queue_shows_who_reviewed_each_claim_what_they_decided_and_when(app):
    _as(app, "ana")
    goto(app, "triage")
    first = _on_screen(app)
    app.selectbox(key=f"tr-{first}-verdict").set_value("SUPPORTED")
    app.text_area(key=f"tr-{first}-comment").input("100 mg is in the leaflet")
    _button(app, "Overturn").click().run()
    second = _on_screen(app)
    app.text_area(key=f"tr-{second}-comment").input("as the leaflet says")
    _button(app, "Confirm judge").click().run()
    table = _frame(app, "by").set_index("claim")
    assert list(table.columns) == [
        "severity",
        "verdict",
        "judge verdict",
        "reviewed",
        "decision",
        "by",
        "when (UTC)",
    ]
    assert table.loc[first, "decision"] == "verdict=SUPPORTED"
    assert table.loc[second, "decision"] == "confirmed"
    assert (table.loc[first, "by"], table.loc[second, "by"]) == ("ana", "ana")
    assert table.loc[first, "when (UTC)"] <= table.loc[second, "when (UTC)"]
    assert len(table.loc[first, "when (UTC)"]) == len("2026-01-01 09:30:00")
    grid = next(d for d in app.dataframe if "by" in d.value.columns)
    config = json.loads(grid.proto.columns)
    widths = {k: v["width"] for k, v in config.items() if not v.get("hidden")}
    assert set(widths) == {"claim", *table.columns} and sum(widths.values()) <= 940
    audit = _frame(app, "label")
    columns = ["answer", "judge", "label", "reviewed", "decision", "by", "when (UTC)"]
    assert list(audit.columns) == columns
    assert not audit["reviewed"].any()


# ------------------------------------------------------------------ my reviews


@pytest.fixture
def reviewed_twice(dashboard_db) -> tuple[str, str]:
    """(first run, second run): ana reviewed in both, bo in the first, after ana's first."""
    db, run_id = dashboard_db
    with Store(db) as store:
        store.save_run(build_report(run_id=OTHER))
        store.add_override(run_id, "q1/candidate/0", comment="first look", reviewer="ana")
        store.add_override(run_id, "q1/candidate/0", comment="second look", reviewer="bo")
        store.add_override(
            OTHER, "q2/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="ana"
        )
    return run_id, OTHER


def test_my_reviews_lists_only_mine_newest_first_across_runs(app, reviewed_twice):
    first_run, second_run = reviewed_twice
    _as(app, "ana")
    goto(app, "reviews")
    assert not app.error
    table = app.dataframe[0].value
    assert list(table["run"]) == [second_run, first_run]
    assert list(table["item"]) == ["q2/candidate/0", "q1/candidate/0"]
    assert list(table["decision"]) == ["verdict=SUPPORTED", "confirmed"]
    assert list(table["comment"]) == ["ok", "first look"]
    assert list(table["in force"]) == [True, False]  # bo reviewed q1 again after ana
    assert list(table["suite"]) == ["tiny", "tiny"]
    config = json.loads(app.dataframe[0].proto.columns)
    order = list(app.dataframe[0].proto.column_order)
    assert order[:2] == ["when (UTC)", "run"] and "comment" in order
    assert sum(config[c]["width"] for c in order) <= 980  # whole at 1440 px beside the sidebar
    captions = [c.value.replace("\\", "") for c in app.caption]  # Markdown escapes dropped
    caption = next(c for c in captions if "review(s)" in c)
    assert caption.startswith("2 review(s) by ana in 2 run(s), newest first")


def test_my_reviews_asks_who_i_am_and_opens_a_run_in_triage(app, reviewed_twice):
    goto(app, "reviews")
    assert any("Enter your name" in i.value for i in app.info)
    _as(app, "bo")
    goto(app, "reviews")
    assert list(app.dataframe[0].value["comment"]) == ["second look"]
    _button(app, "Open in Triage").click().run()
    assert not app.exception
    assert app.session_state["run_id"] == reviewed_twice[0]
    assert any(t.value == "Triage" for t in app.title)


# ------------------------------------------------------------------ both rates on Runs


def _chart_title(at: AppTest) -> str:
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    return spec["layout"]["title"]["text"]


def test_runs_trend_plots_the_gated_measure_and_offers_the_other(app, dashboard_db):
    db, _ = dashboard_db
    later = build_report(run_id="20990101T000000Z-cccccc", candidate={})
    later = later.model_copy(update={"created_at": "2099-01-01T00:00:00+00:00"})
    with Store(db) as store:
        store.save_run(later)
    app.run()
    # the fixture run's suite is "tiny" and so is this one: one suite, two runs
    trend = app.radio(key="runs-trend")
    assert trend.value == "answer_rate"
    assert _chart_title(app) == "answers with a hallucination (gated) across runs, per suite"
    trend.set_value("micro_rate").run()
    assert _chart_title(app) == "claims hallucinated across runs, per suite"
