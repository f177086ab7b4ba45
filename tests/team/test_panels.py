"""Issue #29 item 5: review queues for several reviewers, blind labels, adjudication, the
agreement figures, and what they do to the corrected rates and the gate."""

from __future__ import annotations

import json
import sqlite3

import pytest
from halgate.cli import app
from halgate.errors import PermissionDeniedError, UsageError
from halgate.models import GateStatus, Role
from halgate.models.team import PanelItem, PanelLabel
from halgate.review import visible_labels
from halgate.review.panel import round_robin
from halgate.review.team_agreement import reviewer_agreement
from halgate.store import Store
from typer.testing import CliRunner

from ..conftest import AUDIT_GATED, build_report

H, F = "HALLUCINATED", "FAITHFUL"


def _item(item_id: str, *labels: tuple[str, str], state: str = "agreed") -> PanelItem:
    found = [
        PanelLabel(id=n, run_id="r", item_id=item_id, reviewer=who, label=lab, comment="c",
                   created_at="t")
        for n, (who, lab) in enumerate(labels)
    ]  # fmt: skip
    return PanelItem(item_id=item_id, state=state, labels=found)  # type: ignore[arg-type]


def test_kappa_and_alpha_of_a_known_table():
    """Four items, two reviewers: (H,H) (F,F) (H,F) (F,F). Observed agreement 3/4; rater A
    says H half the time, B a quarter: chance agreement .5*.25 + .5*.75 = .5, so Cohen's
    kappa = (.75 - .5) / (1 - .5) = 0.5. Fleiss' kappa pools the raters' shares (3/8 H):
    chance .375² + .625² = .53125, kappa = (.75 - .53125) / .46875 = 7/15. Krippendorff's
    alpha (nominal): observed disagreement 2/8, expected 2·3·5/(8·7) = 30/56, alpha = 8/15."""
    items = [
        _item("a", ("ana", H), ("ben", H)),
        _item("b", ("ana", F), ("ben", F)),
        _item("c", ("ana", H), ("ben", F), state="disputed"),
        _item("d", ("ana", F), ("ben", F)),
    ]
    r = reviewer_agreement(items)
    assert r is not None
    assert (r.n_items, r.n_labels, r.raters, r.disputed) == (4, 8, 2, 1)
    assert r.percent_agreement == pytest.approx(0.75)
    assert r.cohen_kappa == pytest.approx(0.5)
    assert r.fleiss_kappa == pytest.approx(7 / 15)
    assert r.krippendorff_alpha == pytest.approx(8 / 15)


def test_agreement_is_undefined_not_a_number_when_one_label_is_all_there_is():
    r = reviewer_agreement([_item("a", ("ana", H), ("ben", H)), _item("b", ("x", H), ("y", H))])
    assert r is not None and r.percent_agreement == 1.0
    assert (r.cohen_kappa, r.fleiss_kappa, r.krippendorff_alpha) == (None, None, None)
    assert reviewer_agreement([_item("a", ("ana", H))]) is None


def test_labels_stay_hidden_until_the_reviewer_records_their_own():
    open_item = _item("a", ("ana", H), state="open")
    assert visible_labels(open_item, "ben") == [] and visible_labels(open_item, None) == []
    assert [x.reviewer for x in visible_labels(open_item, "ana")] == ["ana"]
    assert len(visible_labels(_item("a", ("ana", H), ("ben", F), state="disputed"), "c")) == 2


def test_round_robin_deals_each_item_to_distinct_reviewers_and_keeps_earlier_deals():
    pairs = round_robin(["i1", "i2", "i3"], ["ana", "ben", "cy"], 2, {"i1": ["cy"]})
    by_item: dict[str, list[str]] = {}
    for item, who in pairs:
        by_item.setdefault(item, []).append(who)
    assert by_item == {"i1": ["ana"], "i2": ["ben", "cy"], "i3": ["ana", "ben"]}
    with pytest.raises(UsageError, match="at least 2 reviewers"):
        round_robin(["i1"], ["ana", " ana "], 2, {})


@pytest.fixture
def team_run(tmp_path) -> tuple[Store, str, list[tuple[str, bool]]]:
    """A run gated on the corrected rate with two reviews per item, its severe claims
    settled by a panel; (store, run id, [(audit id, judge says hallucinated)])."""
    store = Store(tmp_path / "team.db")
    run_id = store.save_run(build_report(reviews_per_item=2, **AUDIT_GATED))
    for claim in ("q1/candidate/0", "q2/candidate/0"):
        for who in ("x", "y"):
            store.add_panel_label(run_id, claim, "contradicted", "checked", who)
    audit = [(i.review_id, i.judge_hallucinated) for i in store.reviewed_run(run_id).queue.audit]
    yield store, run_id, audit
    store.close()


def _lab(hallucinated: bool) -> str:
    return H if hallucinated else F


def _settle_all_but(store: Store, run_id: str, audit, keep: str) -> None:
    for item, judged in audit:
        if item == keep:
            continue
        for who in ("x", "y"):
            store.add_panel_label(run_id, item, _lab(judged), "agrees with the judge", who)


