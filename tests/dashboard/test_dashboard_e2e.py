"""End to end in a real headless Chromium against `halgate dashboard` (streamlit run).

Starts the dashboard on a database judged from the bundled example suite, overturns a CRITICAL
claim from the triage queue, sees the decision banner change, saves a screenshot of the
side-by-side evidence, and checks that an ``<img onerror>`` in an answer shows as text and
runs nothing. Skipped without /usr/bin/chromium unless HALGATE_REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from halgate.store import Store

from ..conftest import EXAMPLE_SUITE, REPO, judged_run_db

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "tests" / "artifacts"
PAYLOAD = "<img src=x onerror=\"window.__hg_xss=1;alert('xss')\">"
pytestmark = pytest.mark.browser


def _browser_or_skip() -> None:
    missing = []
    if not CHROMIUM.exists():
        missing.append(str(CHROMIUM))
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package")
    if missing:
        msg = f"end-to-end test needs {' and '.join(missing)}"
        if os.environ.get("HALGATE_REQUIRE_BROWSER") == "1":
            pytest.fail(msg + " (HALGATE_REQUIRE_BROWSER=1)")
        pytest.skip(msg)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"halgate dashboard exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError("dashboard did not become healthy")


@pytest.fixture
def example_db(tmp_path: Path) -> tuple[Path, str, str]:
    """(db, run id, case id): the example suite judged, with the payload in the first
    triage case's candidate answer."""
    suite = tmp_path / "acme"
    shutil.copytree(EXAMPLE_SUITE, suite)
    probe = tmp_path / "probe.db"
    with Store(probe) as store:
        first = store.review_queue(judged_run_db(suite, probe))[0].claim.case_id
    path = suite / "answers" / "candidate.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    for row in rows:
        if row["case_id"] == first:
            row["answer"] += " " + PAYLOAD
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    db = tmp_path / "example.db"
    return db, judged_run_db(suite, db), first


@pytest.fixture
def dashboard_url(example_db) -> Iterator[str]:
    """`halgate dashboard --db ... --port ...` running as a subprocess; its base URL."""
    _browser_or_skip()
    port = _free_port()
    halgate = Path(sys.executable).with_name("halgate")
    proc = subprocess.Popen(
        [str(halgate), "dashboard", "--db", str(example_db[0]), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def test_triage_overturn_in_a_real_browser(dashboard_url, example_db):
    from playwright.sync_api import expect, sync_playwright

    db, run_id, xss_case = example_db
    with Store(db) as store:
        queued = len(store.review_queue(run_id))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    dialogs: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--headless",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1300})
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(dashboard_url + "/triage", wait_until="domcontentloaded")
            banner = page.locator(".hg-banner")
            expect(banner).to_contain_text("FAILED", timeout=60_000)
            before = banner.inner_text()
            assert f"{queued} pending review" in before

            name = page.get_by_label("Your name (recorded with reviews)")
            name.fill("e2e-reviewer")
            name.press("Enter")

            # The first claim is CRITICAL and its answer carries the payload: shown as text.
            expect(page.get_by_role("heading", name="CRITICAL")).to_be_visible()
            answer = page.locator(".hg-answer")
            expect(answer).to_contain_text("<img src=x onerror=")
            assert answer.locator("img").count() == 0
            expect(page.locator(".hg-doc mark.cited").first).to_be_visible()
            # The source box scrolls the cited passage into its visible part.
            page.wait_for_function(
                """() => {
                    const m = document.querySelector('.hg-doc mark.cited');
                    const box = m && m.closest('.hg-doc');
                    if (!box) return false;
                    const a = m.getBoundingClientRect(), b = box.getBoundingClientRect();
                    return a.top >= b.top && a.top <= b.bottom;
                }""",
                timeout=10_000,
            )
            evidence = page.locator('[data-testid="stHorizontalBlock"]').filter(
                has=page.locator(".hg-answer")
            )
            evidence.first.screenshot(path=str(ARTIFACTS / "triage_evidence.png"))
            page.screenshot(path=str(ARTIFACTS / "triage_page.png"), full_page=True)

            page.get_by_label("Comment (why)").fill("Source states the opposite of the judge.")
            page.locator('[data-testid="stSelectbox"]').filter(has_text="New verdict").click()
            page.get_by_role("option", name="SUPPORTED", exact=True).click()
            page.get_by_role("button", name="Overturn").click()

            expect(banner).to_contain_text(f"{queued - 1} pending review", timeout=30_000)
            assert banner.inner_text() != before
            expect(page.get_by_text(f"1 of {queued} reviewed")).to_be_visible()
            assert page.evaluate("() => window.__hg_xss === undefined")
            assert dialogs == []
        finally:
            browser.close()

    with Store(db) as store:
        (override,) = store.override_history(run_id)
    assert override.reviewer == "e2e-reviewer"
    assert override.verdict is not None and override.verdict.value == "SUPPORTED"
    assert override.claim_id.startswith(xss_case + "/")
