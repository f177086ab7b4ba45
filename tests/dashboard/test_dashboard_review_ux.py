"""Review UX (issue #13) through AppTest: forms that keep what was typed, tables whose values
show whole and signed, error lists that keep their lines, and a Pairwise page with the
question, the sources and each order's own result.

The fixture database is the one of ``test_dashboard_apptest`` (see conftest ``dashboard_db``).
"""

from __future__ import annotations

import html
import json
import tomllib
from pathlib import Path

from halgate.models import Mode
from halgate.store import Store
from streamlit.testing.v1 import AppTest

from ..conftest import REPO, build_report, disagreeing_pair, write_jsonl
from .conftest import APP, goto


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def _verdict_box(at: AppTest):
    return next(s for s in at.selectbox if s.key and s.key.endswith("-verdict"))


# ------------------------------------------------------------------ 2. refused submits keep


def test_a_refused_triage_review_keeps_the_comment_and_the_chosen_verdict(app, dashboard_db):
    goto(app, "triage")
    app.text_area[0].input("the leaflet says 100 mg")
    app.selectbox(key=_verdict_box(app).key).set_value("SUPPORTED")
    next(b for b in app.button if b.label == "Overturn").click().run()
    assert any("Enter your name" in e for e in texts(app.error))
    assert app.text_area[0].value == "the leaflet says 100 mg"
    assert _verdict_box(app).value == "SUPPORTED"
    with Store(dashboard_db[0]) as store:
        assert store.override_history(dashboard_db[1]) == []


def test_a_refused_signoff_keeps_the_comment(app):
    goto(app, "signoff")
    app.text_area(key="so-comment").input("known issue, shipping anyway")
    next(b for b in app.button if b.label == "Approve").click().run()
    assert any("Enter your name" in e for e in texts(app.error))
    assert app.text_area(key="so-comment").value == "known issue, shipping anyway"


def test_an_accepted_review_clears_the_form_for_the_next_one(app):
    app.sidebar.text_input(key="reviewer_name").set_value("ana")
    goto(app, "claims")
    app.text_area[0].input("checked against the leaflet")
    next(b for b in app.button if b.label == "Confirm judge").click().run()
    assert not app.error
    assert app.text_area[0].value == ""


# ------------------------------------------------------------------ 3. tables that fit


def _config(frame) -> tuple[dict, list[str]]:
    return json.loads(frame.proto.columns), list(frame.proto.column_order)


def test_claims_table_shows_the_claim_text_and_whole_enum_values(app):
    goto(app, "claims")
    config, order = _config(app.dataframe[0])
    assert "text" in order[:4], order  # the claim itself, near the front, not off-screen
    for column in ("verdict", "type", "severity"):
        assert config[column]["width"], column  # sized so CONTRADICTED, DISTORTION show whole
    assert config["score"]["type_config"]["type"] == "progress"
    assert config["text"]["width"] >= 250  # room for the claim itself
    assert len(order) <= 9  # fits the main area at 1440 px


def _runs_table(at: AppTest):
    return at.dataframe[0].value.set_index("run")


def test_runs_table_shows_both_rates_with_signed_changes_in_points(app, dashboard_db):
    row = _runs_table(app).loc[dashboard_db[1]]
    answers, claims = row["answers"], row["claims"]
    # "● 66.7% (+66.7)": the gated measure (answers, the default) is marked, changes signed
    assert answers.startswith("● ") and answers.endswith(")") and "% (+" in answers, answers
    assert not claims.startswith("●") and "% (+" in claims, claims
    config, order = _config(app.dataframe[0])
    assert len(order) <= 9 and "sign-off" in order
    assert {"answers", "claims"} <= set(order)
    assert sum(config[c]["width"] for c in order) <= 980  # whole at 1440 px beside the sidebar
    assert "percentage points" in config["claims"]["help"]
    legend = next(c.value for c in app.caption if c.value.startswith("**answers**"))
    assert "answers with a hallucination" in legend and "claims hallucinated" in legend


