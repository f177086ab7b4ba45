"""The pages fit the two screens reviewers use, 1024x768 and 1440x900, in a real Chromium.

Each page of the example run (Runs, Overview, Claims explorer, Triage, Sign-off) is opened at
both sizes and left as a screenshot in tests/artifacts/ (`layout_<page>_<size>.png`) for a
person to look at; the check is the one a screenshot showed failing: the sidebar takes at most
a quarter of a small screen (the Runs table's columns: test_dashboard_apptest.py).
Skipped without /usr/bin/chromium or playwright unless HALGATE_REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from ..conftest import EXAMPLE_SUITE, judged_run_db
from .browser import ARTIFACTS, browser_or_skip, launch, serve_dashboard

pytestmark = pytest.mark.browser
SIZES = {"1024x768": (1024, 768), "1440x900": (1440, 900)}
PAGES = {
    "runs": "Runs",
    "overview": "Overview",
    "claims": "Claims explorer",
    "triage": "Triage",
    "signoff": "Sign-off",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[str, str]]:
    browser_or_skip()
    tmp = tmp_path_factory.mktemp("layout")
    suite = tmp / "acme"
    shutil.copytree(EXAMPLE_SUITE, suite)
    db = tmp / "example.db"
    run_id = judged_run_db(suite, db)
    with serve_dashboard(db, env={"HALGATE_RELEASE_MANAGERS": "rita"}) as url:
        yield url, run_id


def _open(page, url: str, run_id: str, slug: str) -> None:
    path = "" if slug == "runs" else f"/{slug}"
    page.goto(f"{url}{path}?run={run_id}", wait_until="domcontentloaded")
    page.get_by_role("heading", name=PAGES[slug], exact=True).wait_for(timeout=60_000)
    grid = page.locator('[data-testid="stDataFrame"] canvas')
    if slug in ("runs", "claims"):
        grid.first.wait_for(timeout=30_000)
    page.wait_for_timeout(2500)  # charts and grids draw after the heading


@pytest.mark.parametrize("size", SIZES)
def test_every_page_at_both_sizes_left_as_a_screenshot(served, size):
    from playwright.sync_api import sync_playwright

    url, run_id = served
    width, height = SIZES[size]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            for slug in PAGES:
                _open(page, url, run_id, slug)
                page.screenshot(path=str(ARTIFACTS / f"layout_{slug}_{size}.png"))
                if slug == "overview":  # and its charts, further down
                    for i, name in ((0, "shift"), (3, "transitions")):
                        page.locator(".js-plotly-plot").nth(i).scroll_into_view_if_needed()
                        page.wait_for_timeout(500)
                        shot = ARTIFACTS / f"layout_overview_{name}_{size}.png"
                        page.screenshot(path=str(shot))
                sidebar = page.locator('[data-testid="stSidebar"]').bounding_box()
                assert sidebar is not None and sidebar["width"] <= max(width / 4, 300), slug
        finally:
            browser.close()
