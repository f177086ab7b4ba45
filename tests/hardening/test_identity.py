"""#32 guarantee 2 (identity): a login's identity is its subject or a verified email, never a
display name; without a login, overrides and audit labels move the gate only where the
switch that allows unauthenticated sign-off allows them, and the dashboard says so."""

from __future__ import annotations

import pytest
from halgate.errors import PermissionDeniedError
from halgate.review import check_review_identity, login_identity
from halgate.store import Store
from streamlit.testing.v1 import AppTest

from ..conftest import REPO

APP = REPO / "dashboard" / "app.py"


@pytest.mark.parametrize(
    ("user", "identity"),
    [
        ({"is_logged_in": True, "name": "rita"}, None),  # the probe: a display name only
        ({"is_logged_in": True, "email": "rita", "email_verified": False}, None),  # unverified
        ({"is_logged_in": True, "email": "rita", "sub": "u-93"}, "u-93"),  # unverified: subject
        ({"is_logged_in": True, "email": "rita@x.org", "email_verified": True}, "rita@x.org"),
        ({"is_logged_in": True, "sub": "u-93", "name": "rita"}, "u-93"),
        ({"is_logged_in": False, "email": "rita@x.org", "email_verified": True}, None),
    ],
)
def test_a_login_identity_is_a_verified_email_or_the_subject(user, identity):
    assert login_identity(user) == identity


def test_reviews_without_a_login_follow_the_sign_off_switch():
    check_review_identity(login_configured=False, logged_in=False, allow_unauthenticated=True)
    check_review_identity(login_configured=True, logged_in=True, allow_unauthenticated=False)
    with pytest.raises(PermissionDeniedError, match="reviews are off"):
        check_review_identity(login_configured=False, logged_in=False, allow_unauthenticated=False)
    with pytest.raises(PermissionDeniedError, match="log in first"):
        check_review_identity(login_configured=True, logged_in=False, allow_unauthenticated=True)


@pytest.fixture
def anonymous_app(dashboard_db, monkeypatch) -> AppTest:
    """The dashboard with no login and the unauthenticated switch off (the default)."""
    db, _ = dashboard_db
    monkeypatch.setenv("HALGATE_DB", str(db))
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    monkeypatch.delenv("HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF", raising=False)
    monkeypatch.chdir(db.parent)  # no halgate.toml here
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def test_an_anonymous_overturn_cannot_move_the_gate(anonymous_app, dashboard_db):
    """The probe: a typed name overturned a CRITICAL claim and the gate went FAILED → PASSED."""
    db, run_id = dashboard_db
    at = anonymous_app
    captions = " ".join(c.value for c in at.sidebar.caption)
    assert "Sign-off from the dashboard is off without a login." in captions
    assert "So are reviews: overrides and audit labels would move the gate" in captions
    at.sidebar.text_input(key="reviewer_name").input("rita").run()
    at.switch_page("views/triage.py").run()
    at.text_area[0].input("not a problem")
    key = next(s.key for s in at.selectbox if s.key and s.key.endswith("-verdict"))
    at.selectbox(key=key).set_value("SUPPORTED")
    next(b for b in at.button if b.label == "Overturn").click().run()
    assert not at.exception
    assert any("reviews are off" in e.value.replace("\\", "") for e in at.error)
    with Store(db) as store:
        assert store.override_history(run_id) == []
        assert store.effective_report(run_id).decision.status.value == "FAILED"