def test_at_1024_px_the_runs_table_shows_decision_rates_reviews_and_signoff_first(app):
    """About 700 px of table beside the narrowed sidebar: what a reviewer looks for comes
    first and fits; suite, judge and the judged decision follow, a scroll away."""
    config, order = _config(app.dataframe[0])
    first = order[: order.index("sign-off") + 1]
    assert set(first) >= {"run", "decision", "answers", "claims", "reviewed", "sign-off"}
    assert sum(config[c]["width"] for c in first) <= 700


def test_runs_table_says_why_a_pairwise_run_has_no_rate(app, dashboard_db):
    report = build_report(run_id="20260103T000000Z-cccccc").model_copy(
        update={"mode": Mode.PAIRWISE, "analyses": [], "rates": {}, "comparison": None}
    )
    with Store(dashboard_db[0]) as store:
        store.save_run(report)
    app.run()
    row = _runs_table(app).loc[report.run_id]
    assert row["answers"] == row["claims"] == "n/a (pairwise)"


# ------------------------------------------------------------------ 4. error lists


def test_suite_problems_are_listed_one_per_line(app, tiny_suite: Path):
    write_jsonl(
        tiny_suite / "cases.jsonl",
        [
            {"case_id": "q1", "question": "?", "doc_ids": ["nope"]},
            {"case_id": "q2", "question": "?", "doc_ids": ["<b>gone</b>"]},
        ],
    )
    app.text_input(key="nr-folder").input(str(tiny_suite))
    next(b for b in app.button if b.label == "Run").click().run()
    assert not app.exception
    (err,) = texts(app.error)
    lines = err.splitlines()
    assert lines[0].startswith("Run not started")
    items = [line for line in lines if line.startswith("- ")]
    assert len(items) >= 2, err
    assert any("nope" in i for i in items) and any("gone" in i for i in items)
    assert "<b>" not in err  # markup from a file is escaped, never rendered


def test_report_schema_errors_are_listed_one_per_line(app):
    app.file_uploader(key="rep").set_value(("report.json", b'{"run_id": 1}', "application/json"))
    app.run()
    app.button(key="rep-load").click().run()
    (err,) = texts(app.error)
    items = [line for line in err.splitlines() if line.startswith("- ")]
    assert len(items) >= 3, err
    assert any("created\\_at" in i or "created_at" in i for i in items)


# ------------------------------------------------------------------ 5. pairwise


def _pairwise_run(db: Path) -> str:
    pairs = [
        disagreeing_pair("q1"),
    ]
    report = build_report(run_id="20260103T000000Z-cccccc")
    docs = [
        d.model_copy(update={"text": d.text + " <script>alert(1)</script>"})
        for d in report.documents
    ]
    report = report.model_copy(update={"pairwise": pairs, "documents": docs})
    with Store(db) as store:
        return store.save_run(report)


def test_pairwise_labels_each_orders_own_result_and_the_reconciled_one(app, dashboard_db):
    app.session_state["run_id"] = _pairwise_run(dashboard_db[0])
    goto(app, "pairwise")
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["A shown first"] == "A"  # the first order's own verdict, not the TIE
    assert metrics["B shown first (mapped to A/B)"] == "B"
    assert metrics["Reconciled preference"] == "TIE"
    assert "Preference (A first)" not in metrics


def test_pairwise_shows_the_question_and_the_sources_escaped(app, dashboard_db):
    app.session_state["run_id"] = _pairwise_run(dashboard_db[0])
    goto(app, "pairwise")
    assert "What is the maximum daily dose?" in texts(app.text)
    docs = [h.value for h in app.html if h.value.startswith('<div class="hg-text hg-doc"')]
    assert len(docs) == 1 and "The maximum daily dose is 100 mg." in docs[0]
    assert "<script>" not in docs[0] and html.escape("<script>") in docs[0]


# ------------------------------------------------------------------ 6. offline page icon


