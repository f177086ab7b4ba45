"""The Review queue and Agreement pages on their own (Streamlit's AppTest): a blind label
recorded from the form, a dispute shown and adjudicated, and the figures drawn."""

from __future__ import annotations

import pytest
from halgate.store import Store
from streamlit.testing.v1 import AppTest

from ..conftest import AUDIT_GATED, REPO, build_report

APP = REPO / "dashboard" / "app.py"


@pytest.fixture
def team_app(store_db, monkeypatch) -> tuple[AppTest, str, list[str]]:
    """The app (typed names allowed, as `make demo`) on a two-reviews-per-item run."""
    with Store(store_db) as store:
        run_id = store.save_run(build_report(reviews_per_item=2, **AUDIT_GATED))
        ids = store.queue_item_ids(run_id, "audit")
    monkeypatch.setenv("HALGATE_DB", str(store_db))
    monkeypatch.setenv("HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF", "1")
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.session_state["run_id"] = run_id
    return at, run_id, ids


def _as(at: AppTest, who: str, page: str) -> AppTest:
    at.sidebar.text_input(key="reviewer_name").set_value(who)
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, at.exception
    return at


def _submit(at: AppTest, item: str, label: str, kind: str = "lab") -> None:
    at.selectbox(key="tq-item-audit").set_value(item).run()
    key = f"tq-{kind}-{item}"
    at.radio(key=key + "-label").set_value(label)
    at.text_area(key=key + "-comment").input("read the source")
    button = "Adjudicate" if kind == "adj" else "Record my label"
    next(b for b in at.button if b.label == button).click().run()
    assert not at.exception, at.exception


def test_labels_are_blind_disputes_are_adjudicated_and_agreement_is_drawn(team_app, store_db):
    at, run_id, ids = team_app
    item = ids[0]
    _submit(_as(at, "ana", "team_queue"), item, "HALLUCINATED")
    _as(at, "ben", "team_queue").selectbox(key="tq-item-audit").set_value(item).run()
    assert any("1 label(s) hidden" in c.value for c in at.caption)
    assert not any(t.value.startswith("ana:") for t in at.text)
    _submit(at, item, "FAITHFUL")
    assert any(t.value.startswith("ana: HALLUCINATED") for t in at.text)
    assert at.metric[0].value == "1"  # in dispute
    with Store(store_db) as store:
        assert store.disputed_items(run_id) == [item]
    _submit(_as(at, "cy", "team_queue"), item, "FAITHFUL", kind="adj")
    shown = [s.value.replace("\\", "") for s in at.success]  # Markdown escapes dropped
    assert any("In force: FAITHFUL (adjudicated by cy)" in s for s in shown), shown
    _as(at, "cy", "agreement")
    labels = {m.label: m.value for m in at.metric}
    assert labels["In dispute"] == "0" and "Cohen's kappa" in labels
    assert len(at.dataframe) == 3  # reviewer figures, confusion matrix, risk levels
