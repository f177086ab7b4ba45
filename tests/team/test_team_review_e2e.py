"""Team review end to end: two reviewers and a release manager, three OIDC logins, three
browser contexts, one store.

The run asks two blind reviews per item (``reviews_per_item = 2``). Roles come from the
server's own sources: the login's ``groups`` claim (ana is in ``halgate-reviewers``, carol
in ``halgate-release``) and the store's roles table (ben, granted ``reviewer`` there). Ana
and Ben label the same two audit answers in the Review queue; Ben cannot see Ana's label
before recording his own; they disagree on one, which holds the gate at NEEDS_REVIEW until
Carol adjudicates it. The Agreement page then shows the kappa and the confusion matrix, the
corrected rate moves with the adjudicated label, and Carol signs off; Ana, who holds no
release-manager role, is refused. Screenshots of the queue and the agreement page go to
tests/artifacts/.

The store is one PostgreSQL database on the tests' own server (``pg_url``), the team
deployment this is for; the dashboard and the checks here all reach it by its URL.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from halgate.store import Store

from ..conftest import AUDIT_GATED, build_report
from ..dashboard.browser import (
    ARTIFACTS,
    goto_page,
    launch,
    login_server_folder,
    serve_dashboard,
    shoot,
)
from ..dashboard.test_dashboard_login_e2e import _log_in
from ..dashboard.test_dashboard_login_e2e import provider as provider  # the fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.filterwarnings("ignore::DeprecationWarning:authlib.*"),
]
ANA, BEN, CAROL = "ana@example.test", "ben@example.test", "carol@example.test"
GROUPS = {ANA: ["halgate-reviewers"], BEN: [], CAROL: ["halgate-release"]}


@pytest.fixture
def store_url(pg_url: str) -> str:
    """Where the team's store lives: one PostgreSQL database shared by the three users'
    sessions (a fresh one on the tests' own server; skipped only where none can be had)."""
    return pg_url


def _label_label(hallucinated: bool) -> str:
    return "HALLUCINATED" if hallucinated else "FAITHFUL"


def _seed(store_url: str) -> tuple[str, list[tuple[str, bool]]]:
    """The run, its severe claims and all but two audit answers settled by an earlier panel
    (x and y agreeing); ben's reviewer role in the roles table. Returns the run id and the
    two audit answers left, each with the judge's label."""
    with Store(store_url) as store:
        run_id = store.save_run(build_report(reviews_per_item=2, **AUDIT_GATED))
        store.change_role("grant", BEN, "reviewer", "admin@example.test")
        audit = [
            (i.review_id, i.judge_hallucinated) for i in store.reviewed_run(run_id).queue.audit
        ]
        for claim in ("q1/candidate/0", "q2/candidate/0"):
            for who in ("x@example.test", "y@example.test"):
                store.add_panel_label(run_id, claim, "CONTRADICTED", "checked", who)
        # The disputed one is a candidate answer the judge flags: adjudicated faithful, it
        # must move the candidate's corrected rate whatever order the audit drew.
        split = next(a for a in audit if a[0].endswith(":candidate") and a[1])
        same = next(a for a in audit if a != split)
        for item, judged in audit:
            if item not in (same[0], split[0]):
                for who in ("x@example.test", "y@example.test"):
                    store.add_panel_label(run_id, item, _label_label(judged), "checked", who)
    return run_id, [same, split]


def _users(provider_url: str) -> None:
    """The three accounts with their groups claim, put on the provider (its user API)."""
    for sub, groups in GROUPS.items():
        body = json.dumps({"email": sub, "email_verified": True, "groups": groups}).encode()
        req = urllib.request.Request(
            f"{provider_url}/users/{sub}", data=body, method="PUT",
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 204


@pytest.fixture
def team_dashboard(provider: str, store_url: str, tmp_path: Path) -> Iterator[tuple]:
    """(url, run id, the two audit answers left): the dashboard with an OIDC login whose
    groups claim grants roles (halgate.toml), on the seeded store."""
    run_id, left = _seed(store_url)
    _users(provider)
    work = tmp_path / "server"
    port = login_server_folder(work, provider)
    (work / "halgate.toml").write_text(
        '[review]\nroles_claim = "groups"\n\n[review.role_groups]\n'
        'reviewer = ["halgate-reviewers"]\nrelease_manager = ["halgate-release"]\n',
        encoding="utf-8",
    )
    env = {
        "HALGATE_RELEASE_MANAGERS": "",
        "HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF": "",
        "HALGATE_ROLES_CLAIM": "",
    }
    log = tmp_path / "dashboard.log"
    try:
        with serve_dashboard(store_url, port, cwd=work, env=env, log=log) as url:
            yield url, run_id, left
    finally:
        print(log.read_text(encoding="utf-8", errors="replace")[-4000:])


def _pick(page, item_id: str) -> None:
    """Choose an item of the queue in the "Item" box."""
    from playwright.sync_api import TimeoutError, expect

    box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Item")
    option = page.get_by_role("option", name=item_id, exact=True)
    for attempt in range(3):  # a rerun may redraw the box and close its list: open it again
        box.click()
        try:
            option.click(timeout=10_000)
            break
        except TimeoutError:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
            page.wait_for_timeout(1000)
    expect(page.get_by_text(f"{item_id} ·")).to_be_visible()


def _record(page, item_id: str, label: str, button: str = "Record my label") -> None:
    from playwright.sync_api import expect

    _pick(page, item_id)
    form = page.locator('[data-testid="stForm"]')
    form.get_by_text(label, exact=True).click()
    form.get_by_label("Comment (why)").fill(f"{label.lower()} against the sources")
    form.get_by_role("button", name=button).click()
    expect(page.get_by_text(f"{item_id}: ")).to_be_visible()


def _corrected(store_url: str, run_id: str) -> float | None:
    with Store(store_url) as store:
        rates = store.effective_report(run_id).rates["candidate"]
    return rates.corrected.estimate if rates.corrected else None


def _status(store_url: str, run_id: str) -> str:
    with Store(store_url) as store:
        return store.effective_report(run_id).decision.status.value


def test_two_reviewers_disagree_the_release_manager_adjudicates_and_signs_off(
    team_dashboard, provider, store_url
):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, run_id, [(same, judged_same), (split, judged_split)] = team_dashboard
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            ana = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            _log_in(ana, url, provider, ANA)
            expect(ana.get_by_text("Roles: reviewer")).to_be_visible()
            goto_page(ana, "Review queue")
            _record(ana, same, _label_label(judged_same))
            _record(ana, split, _label_label(judged_split))

            ben = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            _log_in(ben, url, provider, BEN)
            goto_page(ben, "Review queue")
            _pick(ben, same)  # blind: Ana's label stays hidden until Ben records his
            expect(ben.get_by_text("1 label(s) hidden until you record yours.")).to_be_visible()
            expect(ben.get_by_text(f"{ANA}: ")).to_have_count(0)
            _record(ben, same, _label_label(judged_same))
            expect(ben.get_by_text(f"{ANA}: {_label_label(judged_same)}")).to_be_visible()
            _record(ben, split, _label_label(not judged_split))
            expect(ben.get_by_text("In force")).to_have_count(0)
            before = _corrected(store_url, run_id)
            assert _status(store_url, run_id) == "NEEDS_REVIEW"  # the dispute holds the gate
            shoot(ben, "team-review-queue-disputed")

            tall = {"width": 1400, "height": 2000}  # the whole agreement page in one shot
            carol = browser.new_context(viewport=tall).new_page()
            _log_in(carol, url, provider, CAROL)
            expect(carol.get_by_text("Roles: release_manager, reviewer")).to_be_visible()
            goto_page(carol, "Review queue")
            _record(carol, split, _label_label(not judged_split), button="Adjudicate")
            expect(carol.get_by_text(f"adjudicated by {CAROL}")).to_be_visible()
            after = _corrected(store_url, run_id)
            print(f"candidate's corrected rate: {before} before, {after} after adjudication")
            assert after != before and _status(store_url, run_id) == "PASSED"

            goto_page(carol, "Agreement")
            expect(carol.get_by_text("Cohen's kappa").first).to_be_visible()
            expect(carol.get_by_text("Judge against people")).to_be_visible()
            metric = carol.locator('[data-testid="stMetricValue"]')
            expect(metric.filter(has_text=f"{after:.1%}")).to_be_visible()
            shoot(carol, "team-review-agreement")
            goto_page(carol, "Sign-off")
            carol.get_by_label("Comment", exact=True).fill("panel settled, shipping")
            carol.get_by_role("button", name="Approve").click()
            expect(carol.get_by_text(f"APPROVE recorded by {CAROL}")).to_be_visible()

            goto_page(ana, "Sign-off")  # a reviewer without the role is refused
            ana.get_by_label("Comment", exact=True).fill("self-approved")
            ana.get_by_role("button", name="Approve").click()
            expect(ana.get_by_text(f"'{ANA}' is not a release manager")).to_be_visible()
        finally:
            browser.close()

    with Store(store_url) as store:
        team = store.team_agreement(run_id)
        signed = store.signoffs(run_id)
    assert team.disputed_items == [] and team.reviewers is not None
    assert team.reviewers.adjudicated == 1 and team.reviewers.cohen_kappa is not None
    assert [(s.reviewer, s.decision.value) for s in signed] == [(CAROL, "APPROVED")]
    r = team.reviewers
    print(f"kappa {r.cohen_kappa:.3f} fleiss {r.fleiss_kappa:.3f} alpha {r.krippendorff_alpha:.3f}")