def test_page_icon_is_a_file_shipped_with_the_dashboard():
    source = APP.read_text(encoding="utf-8")
    assert 'page_icon=":material' not in source
    icons = list((REPO / "dashboard").glob("*.png")) + list((REPO / "dashboard").glob("*.svg"))
    assert icons, "no icon file in dashboard/"
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = pyproject["tool"]["setuptools"]["package-data"]["halgate.dashboard"]
    assert any(i.name in shipped or f"*{i.suffix}" in shipped for i in icons), shipped


def test_explorer_labels_the_judges_rationale_beside_the_reviewers_verdict_and_prints_no_none(
    app, dashboard_db
):
    db, run_id = dashboard_db
    app.sidebar.text_input(key="reviewer_name").set_value("ana")
    goto(app, "claims")
    claim_id = app.selectbox(key="pick-").value
    app.text_area[0].input("the leaflet says 100 mg")
    next(b for b in app.button if b.label == "Confirm judge").click().run()
    captions = [c.value for c in app.caption]
    assert "Reviewer's comment \\(ana, in force\\)" in captions
    assert "Judge's rationale (before the review)" in captions
    assert "the leaflet says 100 mg" in [t.value for t in app.text]
    history = next(d.value for d in app.dataframe if "reviewer" in d.value.columns)
    assert not history.isna().any().any() and "None" not in history.astype(str).values
    assert app.selectbox(key="pick-").value == claim_id


# ------------------------------------------------------------------ #31: Markdown documents

LEAFLET_MD = (
    "# Zelparin leaflet\n\nZelparin is taken **once daily**. The maximum daily dose is 100 mg. "
    "Zelparin must not be used during pregnancy. It may cause dizziness in some patients.\n\n"
    "<script>alert('doc')</script>\n"
)


def test_a_markdown_document_is_shown_rendered_and_its_raw_html_as_text(
    tiny_suite, tmp_path, monkeypatch
):
    from ..conftest import TINY_DOCS, judged_run_db

    write_jsonl(tiny_suite / "documents.jsonl", [d for d in TINY_DOCS if d["doc_id"] != "leaflet"])
    (tiny_suite / "documents").mkdir(exist_ok=True)
    (tiny_suite / "documents" / "leaflet.md").write_text(LEAFLET_MD, encoding="utf-8")
    db = tmp_path / "md.db"
    judged_run_db(tiny_suite, db)
    monkeypatch.setenv("HALGATE_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    goto(at, "claims")
    (toggle,) = [t for t in at.toggle if t.label == "Rendered Markdown"]
    toggle.set_value(True).run()
    shown = " ".join(h.value for h in at.html)
    assert "<h1>Zelparin leaflet</h1>" in shown and "<strong>once daily</strong>" in shown
    assert "&lt;script&gt;alert('doc')&lt;/script&gt;" in shown and "<script>alert" not in shown
    at.toggle(key=toggle.key).set_value(False).run()
    shown = " ".join(h.value for h in at.html)
    assert "<h1>" not in shown and "# Zelparin leaflet" in shown  # the raw text, marked


# ------------------------------------------------------------------ #31: nothing cut at 1024

WHOLE_VERDICT_PX = 165  # PARTIALLY_SUPPORTED, measured in the claims table's screenshot
MAIN_AT_1024_PX = 640 - 37  # the main area beside the sidebar, less the selection column


def test_verdicts_and_severities_show_whole_at_1024(app):
    goto(app, "claims")
    config, order = _config(app.dataframe[0])
    upto = order[: max(order.index("verdict"), order.index("severity")) + 1]
    assert sum(config[c]["width"] for c in upto) <= MAIN_AT_1024_PX, upto
    assert config["verdict"]["width"] >= WHOLE_VERDICT_PX
    goto(app, "triage")
    queue = next(d for d in app.dataframe if "judge verdict" in d.value.columns)
    config, _ = _config(queue)
    for column in ("verdict", "judge verdict"):
        assert config[column]["width"] >= WHOLE_VERDICT_PX, column
