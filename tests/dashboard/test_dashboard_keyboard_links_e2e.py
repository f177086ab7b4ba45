"""Triage keeps its place and links open the same view, in a real headless Chromium.

On the example run (`halgate dashboard`, as `make demo` serves it): two claims are decided in
a row from the keyboard only (type, Alt+Y, type, Alt+Y), and each typed comment must be
recorded on the claim that was on screen when it was typed; the claim card must be on the
first screen at 1440x900 and 1024x768. Then a copied address opens the same claim in a fresh
browser context (no shared session), and the Claims explorer's filters and claim likewise.
Skipped without /usr/bin/chromium or playwright unless HALGATE_REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from halgate.store import Store

from ..conftest import EXAMPLE_SUITE, judged_run_db
from .browser import ARTIFACTS, browser_or_skip, launch, serve_dashboard, shoot

pytestmark = pytest.mark.browser
SIZES = {"1440x900": {"width": 1440, "height": 900}, "1024x768": {"width": 1024, "height": 768}}
REVIEWER = "kim"
# The top of the claim card in the page, as if nothing were scrolled (JS, run in the page).
CARD_TOP = """() => {
  const el = document.getElementById('hg-card');
  let top = el.getBoundingClientRect().top;
  for (let p = el.parentElement; p; p = p.parentElement) top += p.scrollTop;
  return top;
}"""


@pytest.fixture
def example(tmp_path: Path) -> tuple[Path, str]:
    suite = tmp_path / "acme"
    shutil.copytree(EXAMPLE_SUITE, suite)
    db = tmp_path / "example.db"
    return db, judged_run_db(suite, db)


@pytest.fixture
def url(example, tmp_path: Path) -> Iterator[str]:
    browser_or_skip()
    log = tmp_path / "dashboard.log"
    try:
        # No login here: typed names may review only where this server allows it.
        allow = {"HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF": "1"}
        with serve_dashboard(example[0], env=allow, log=log) as base:
            yield base
    finally:
        if log.exists():
            print(log.read_text(encoding="utf-8", errors="replace")[-4000:])


def _settled_choice(page) -> str:
    """The explorer's chosen claim once the rerun after a filter change has drawn it: the
    same value twice in a row, and the one the URL names when it names one."""
    box = page.get_by_role("combobox", name="Inspect claim")
    last = None
    for _ in range(60):
        value = box.input_value()
        in_url = "claim=" not in page.url or f"claim={quote(value, safe='')}" in page.url
        if value == last and in_url:
            return value
        last = value
        page.wait_for_timeout(500)
    raise AssertionError(f"the chosen claim never settled (last {last!r}, url {page.url})")


def _on_screen(page) -> str:
    caption = page.get_by_text(re.compile(r"^claim \S+ · \d+ left to review$"))
    return caption.inner_text().split()[1]


def _sign_in(page, base: str, path: str) -> None:
    page.goto(base + path, wait_until="domcontentloaded")
    name = page.get_by_label("Your name (recorded with reviews)")
    name.wait_for(timeout=60_000)
    name.fill(REVIEWER)
    name.press("Enter")


def test_two_keyboard_decisions_in_a_row_land_on_the_claims_on_screen(url, example):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    db, run_id = example
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport=SIZES["1440x900"])
            _sign_in(page, url, f"/triage?run={run_id}")
            comment = page.get_by_label("Comment (why)").first
            comment.click()  # from the name box in the sidebar to the first claim's comment
            first = _on_screen(page)
            page.keyboard.type("first: the source says so")
            page.keyboard.press("Alt+y")
            expect(page.get_by_text(f"{first} confirmed by {REVIEWER}.")).to_be_visible()
            second = _on_screen(page)
            assert second != first
            expect(comment).to_be_focused()  # the focus followed to the next claim
            page.keyboard.type("second: checked the cited passage")
            page.keyboard.press("Alt+y")
            expect(page.get_by_text(f"{second} confirmed by {REVIEWER}.")).to_be_visible()
            page.keyboard.press("Alt+y")  # a third press, nothing typed: it asks first
            expect(page.get_by_text("again to confirm without one")).to_be_visible()
        finally:
            browser.close()
    with Store(db) as store:
        done = [(o.claim_id, o.comment, o.reviewer) for o in store.override_history(run_id)]
    assert done == [
        (first, "first: the source says so", REVIEWER),
        (second, "second: checked the cited passage", REVIEWER),
    ]


@pytest.mark.parametrize("size", SIZES)
def test_the_claim_card_is_on_the_first_screen(url, example, size):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport=SIZES[size])
            _sign_in(page, url, f"/triage?run={example[1]}")
            page.get_by_label("Comment (why)").first.wait_for()
            top = page.evaluate(CARD_TOP)
            assert top < SIZES[size]["height"] * 0.6, f"claim card starts at {top:.0f} px"
            shoot(page, f"triage_{size}")
        finally:
            browser.close()


def test_a_copied_link_opens_the_same_claim_and_filters_in_a_fresh_context(url, example):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    run_id = example[1]
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport=SIZES["1440x900"])
            _sign_in(page, url, f"/triage?run={run_id}")
            first = _on_screen(page)
            page.get_by_role("button", name="Skip").click()
            expect(page.get_by_text(re.compile(rf"^claim (?!{re.escape(first)} )"))).to_be_visible()
            shown = _on_screen(page)
            expect(page).to_have_url(re.compile(re.escape(f"claim={shown.replace('/', '%2F')}")))
            copied = page.url
            assert "/triage" in copied and f"run={run_id}" in copied

            fresh = browser.new_context(viewport=SIZES["1024x768"]).new_page()
            fresh.goto(copied, wait_until="domcontentloaded")
            fresh.get_by_role("heading", name="Triage", exact=True).wait_for(timeout=60_000)
            expect(fresh.get_by_text(f"claim {shown} ·", exact=False)).to_be_visible()

            page.goto(f"{url}/claims?run={run_id}", wait_until="domcontentloaded")
            verdict = page.locator('[data-testid="stMultiSelect"]').filter(has_text="Verdict")
            verdict.click()
            page.get_by_role("option", name="CONTRADICTED", exact=True).click()
            expect(page).to_have_url(re.compile("verdict=CONTRADICTED"))
            matching = page.get_by_text(re.compile(r"^\d+ of \d+ claims match"))
            count = matching.inner_text()
            page.keyboard.press("Escape")
            picked = _settled_choice(page)
            copied = page.url

            other = browser.new_context(viewport=SIZES["1440x900"]).new_page()
            other.goto(copied, wait_until="domcontentloaded")
            other.get_by_role("heading", name="Claims explorer", exact=True).wait_for()
            expect(other.get_by_text(count, exact=True)).to_be_visible()
            box = other.get_by_role("combobox", name="Inspect claim")
            expect(box).to_have_value(picked)
        finally:
            browser.close()
