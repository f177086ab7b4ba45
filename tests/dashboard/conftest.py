"""What the dashboard tests share: the app on the fixture database, and page switching."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from ..conftest import REPO

APP = REPO / "dashboard" / "app.py"


@pytest.fixture
def app(dashboard_db, monkeypatch) -> AppTest:
    """The app on the fixture database, first run done (the Runs page), no reviewer yet."""
    db, _ = dashboard_db
    monkeypatch.setenv("HALGATE_DB", str(db))
    # Release managers come from the server's configuration only (never the run's policy).
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    # As `make demo`: no login here, so typed names may sign off (test_dashboard_identity.py
    # covers the default, off); suite folders are served from the test's own folder.
    monkeypatch.setenv("HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF", "1")
    monkeypatch.setenv("HALGATE_SUITE_ROOTS", str(db.parent))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def goto(at: AppTest, page: str) -> AppTest:
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, at.exception
    return at
