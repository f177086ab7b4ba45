"""A run as reviewers see it: judged report + overrides -> effective report, queue, agreement.

The one derivation the store, the CLI and the dashboard share (pure functions, no SQLite):
the store computes it from what it reads, the dashboard from its cached read of the same
rows, and both render the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..models import GateMeasure, RunReport
from ..models.review import JudgeAgreement, Override, ReviewItem
from ..scoring.decide import asks_for_labels
from .audit import audit_items, audit_labels
from .effective import claim_at, claim_index, effective_report, judge_agreement, latest_by_claim
from .panel import hold_for_disputes
from .queue import QueueCounts, ReviewQueue, pair_items, review_ids


def build_queue(
    judged: RunReport, effective: RunReport, overrides: Sequence[Override]
) -> ReviewQueue:
    """The review queue of a run (``queue.review_ids``, then the pairs that need a person) with
    each item's review state and the counts: total in the queue, reviewed (an override is in
    force), awaiting review; and the audit sample's answers with their labels, counted apart
    (they hold the gate only under ``gate_on_corrected``)."""
    latest = latest_by_claim(overrides)
    index = claim_index(judged)
    items = []
    for i in review_ids(judged, effective):
        before, after = claim_at(judged, index[i]), claim_at(effective, index[i])
        if after.claim_id != i:  # not derived from `judged` by overrides: look it up
            after = next(c for a in effective.analyses for c in a.claims if c.claim_id == i)
        items.append(
            ReviewItem(
                claim=after, judged=before, reviewed=i in latest, latest_override=latest.get(i)
            )
        )
    pairs = pair_items(judged, effective, latest)
    audit = audit_items(
        judged, effective, audit_labels(overrides), asks_for_labels(effective.decision)
    )
    done = sum(1 for i in items if i.reviewed) + sum(1 for p in pairs if p.reviewed)
    total = len(items) + len(pairs)
    counts = QueueCounts(
        total=total,
        reviewed=done,
        pending=total - done,
        pairs=len(pairs),
        pairs_pending=sum(1 for p in pairs if not p.reviewed),
        audit=len(audit),
        audit_labelled=sum(1 for i in audit if i.reviewed),
    )
    return ReviewQueue(items=items, pairs=pairs, audit=audit, counts=counts)


@dataclass(frozen=True)
class ReviewedRun:
    """A run with its reviews applied: what every review view of one run is drawn from."""

    run_id: str
    judged: RunReport
    """The report as the judge left it (never changed by a review)."""
    report: RunReport
    """Overrides applied; metrics, comparison and gate decision recomputed from them."""
    overrides: list[Override]
    """The run's override history, oldest first (the newest per claim is in force)."""
    queue: ReviewQueue
    agreement: JudgeAgreement
    disputed: tuple[str, ...] = ()
    """Items a review panel disputed when it was derived (they hold a PASSED gate)."""


def review_run(
    run_id: str, judged: RunReport, overrides: Sequence[Override], disputed: Sequence[str] = ()
) -> ReviewedRun:
    """Apply a run's overrides: effective report, review queue with counts, judge agreement.
    Items a review panel disputes (``disputed``) hold a PASSED gate at NEEDS_REVIEW."""
    history = list(overrides)
    report = hold_for_disputes(effective_report(judged, history), disputed)
    return ReviewedRun(
        run_id=run_id,
        judged=judged,
        report=report,
        overrides=history,
        queue=build_queue(judged, report, history),
        agreement=judge_agreement(run_id, judged, history),
        disputed=tuple(disputed),
    )


SUMMARY_VERSION = 2
"""Shape of ``run_summary``: 2 added the answer-level rate, its change and the gated measure.
A stored summary of an older shape is recomputed when runs are listed."""


def gated_measure(report: RunReport) -> GateMeasure:
    """The measure the run's gate used: 'answers' or 'claims' (a report from before the
    policy said so gated on claims)."""
    if report.comparison is not None:
        return report.comparison.gated_measure
    return "answers" if report.policy.get("gate_on", "claims") == "answers" else "claims"


def run_summary(run: ReviewedRun) -> dict[str, Any]:
    """Numbers a run list shows (``RunRow``), cached by the store after every review.

    Both hallucination rates of the gated system, answers with a hallucination
    (``answer_rate``) and claims hallucinated (``micro_rate``), with their changes in compare
    mode, and which of them the gate used. ``n_review`` and ``pending_review`` are the queue's
    ``QueueCounts`` total and pending, so ``halgate runs`` and the dashboard's Runs page agree
    with Triage and the banner.
    """
    effective = run.report
    d = effective.decision
    rates = effective.rates.get(d.gated_system)
    cmp = effective.comparison
    answers_change = cmp.answer_rate_change if cmp is not None else None
    return {
        "version": SUMMARY_VERSION,
        "status": d.status.value,
        "exit_code": d.exit_code,
        "gated_measure": gated_measure(effective),
        "answer_rate": rates.answer_level_rate if rates else None,
        "answer_rate_change": answers_change.estimate if answers_change else None,
        "micro_rate": rates.micro_rate if rates else None,
        "rate_change": cmp.rate_change.estimate if cmp is not None else None,
        "n_claims": sum(len(a.claims) for a in effective.analyses),
        "n_review": run.queue.counts.total,
        "pending_review": run.queue.counts.pending,
        "n_overrides": len(run.overrides),
    }
