"""The review items of issue #11 end to end, in a real headless Chromium against
`halgate dashboard` (streamlit run), with a reviewer who is also a release manager.

One database holds three runs: a pairwise run whose disagreeing pair holds the gate at
NEEDS_REVIEW, a run gating on the review-corrected rate whose severity queue is reviewed (only
its audit sample is left), and a FAILED run. In Triage the pair is decided B from the keyboard
(Alt+Y with the comment box focused) and the banner leaves NEEDS_REVIEW; an audited answer is
labelled hallucinated; on Sign-off approving the FAILED run is refused without the gate
acknowledgement, keeping the comment, and accepted with it, in force; "My reviews" lists both
reviews. Screenshots at 1440x900 go to tests/artifacts/ (the Pairwise page among them). The
browser asks no host but the dashboard's own. Skipped without /usr/bin/chromium or playwright
unless HALGATE_REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from halgate.review import audit_review_ids
from halgate.scoring.rescore import rescore
from halgate.store import Store

from ..conftest import AUDIT_GATED, build_report, disagreeing_pair
from .browser import ARTIFACTS, browser_or_skip, goto_page, launch, serve_dashboard, shoot

SCREEN = {"width": 1440, "height": 900}
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
REVIEWER = "rita"  # a release manager on this server (HALGATE_RELEASE_MANAGERS)
FAILED = "20260103T000000Z-ffffff"
AUDIT = "20260102T000000Z-aaaaaa"
PAIR = "20260101T000000Z-pppppp"
pytestmark = pytest.mark.browser


def _at(report, day: int):
    return report.model_copy(update={"created_at": f"2026-01-0{day}T00:00:00+00:00"})


@pytest.fixture
def review_db(tmp_path: Path) -> Path:
    """The three runs; the audit run's two severe claims confirmed by someone else."""
    pair = build_report(run_id=PAIR, candidate={}).model_copy(
        update={"pairwise": [disagreeing_pair("q1")]}
    )
    audit = build_report(run_id=AUDIT, **AUDIT_GATED)
    db = tmp_path / "review.db"
    with Store(db) as store:
        store.save_run(_at(rescore(pair), 1))
        store.save_run(_at(audit, 2))
        store.save_run(_at(build_report(run_id=FAILED), 3))
        for claim in ("q1/candidate/0", "q2/candidate/0"):
            store.add_override(AUDIT, claim, comment="confirmed", reviewer="setup")
    return db


@pytest.fixture
def review_url(review_db: Path, tmp_path: Path) -> Iterator[str]:
    browser_or_skip()
    env = {"HALGATE_RELEASE_MANAGERS": REVIEWER, "HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF": "1"}
    log = tmp_path / "dashboard.log"
    try:
        with serve_dashboard(review_db, env=env, log=log) as url:
            yield url
    finally:
        if log.exists():
            print(log.read_text(encoding="utf-8", errors="replace")[-4000:])


def _pick_run(page, run_id: str) -> None:
    """Choose the run in the sidebar's run box (every page shows the run chosen there)."""
    from playwright.sync_api import expect

    box = page.locator('[data-testid="stSidebar"]').get_by_role("combobox", name="Run")
    box.click()
    page.get_by_role("option", name=run_id, exact=True).click()
    expect(box).to_have_value(run_id)


def _radio(page, question: str, choice: str):
    group = page.locator('[data-testid="stRadio"]').filter(has_text=question)
    return group.get_by_text(choice, exact=True)


