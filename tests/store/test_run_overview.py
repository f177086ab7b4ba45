"""Opening a run reads its stored overview instead of the whole report (issue #31 item 3).

On SQLite and PostgreSQL: the overview the dashboard stores after each review (derived the
incremental way, ``review_run_since``) draws exactly what the full derivation draws — rates,
comparison, gate decision and banner, queue counts, agreement, transitions — after every kind
of override and a panel dispute; a stale one is never returned; an edited report is caught.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from halgate.errors import RunAlteredError
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.registry import create_judge
from halgate.models import GateStatus, RunReport
from halgate.present import (
    changes_frame,
    decision_banner,
    rates_frame,
    severity_shift_chart,
    tag_shift_chart,
    transitions_frame,
    type_shift_chart,
    verdict_transitions,
)
from halgate.review import ReviewedRun, RunOverview, audit_review_ids, review_run_since
from halgate.run.engine import run_suite
from halgate.store import Store

from ..conftest import build_report

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "acme-helpdesk"


@pytest.fixture(scope="module")
def judged() -> RunReport:
    return run_suite(load_suite(EXAMPLE), create_judge("offline"), Policy(audit_sample=6))


def assert_draws_the_same(overview: RunOverview | None, run: ReviewedRun) -> None:
    """Every figure the Overview page draws, from the overview and from the full run."""
    assert overview is not None
    full = run.report
    assert overview.decision == full.decision and overview.rates == full.rates
    assert overview.comparison == full.comparison
    assert decision_banner(overview.decision) == decision_banner(full.decision)
    assert overview.counts == run.queue.counts and overview.agreement == run.agreement
    assert rates_frame(overview).equals(rates_frame(full))
    assert changes_frame(overview).equals(changes_frame(full))
    assert transitions_frame(overview.transitions).equals(verdict_transitions(full))
    for chart in (severity_shift_chart, type_shift_chart, tag_shift_chart):
        assert chart(overview).to_plotly_json() == chart(full).to_plotly_json()


def _reviews(report: RunReport) -> list[dict[str, str]]:
    """One of every kind of override: verdict, type and severity, severity alone, the same
    claim again, a confirm, an audit label."""
    bad = [c for a in report.analyses for c in a.claims if c.verdict.value != "SUPPORTED"]
    good = [c for a in report.analyses for c in a.claims if c.verdict.value == "SUPPORTED"]
    audit = audit_review_ids(report)
    assert len(bad) >= 3 and good and audit
    return [
        {"claim_id": bad[0].claim_id, "verdict": "SUPPORTED"},
        {
            "claim_id": good[0].claim_id,
            "verdict": "CONTRADICTED",
            "hallucination_type": "DISTORTION",
            "severity": "CRITICAL",
        },
        {"claim_id": bad[1].claim_id, "severity": "LOW"},
        {"claim_id": bad[0].claim_id, "verdict": "UNSUPPORTED"},
        {"claim_id": bad[2].claim_id},
        {"claim_id": audit[0], "label": "HALLUCINATED"},
        {"claim_id": good[0].claim_id, "verdict": "SUPPORTED"},
    ]


def test_the_stored_overview_draws_what_the_full_run_draws_after_every_review(
    store_url: str, judged: RunReport
):
    with Store(store_url) as store:
        run_id = store.save_run(judged)
        first = store.reviewed_run(run_id)
        assert_draws_the_same(store.run_overview(run_id), first)  # written on saving
        last = first
        for fields in _reviews(first.judged):
            claim_id = fields.pop("claim_id")
            store.add_override(run_id, claim_id, comment="why", reviewer="ana", **fields)
            assert store.run_overview(run_id) is None  # stale: never drawn
            history, disputed = store.override_history(run_id), store.disputed_items(run_id)
            last = review_run_since(last, first.judged, history, disputed)  # the dashboard
            store.cache_summary(last)
            assert_draws_the_same(store.run_overview(run_id), store.reviewed_run(run_id))
        assert last.report.decision != first.report.decision  # the reviews moved the gate


def test_a_panel_dispute_makes_the_overview_stale_and_the_new_one_holds_the_gate(
    store_url: str,
):
    with Store(store_url) as store:
        run_id = store.save_run(build_report(reviews_per_item=2, decide_on="estimate"))
        before = store.run_overview(run_id)
        assert before is not None and before.decision.status == GateStatus.FAILED
        store.add_panel_label(run_id, "q1/candidate/0", "contradicted", "checked", "ana")
        store.add_panel_label(run_id, "q1/candidate/0", "supported", "it says so", "ben")
        assert store.disputed_items(run_id) == ["q1/candidate/0"]
        assert store.run_overview(run_id) is None
        run = store.reviewed_run(run_id)
        store.cache_summary(run)
        assert_draws_the_same(store.run_overview(run_id), run)


def _rewrite(url: str, run_id: str, text: str) -> None:
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("UPDATE runs SET report = %s WHERE run_id = %s", [text, run_id])
    else:
        import sqlite3

        with sqlite3.connect(url) as conn:
            conn.execute("UPDATE runs SET report = ? WHERE run_id = ?", [text, run_id])


def test_an_edited_report_is_caught_when_its_overview_is_read(store_url: str):
    with Store(store_url) as store:
        run_id = store.save_run(build_report())
        assert store.run_overview(run_id) is not None
        (text,) = store.db.execute("SELECT report FROM runs WHERE run_id = ?", [run_id]).fetchone()
    edited = text.replace('"CONTRADICTED"', '"SUPPORTED"')
    assert edited != text
    _rewrite(store_url, run_id, edited)  # with the engine's own driver, as an intruder would
    with Store(store_url) as store, pytest.raises(RunAlteredError, match="ALTERED"):
        store.run_overview(run_id)