def test_a_dispute_holds_the_gate_and_the_adjudicated_label_moves_the_corrected_rate(team_run):
    store, run_id, audit = team_run
    item = next(i for i, flagged in audit if flagged)  # one the judge flags hallucinated
    _settle_all_but(store, run_id, audit, keep=item)
    store.add_panel_label(run_id, item, H, "invented the dose", "ana")
    open_report = store.effective_report(run_id)
    store.add_panel_label(run_id, item, F, "the leaflet says so", "ben")
    assert store.disputed_items(run_id) == [item]
    held = store.effective_report(run_id)
    assert held.decision.status == GateStatus.NEEDS_REVIEW
    assert held.decision.reasons[-1].rule == "review_panel_dispute"
    assert held.decision.reasons[-1].claim_ids == [item]
    [row] = store.list_runs()  # the run list agrees (its cached summary was dropped)
    assert row.status == GateStatus.NEEDS_REVIEW
    with pytest.raises(PermissionDeniedError, match="a third reviewer or a release manager"):
        store.adjudicate(run_id, item, F, "mine wins", "ben")
    decided = store.adjudicate(run_id, item, F, "read the leaflet twice", "ben", {Role.ADMIN})
    assert (decided.state, decided.label_in_force, decided.adjudicator) == (
        "adjudicated",
        F,
        "ben",
    )
    after = store.effective_report(run_id)
    assert after.decision.status == GateStatus.PASSED
    before_rate = open_report.rates["candidate"].corrected
    after_rate = after.rates["candidate"].corrected
    assert before_rate is not None and after_rate is not None
    # Every candidate answer is now labelled, so the corrected rate is the human rate
    # whatever the judge weight: q1 hallucinated, the adjudicated one and q3 faithful.
    assert after_rate.n_labelled == before_rate.n_labelled + 1 == 3
    assert after_rate.estimate == pytest.approx(1 / 3) != before_rate.estimate


def test_one_label_each_the_panel_size_and_no_direct_override(team_run):
    store, run_id, audit = team_run
    item = audit[0][0]
    store.add_panel_label(run_id, item, "faithful", "fine", "ana")
    with pytest.raises(UsageError, match="already labelled"):
        store.add_panel_label(run_id, item, H, "changed my mind", "ana")
    store.add_panel_label(run_id, item, F, "fine", "ben")
    with pytest.raises(UsageError, match="already has its 2 labels"):
        store.add_panel_label(run_id, item, F, "me too", "cy")
    with pytest.raises(UsageError, match="takes 2 blind reviews per item"):
        store.add_override(run_id, audit[1][0], label=H, comment="direct", reviewer="ana")
    with pytest.raises(UsageError, match="is not one of: HALLUCINATED, FAITHFUL"):
        store.add_panel_label(run_id, audit[1][0], "SUPPORTED", "a verdict", "ana")
    assert [a.reviewer for a in store.assignments(run_id)][-2:] == ["ana", "ben"]  # claimed
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db.execute("UPDATE panel_labels SET label = 'HALLUCINATED'")


def test_assignments_limit_who_labels(team_run):
    store, run_id, audit = team_run
    made = store.assign_items(run_id, "audit", ["ana", "ben", "cy"], "lead")
    assert len(made) == 2 * len(audit)
    item = audit[0][0]
    [first, second] = [a.reviewer for a in made if a.item_id == item]
    outsider = ({"ana", "ben", "cy"} - {first, second}).pop()
    with pytest.raises(UsageError, match=f"assigned to {first}, {second}"):
        store.add_panel_label(run_id, item, H, "not mine", outsider)
    with pytest.raises(UsageError, match="already has 2 reviewers"):
        store.claim_item(run_id, item, outsider)


def test_show_and_every_export_carry_the_agreement_figures(team_run, tmp_path):
    store, run_id, audit = team_run
    _settle_all_but(store, run_id, audit, keep=audit[0][0])
    store.add_panel_label(run_id, audit[0][0], H, "a", "ana")
    store.add_panel_label(run_id, audit[0][0], F, "b", "ben")
    db = str(store.path)
    runner = CliRunner()
    shown = runner.invoke(app, ["show", run_id, "--db", db]).output
    assert "Cohen's kappa: " in shown
    assert f"in dispute (gate held at NEEDS_REVIEW): {audit[0][0]}" in shown
    data = json.loads(runner.invoke(app, ["export", run_id, "-f", "json", "--db", db]).output)
    team = data["review"]["team"]
    assert team["disputed_items"] == [audit[0][0]] and team["reviews_per_item"] == 2
    assert team["reviewers"]["n_items"] == len(audit) + 2  # the two settled claims too
    markdown = runner.invoke(app, ["export", run_id, "-f", "markdown", "--db", db]).output
    assert "### Team review (2 review(s) per item)" in markdown and "| Cohen's kappa |" in markdown
    html = runner.invoke(app, ["export", run_id, "-f", "html", "--db", db]).output
    assert "<h2>Team review (2 review(s) per item)</h2>" in html and "precision" in html
    status = runner.invoke(app, ["queue", "status", run_id, "--db", db]).output
    assert f"{audit[0][0]} [disputed]" in status
