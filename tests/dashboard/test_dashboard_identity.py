"""Who the dashboard knows (#12 items 3 and 7), driven through AppTest.

Without ``[auth]`` in secrets the sidebar says plainly that the dashboard runs
unauthenticated, and sign-off is off unless the server allows it
(``HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF`` or ``[review] allow_unauthenticated_signoff``).
With ``[auth]`` there is no typed name: reviews and sign-offs need the logged-in ``st.user``.
The "folder on this machine" box serves suites under the configured roots only, and says the
same thing for a missing folder as for one outside them. (The login itself, through a real
OpenID Connect provider, is test_dashboard_login_e2e.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from halgate.store import Store
from streamlit.testing.v1 import AppTest

from ..conftest import REPO, build_report
from .conftest import goto

ALLOW = "HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF"
AUTH = {
    "auth": {
        "redirect_uri": "http://127.0.0.1:8501/oauth2callback",
        "cookie_secret": "not-a-real-secret-but-long-enough-for-the-test",
        "client_id": "halgate",
        "client_secret": "s3cret",
        "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration",
    }
}


def texts(elements) -> list[str]:
    return [e.value.replace("\\", "") for e in elements]  # the pages escape Markdown


def button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


def approve(at: AppTest, comment: str = "approved after review") -> AppTest:
    """Fill the Sign-off form and press Approve."""
    at.text_area(key="so-comment").input(comment)
    at.checkbox(key="so-override-gate").check()  # the fixture run is FAILED
    button(at, "Approve").click().run()
    assert not at.exception
    return at


def signoffs(run) -> list[str]:
    db, run_id = run
    with Store(db) as store:
        return [s.reviewer for s in store.signoffs(run_id)]


@pytest.fixture
def run(tmp_path: Path) -> tuple[Path, str]:
    """(database, run id): the FAILED fixture run, two CRITICAL claims in its review queue."""
    db = tmp_path / "identity.db"
    with Store(db) as store:
        return db, store.save_run(build_report())


@pytest.fixture
def app(run, tmp_path, monkeypatch) -> AppTest:
    """The app on ``run`` with the server's defaults: no login, no allowance, rita the
    release manager, suites served from the test's folder (also the working directory)."""
    monkeypatch.setenv("HALGATE_DB", str(run[0]))
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    monkeypatch.setenv("HALGATE_SUITE_ROOTS", str(tmp_path))
    monkeypatch.chdir(tmp_path)  # no halgate.toml here (yet)
    at = AppTest.from_file(str(REPO / "dashboard" / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    return at


@pytest.fixture
def unauthenticated(app) -> AppTest:
    """Sign-off, no login, rita (a release manager) typed in the sidebar."""
    app.sidebar.text_input(key="reviewer_name").set_value("rita")
    return goto(app, "signoff")


def test_without_login_the_sidebar_says_the_dashboard_runs_unauthenticated(unauthenticated):
    warning = " ".join(texts(unauthenticated.sidebar.warning))
    assert "runs unauthenticated" in warning and "[auth]" in warning
    assert "Sign-off from the dashboard is off without a login." in texts(
        unauthenticated.sidebar.caption
    )


def test_without_login_sign_off_is_off_even_for_a_release_manager(unauthenticated, run):
    at = unauthenticated
    assert any("sign-off is off" in w and ALLOW in w for w in texts(at.warning))
    assert button(at, "Approve").disabled and button(at, "Reject").disabled
    assert signoffs(run) == []


def test_the_sign_off_callback_asks_the_rule_again(unauthenticated, run, monkeypatch):
    """The form was drawn while allowed; the allowance is gone when Approve arrives."""
    monkeypatch.setenv(ALLOW, "1")
    at = goto(unauthenticated, "signoff")
    monkeypatch.delenv(ALLOW)
    approve(at)
    assert any("sign-off is off" in e for e in texts(at.error))
    assert signoffs(run) == []


@pytest.mark.parametrize("how", ["variable", "halgate.toml"])
def test_the_server_may_allow_sign_off_without_login(
    unauthenticated, run, monkeypatch, tmp_path, how
):
    if how == "variable":
        monkeypatch.setenv(ALLOW, "1")
    else:
        (tmp_path / "halgate.toml").write_text("[review]\nallow_unauthenticated_signoff = true\n")
    at = goto(unauthenticated, "signoff")
    assert "Sign-off by a typed name is allowed on this server." in texts(at.sidebar.caption)
    assert not button(at, "Approve").disabled
    approve(at)
    assert any("APPROVE recorded by rita" in s for s in texts(at.success))
    assert signoffs(run) == ["rita"]


def test_a_bad_allow_setting_keeps_sign_off_off_and_says_why(unauthenticated, monkeypatch):
    monkeypatch.setenv(ALLOW, "maybe")
    at = goto(unauthenticated, "signoff")
    assert not at.exception
    assert any(ALLOW in w and "expected 1 or 0" in w for w in texts(at.warning))
    assert button(at, "Approve").disabled


@pytest.fixture
def with_login(app) -> AppTest:
    """The app with ``[auth]`` configured and nobody logged in yet."""
    app.secrets = AUTH
    app.user = {"is_logged_in": False}
    app.run()
    assert not app.exception
    return app


def test_with_login_configured_nobody_types_a_name_and_nothing_says_unauthenticated(with_login):
    at = with_login
    assert [b.label for b in at.sidebar.button] == ["Log in"]
    assert not [t for t in at.sidebar.text_input if t.key == "reviewer_name"]
    assert not any("unauthenticated" in w for w in texts(at.sidebar.warning))


def test_with_login_configured_a_review_needs_the_logged_in_user(with_login, run):
    at = goto(with_login, "triage")
    button(at, "Confirm judge").click().run()
    assert any("log in" in e for e in texts(at.error))
    db, run_id = run
    with Store(db) as store:
        assert store.override_history(run_id) == []


def test_with_login_configured_sign_off_needs_the_logged_in_user(with_login, run, monkeypatch):
    monkeypatch.setenv(ALLOW, "1")  # an allowance for typed names does not replace the login
    at = goto(with_login, "signoff")
    assert any("log in first" in w for w in texts(at.warning))
    assert button(at, "Approve").disabled
    assert signoffs(run) == []


def test_the_logged_in_release_manager_reviews_and_signs_off_under_that_name(with_login, run):
    at = with_login  # and no allowance: a login needs none
    at.user = {"is_logged_in": True, "email": "rita", "email_verified": True, "name": "Rita"}
    at = goto(at, "triage")
    assert "rita" in texts(at.sidebar.text)
    at.text_area[0].input("checked against the leaflet")
    button(at, "Confirm judge").click().run()
    at = goto(at, "signoff")
    assert not button(at, "Approve").disabled
    approve(at)
    db, run_id = run
    with Store(db) as store:
        assert [o.reviewer for o in store.override_history(run_id)] == ["rita"]
    assert signoffs(run) == ["rita"]


def test_a_logged_in_user_who_is_no_release_manager_is_refused(with_login, run):
    with_login.user = {
        "is_logged_in": True,
        "email": "mallory@example.test",
        "email_verified": True,
    }
    at = approve(goto(with_login, "signoff"))
    assert any("not a release manager" in e for e in texts(at.error))
    assert signoffs(run) == []


# --------------------------------------------------------------------------- suite roots


def _run_folder(at: AppTest, folder: str) -> str:
    at.text_input(key="nr-folder").input(folder)
    button(at, "Run").click().run()
    assert not at.exception
    return " ".join(texts(at.error))


def test_a_folder_outside_the_roots_and_a_missing_one_get_the_same_words(app, tmp_path):
    outside = tmp_path.parent  # exists, holds the suite, but is above the root
    missing = _run_folder(app, str(tmp_path / "no-such-suite"))
    beyond = _run_folder(app, str(outside))
    escaping = tmp_path / "link"
    escaping.symlink_to(outside, target_is_directory=True)
    linked = _run_folder(app, str(escaping))
    assert "not an allowed suite folder" in missing
    assert missing == beyond == linked
    assert str(outside) not in missing


def test_a_suite_under_the_root_may_be_named_relative_to_it(app, tiny_suite: Path):
    # Whether the run then succeeds is the judge's business (test_dashboard_apptest.py).
    assert "not an allowed suite folder" not in _run_folder(app, tiny_suite.name)
    assert "not an allowed suite folder" in _run_folder(app, "..")
