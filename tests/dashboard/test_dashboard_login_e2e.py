"""The dashboard's login, end to end: Streamlit's ``st.login`` against a real OpenID Connect
provider, in a real headless Chromium.

The test starts ``oidc-provider-mock`` on 127.0.0.1 (the far side of the wire; everything on
our side runs for real), writes ``.streamlit/secrets.toml`` with ``[auth]`` and a
``halgate.toml`` naming the release manager into a working folder, and starts
``halgate dashboard`` there. Before login the sidebar offers only "Log in" (no typed name, no
"unauthenticated" notice) and Sign-off is off. Carol logs in through the provider's form,
confirms a claim in Triage and approves on Sign-off: both are recorded under her logged-in
identity. Mallory, logged in too but no release manager, is refused. Skipped without
Chromium, playwright or the provider package unless HALGATE_REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import importlib.util
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from halgate.store import Store

from ..conftest import build_report
from .browser import (
    browser_or_skip,
    goto_page,
    launch,
    login_server_folder,
    require,
    serve_dashboard,
)

pytestmark = [
    pytest.mark.browser,
    # The provider package and Authlib warn about their own APIs; nothing of ours.
    pytest.mark.filterwarnings("ignore::DeprecationWarning:authlib.*"),
]
MANAGER = "carol@example.test"
OUTSIDER = "mallory@example.test"


def _provider_or_skip() -> None:
    missing = []
    for module, package in (("oidc_provider_mock", "oidc-provider-mock"), ("authlib", "Authlib")):
        if importlib.util.find_spec(module) is None:
            missing.append(f"the {package} package")
    require(missing)


@pytest.fixture
def provider() -> Iterator[str]:
    """An OpenID Connect provider on 127.0.0.1 (any client id and secret; a user logs in by
    typing a subject, which becomes their email claim); its base URL."""
    browser_or_skip()
    _provider_or_skip()
    import werkzeug.serving

    with warnings.catch_warnings():  # Authlib turns its own deprecations to "always" on import
        import authlib.deprecate  # noqa: F401  (first: its filter, then ours in front of it)

        warnings.simplefilter("ignore", DeprecationWarning)
        import oidc_provider_mock

    server = werkzeug.serving.make_server("127.0.0.1", 0, oidc_provider_mock.app(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)
        server.server_close()


@pytest.fixture
def login_dashboard(provider: str, tmp_path: Path) -> Iterator[tuple]:
    """(url, db, run id): `halgate dashboard` on the FAILED fixture run (two CRITICAL claims to
    review; its policy's "rita" grants nothing), started in a folder whose secrets.toml
    configures the login against ``provider`` and whose halgate.toml names the manager."""
    db = tmp_path / "login.db"
    with Store(db) as store:
        run_id = store.save_run(build_report())
    work = tmp_path / "server"
    port = login_server_folder(work, provider)
    (work / "halgate.toml").write_text(
        f'[review]\nrelease_managers = ["{MANAGER}"]\n', encoding="utf-8"
    )
    # The server's configuration is the folder's files alone: no variable overrides them.
    env = {"HALGATE_RELEASE_MANAGERS": "", "HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF": ""}
    log = tmp_path / "dashboard.log"
    try:
        with serve_dashboard(db, port, cwd=work, env=env, log=log) as url:
            yield url, db, run_id
    finally:
        print(log.read_text(encoding="utf-8", errors="replace")[-4000:])


def _log_in(page, url: str, provider: str, who: str) -> None:
    """From the dashboard's Log in button through the provider's form and back, logged in."""
    from playwright.sync_api import expect

    page.goto(url, wait_until="domcontentloaded")
    sidebar = page.locator('[data-testid="stSidebar"]')
    login = sidebar.get_by_role("button", name="Log in")
    expect(login).to_be_visible(timeout=60_000)
    expect(sidebar.get_by_label("Your name (recorded with reviews)")).to_have_count(0)
    expect(page.get_by_text("runs unauthenticated")).to_have_count(0)
    login.click()
    page.wait_for_url(provider + "/oauth2/authorize**", timeout=30_000)
    # The provider's "custom subject" form (its markup differs between versions; the field's
    # name does not). Earlier subjects are listed as "Authorize as ..." buttons: not those.
    form = page.locator("form").filter(has=page.locator('input[name="sub"]'))
    form.locator('input[name="sub"]').fill(who)
    form.get_by_role("button", name="Authorize", exact=True).click()
    page.wait_for_url(url + "/**", timeout=30_000)
    expect(sidebar.get_by_text(who, exact=True)).to_be_visible(timeout=60_000)
    expect(sidebar.get_by_role("button", name="Log out")).to_be_visible()


def _acknowledge(page) -> None:
    """Tick "I approve although the gate's decision is FAILED" (the fixture run failed)."""
    page.get_by_text("I approve although the gate's decision is FAILED").click()


def test_login_through_a_real_oidc_provider_then_review_and_sign_off(login_dashboard, provider):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)  # a loaded 2-core CI machine reruns scripts slowly
    url, db, run_id = login_dashboard
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            # Not logged in: Sign-off says to log in, and its buttons are off.
            page = browser.new_page()
            page.goto(url, wait_until="domcontentloaded")
            page.get_by_role("heading", name="Runs", exact=True).wait_for(timeout=60_000)
            goto_page(page, "Sign-off")
            expect(page.get_by_text("log in first")).to_be_visible()
            expect(page.get_by_role("button", name="Approve")).to_be_disabled()
            page.close()

            # Carol, a release manager, logs in: her review and her sign-off carry her login.
            page = browser.new_context().new_page()
            _log_in(page, url, provider, MANAGER)
            goto_page(page, "Triage")
            page.get_by_label("Comment (why)").fill("checked against the source")
            page.get_by_role("button", name="Confirm judge").click()
            expect(page.get_by_text(f"confirmed by {MANAGER}")).to_be_visible()
            goto_page(page, "Sign-off")
            expect(page.get_by_text("log in first")).to_have_count(0)
            page.get_by_label("Comment", exact=True).fill("reviewed, shipping with the known issue")
            _acknowledge(page)
            page.get_by_role("button", name="Approve").click()
            expect(page.get_by_text(f"APPROVE recorded by {MANAGER}")).to_be_visible()
            page.context.close()

            # Mallory logs in too, but is no release manager: refused, nothing recorded.
            page = browser.new_context().new_page()
            _log_in(page, url, provider, OUTSIDER)
            goto_page(page, "Sign-off")
            page.get_by_label("Comment", exact=True).fill("self-approved")
            _acknowledge(page)
            page.get_by_role("button", name="Approve").click()
            expect(page.get_by_text("is not a release manager")).to_be_visible()
            page.context.close()
        finally:
            browser.close()

    with Store(db) as store:
        assert [o.reviewer for o in store.override_history(run_id)] == [MANAGER]
        assert [(s.reviewer, s.decision.value) for s in store.signoffs(run_id)] == [
            (MANAGER, "APPROVED")
        ]
