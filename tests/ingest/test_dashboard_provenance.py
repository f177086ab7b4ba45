"""Provenance in the dashboard (issue #30, left over): a claim of an imported run says in
the claims explorer and on the Triage card where its question, its answer and its documents
were read (file and row), as text: a file name is never markup. (A suite written by hand
shows none: tests/present/test_provenance.py.)"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from halgate.ingest import import_sources
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.registry import create_judge
from halgate.run.engine import run_suite
from halgate.store import Store
from streamlit.testing.v1 import AppTest

from ..dashboard.conftest import APP, goto

# A file name that would be markup if anything rendered it.
SOURCE = "<img src=x onerror=alert(1)> export.jsonl"
ROWS = [
    {
        "id": "q1",
        "question": "What is the maximum daily dose?",
        "contexts": ["The maximum daily dose is 100 mg.", "Take it with water."],
        "answer_baseline": "The maximum daily dose is 100 mg.",
        "answer_candidate": "The maximum daily dose is 300 mg.",
        "risk_level": "critical",
    },
    {
        "id": "q2",
        "question": "How should it be taken?",
        "contexts": ["Take it with water."],
        "answer_baseline": "Take it with water.",
        "answer_candidate": "Take it with water.",
        "risk_level": None,
    },
]


def imported_run_db(folder: Path) -> Path:
    """A run of a suite imported from a JSONL table written by pandas, in a real store."""
    source = folder / SOURCE
    pd.DataFrame(ROWS).to_json(source, orient="records", lines=True)
    import_sources("jsonl", [source], folder / "suite")
    report = run_suite(load_suite(folder / "suite"), create_judge("offline"), Policy())
    db = folder / "imported.db"
    with Store(db) as store:
        store.save_run(report)
    return db


@pytest.fixture
def imported_app(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("HALGATE_DB", str(imported_run_db(tmp_path)))
    monkeypatch.setenv("HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF", "1")
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def _sources_shown(at: AppTest) -> str:
    caption = [i for i, c in enumerate(at.caption) if c.value == "Imported from"]
    assert caption, "no provenance shown"
    shown = [t.value for t in at.text if SOURCE in t.value]
    assert len(shown) == 1
    return shown[0]


def test_the_triage_card_says_where_question_answer_and_document_were_read(imported_app):
    at = goto(imported_app, "triage")
    lines = _sources_shown(at).splitlines()
    # Row 1 of the file is case q1, whose candidate answer holds the severe claim.
    assert [line.split(": ")[0] for line in lines[:2]] == ["question", "answer (candidate)"]
    assert all(line.endswith(f"{SOURCE}:1") for line in lines[:2])
    assert len(lines) >= 3
    assert all(line.startswith("document doc-") and SOURCE in line for line in lines[2:])
    # As text: the file name's <img> is never markup anywhere on the page.
    assert all("<img src=x" not in h.value for h in at.html)
    assert all("<img src=x" not in m.value for m in at.markdown)


def test_the_claims_explorer_shows_the_chosen_claims_sources(imported_app):
    at = goto(imported_app, "claims")
    lines = _sources_shown(at).splitlines()
    assert lines[0].startswith("question: ") and lines[0].endswith(f"{SOURCE}:1")
    assert lines[1].startswith("answer (")


@pytest.mark.browser
@pytest.mark.parametrize("size", [(1440, 900), (1024, 768)])
def test_in_chromium_the_card_shows_the_file_name_as_text(tmp_path, size):
    """Left as tests/artifacts/provenance_triage_<size>.png for a person to look at."""
    from playwright.sync_api import sync_playwright

    from ..dashboard.browser import ARTIFACTS, browser_or_skip, launch, serve_dashboard

    browser_or_skip()
    db = imported_run_db(tmp_path)
    width, height = size
    with serve_dashboard(db) as url, sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{url}/triage", wait_until="domcontentloaded")
            shown = page.get_by_text("Imported from", exact=True)
            shown.wait_for(timeout=60_000)
            shown.scroll_into_view_if_needed()
            page.wait_for_timeout(1000)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"provenance_triage_{width}x{height}.png"))
            lines = page.locator('[data-testid="stText"]', has_text=SOURCE)
            assert lines.count() == 1 and "question: " in lines.inner_text()
            assert page.locator("img[src='x']").count() == 0  # the name never became markup
        finally:
            browser.close()
