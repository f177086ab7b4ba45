"""The dashboard on a PostgreSQL team store: every page renders, the sidebar names the store
without its password, and a review made elsewhere shows on the next refresh."""

from __future__ import annotations

import pytest
from halgate.store import Store
from halgate.store.copy import copy_store
from streamlit.testing.v1 import AppTest

from ..dashboard.conftest import APP, goto
from ..pg.server import PASSWORD

PAGES = ["runs", "overview", "claims", "triage", "signoff"]


@pytest.fixture
def team_app(dashboard_db, pg_url, monkeypatch) -> tuple[AppTest, str, str]:
    db, run_id = dashboard_db
    with Store(db) as src, Store(pg_url) as dst:
        copy_store(src, dst)
    monkeypatch.setenv("HALGATE_DB", pg_url)
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    return at, pg_url, run_id


def test_every_page_renders_on_postgresql_and_no_page_shows_the_password(team_app):
    at, url, _ = team_app
    assert any("postgresql://halgate_admin:***@127.0.0.1" in t.value for t in at.sidebar.text)
    for page in PAGES:
        goto(at, page)
        assert not at.error
        shown = " ".join(str(e.value) for e in [*at.text, *at.markdown, *at.caption, *at.error])
        assert PASSWORD not in shown


def _overrides_listed(at: AppTest) -> list[int]:
    return [int(n) for n in at.dataframe[0].value["overrides"].tolist()]


def test_a_review_from_another_replica_shows_on_the_next_refresh(team_app):
    at, url, run_id = team_app
    goto(at, "runs")
    assert _overrides_listed(at) == [0]
    with Store(url) as other:  # another dashboard replica, its own connection
        claim = other.review_queue(run_id)[0].claim.claim_id
        other.add_override(run_id, claim, verdict="SUPPORTED", comment="seen", reviewer="bo")
    goto(at, "runs")  # the next refresh of this replica
    assert _overrides_listed(at) == [1]
