"""End to end in a real headless Chromium against `halgate dashboard` (streamlit run).

Starts the dashboard on a database judged from the bundled example suite; in Triage a submit
refused for want of a name keeps the form, a CRITICAL claim is overturned and the next one
confirmed, and the decision banner and the whole-queue table follow each step; a refused
sign-off keeps its comment; every page is screenshotted at 1440x900 into tests/artifacts/;
an ``<img onerror>`` in an answer shows as text and runs nothing; and the browser makes no
request to any host but the dashboard's own (the app must work offline). Skipped without
/usr/bin/chromium unless HALGATE_REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from halgate.store import Store

from ..conftest import EXAMPLE_SUITE, judged_run_db
from .browser import ARTIFACTS, browser_or_skip, goto_page, launch, serve_dashboard, shoot

PAYLOAD = "<img src=x onerror=\"window.__hg_xss=1;alert('xss')\">"
pytestmark = pytest.mark.browser


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
    """`halgate dashboard --db ... --port ...` running as a subprocess; its base URL. No login
    is configured and, as in `make demo`, a typed name may sign off (and is refused unless it
    is a release manager's)."""
    browser_or_skip()
    allow = {"HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF": "1"}
    with serve_dashboard(example_db[0], env=allow) as url:
        yield url


LOCAL_HOSTS = {"127.0.0.1", "localhost"}
SCREEN = {"width": 1440, "height": 900}


def _claim_on_screen(page) -> str:
    """The id of the claim Triage shows now (from its "claim ID · N left" caption)."""
    caption = page.get_by_text(re.compile(r"^claim \S+ · \d+ left to review$"))
    return caption.inner_text().split()[1]


def _queue_row(page, claim_id: str, *expected: str, timeout: float = 30) -> str:
    """The text of the "Whole queue" row of a claim once it shows every ``expected`` text.

    Read from the grid's accessible table, which holds only the rows in view, so the grid is
    scrolled to both ends while waiting (a reviewed claim may sort elsewhere).
    """
    grid = page.locator('[data-testid="stExpander"]').filter(has_text="Whole queue")
    grid = grid.locator('[data-testid="stDataFrame"]').first  # claims; then the audit sample
    seen = ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for dy in (-10_000, 10_000):
            grid.hover()
            page.mouse.wheel(0, dy)
            page.wait_for_timeout(250)
            row = grid.locator("table tr").filter(has_text=claim_id)
            seen = row.first.inner_text() if row.count() else seen
            if row.count() and all(t in seen for t in expected):
                return seen
    raise AssertionError(f"queue row {claim_id} never showed {expected}; last seen {seen!r}")


def test_triage_round_in_a_real_browser(dashboard_url, example_db):
    """Refused submit keeps the form; overturn then confirm, the queue table current after
    each; every page screenshotted at 1440x900; no request leaves this machine."""
    from playwright.sync_api import expect, sync_playwright

    # A loaded 2-core CI machine reruns Streamlit scripts slowly: wait up to 30 s, not 5 s.
    expect.set_options(timeout=30_000)

    db, run_id, xss_case = example_db
    with Store(db) as store:
        queued = len(store.review_queue(run_id))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    dialogs: list[str] = []
    requests: list[str] = []
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport=SCREEN)
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(dashboard_url, wait_until="domcontentloaded")
            page.get_by_role("heading", name="Runs", exact=True).wait_for(timeout=60_000)
            expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
            shoot(page, "runs")

            goto_page(page, "Triage")
            banner = page.locator(".hg-banner")
            expect(banner).to_contain_text("FAILED", timeout=60_000)
            before = banner.inner_text()
            assert f"{queued} pending review" in before

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
            first = _claim_on_screen(page)

            # Refused (no name yet): the comment and the chosen verdict stay in the form.
            why = "Source states the opposite of the judge."
            comment = page.get_by_label("Comment (why)")
            comment.fill(why)
            verdict = page.locator('[data-testid="stSelectbox"]').filter(has_text="New verdict")
            verdict.click()
            page.get_by_role("option", name="SUPPORTED", exact=True).click()
            page.get_by_role("button", name="Overturn").click()
            expect(page.get_by_text("Enter your name in the sidebar")).to_be_visible()
            expect(comment).to_have_value(why)
            expect(page.get_by_role("combobox", name="New verdict")).to_have_value("SUPPORTED")

            name = page.get_by_label("Your name (recorded with reviews)")
            name.fill("e2e-reviewer")
            name.press("Enter")
            expect(comment).to_have_value(why)

            page.get_by_text("Whole queue").click()
            _queue_row(page, first, "false")
            page.get_by_role("button", name="Overturn").click()
            expect(banner).to_contain_text(f"{queued - 1} pending review", timeout=30_000)
            assert banner.inner_text() != before
            expect(page.get_by_text(f"1 of {queued} reviewed")).to_be_visible()
            _queue_row(page, first, "SUPPORTED", "true", "e2e-reviewer")
            expect(comment).to_have_value("")  # the next claim starts with an empty form

            second = _claim_on_screen(page)
            assert second != first
            comment.fill("the judge read the source right")
            page.get_by_role("button", name="Confirm judge").click()
            expect(banner).to_contain_text(f"{queued - 2} pending review", timeout=30_000)
            _queue_row(page, second, "true", "e2e-reviewer")
            shoot(page, "triage")

            # Sign-off refused (e2e-reviewer is no release manager): the comment stays.
            goto_page(page, "Sign-off")
            note = page.get_by_label("Comment", exact=True)
            note.fill("ship after the two reviews")
            page.get_by_role("button", name="Approve").click()
            expect(page.get_by_text("sign-off refused")).to_be_visible()
            expect(note).to_have_value("ship after the two reviews")
            shoot(page, "signoff")

            for title, shot in (
                ("Overview", "overview"),
                ("Claims explorer", "claims"),
                ("Pairwise", "pairwise"),
            ):
                goto_page(page, title)
                shoot(page, shot)
            assert page.evaluate("() => window.__hg_xss === undefined")
            assert dialogs == []
        finally:
            browser.close()

    foreign = [u for u in requests if urlsplit(u).scheme in ("http", "https", "ws", "wss")]
    foreign = [u for u in foreign if urlsplit(u).hostname not in LOCAL_HOSTS]
    assert requests and foreign == []
    with Store(db) as store:
        overturn, confirm = store.override_history(run_id)
    assert overturn.reviewer == confirm.reviewer == "e2e-reviewer"
    assert overturn.verdict is not None and overturn.verdict.value == "SUPPORTED"
    assert overturn.comment == why
    assert overturn.claim_id.startswith(xss_case + "/")
    assert (confirm.claim_id, confirm.verdict) == (second, None)