def test_pair_audit_and_acknowledged_signoff_in_a_real_browser(review_url, review_db):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)  # a loaded 2-core CI machine reruns scripts slowly
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    requests: list[str] = []
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport=SCREEN)
            page.on("request", lambda r: requests.append(r.url))
            page.goto(review_url, wait_until="domcontentloaded")
            page.get_by_role("heading", name="Runs", exact=True).wait_for(timeout=60_000)
            name = page.get_by_label("Your name (recorded with reviews)")
            name.fill(REVIEWER)
            name.press("Enter")
            banner = page.locator(".hg-banner")

            # A disagreeing pair, decided B from the keyboard: the gate leaves NEEDS_REVIEW.
            _pick_run(page, PAIR)
            goto_page(page, "Triage")
            expect(banner).to_contain_text("NEEDS_REVIEW", timeout=60_000)
            expect(page.get_by_text("Keyboard:")).to_be_visible()
            expect(page.get_by_text("A · baseline", exact=True)).to_be_visible()
            expect(page.get_by_text("B · candidate", exact=True)).to_be_visible()
            _radio(page, "Which output is more factual?", "B").click()
            comment = page.get_by_label("Comment (why)")
            comment.fill("B keeps the 100 mg dose of the leaflet")
            shoot(page, "triage_pair")
            comment.press("Alt+y")  # Record decision, the focus still in the comment box
            expect(banner).to_contain_text("PASSED")
            expect(page.get_by_text(f"pairwise:q1: B recorded by {REVIEWER}.")).to_be_visible()
            goto_page(page, "Pairwise")
            expect(page.get_by_text("What is the maximum daily dose?")).to_be_visible()
            reconciled = page.locator('[data-testid="stMetric"]').filter(
                has_text="Reconciled preference"
            )
            expect(reconciled).to_contain_text("B")
            shoot(page, "pairwise_decided")

            # An audited answer, judged as a whole: labelled hallucinated.
            _pick_run(page, AUDIT)
            goto_page(page, "Triage")
            expect(page.get_by_text("Audited answer", exact=False).first).to_be_visible()
            yes = "Yes: hallucinated (something is not backed by the sources)"
            _radio(page, "Does this answer contain a hallucination?", yes).click()
            page.get_by_label("Comment (why)").fill("the dose in the answer is wrong")
            page.get_by_role("button", name="Record label").click()
            expect(page.get_by_text("labelled hallucinated by rita")).to_be_visible()
            expect(page.get_by_text("Audit sample · 1 of 6 answers labelled")).to_be_visible()
            shoot(page, "triage_audit")

            # Approving a FAILED run: refused without the acknowledgement, then accepted.
            _pick_run(page, FAILED)
            goto_page(page, "Sign-off")
            expect(banner).to_contain_text("FAILED")
            note = page.get_by_label("Comment", exact=True)
            note.fill("shipping with the known dose issue, fix in 1.1")
            page.get_by_role("button", name="Approve").click()
            refused = page.get_by_text("sign-off refused")
            expect(refused).to_be_visible()
            expect(refused).to_contain_text("needs an explicit acknowledgement")
            expect(note).to_have_value("shipping with the known dose issue, fix in 1.1")
            page.get_by_text("I approve although the gate's decision is FAILED").click()
            page.get_by_role("button", name="Approve").click()
            expect(page.get_by_text(f"APPROVE recorded by {REVIEWER}.")).to_be_visible()
            expect(page.get_by_text("IN FORCE", exact=False).first).to_be_visible()
            expect(page.get_by_text("(gate overridden)", exact=False).first).to_be_visible()
            shoot(page, "signoff_acknowledged")

            # My reviews: the decision and the label, newest first.
            goto_page(page, "My reviews")
            expect(page.get_by_text(f"2 review(s) by {REVIEWER} in 2 run(s)")).to_be_visible()
            shoot(page, "my_reviews")
        finally:
            browser.close()

    foreign = [u for u in requests if urlsplit(u).scheme in ("http", "https", "ws", "wss")]
    assert requests and [u for u in foreign if urlsplit(u).hostname not in LOCAL_HOSTS] == []
    with Store(review_db) as store:
        [decision] = store.override_history(PAIR)
        label = store.override_history(AUDIT)[-1]
        [signoff] = store.signoffs(FAILED)
        mine = store.reviews_by(REVIEWER)
        first_audited = audit_review_ids(store.load_report(AUDIT))[0]
        assert store.effective_report(PAIR).decision.status.value == "PASSED"
    assert (decision.claim_id, decision.preference.value, decision.reviewer) == (
        "pairwise:q1",
        "B",
        REVIEWER,
    )
    assert decision.comment == "B keeps the 100 mg dose of the leaflet"
    assert (label.claim_id, label.label.value, label.reviewer) == (
        first_audited,
        "HALLUCINATED",
        REVIEWER,
    )
    assert signoff.override_gate and signoff.decision_status.value == "FAILED" and signoff.in_force
    assert [r.override.id for r in mine] == [label.id, decision.id]
