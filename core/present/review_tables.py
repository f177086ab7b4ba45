"""Review tables as rows: the whole review queue (who reviewed what and when) and a
reviewer's own reviews across runs. Built here so the dashboard only places them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..models.review import Override
from ..review import OwnReview, ReviewQueue, override_change


def _when(at: str) -> str:
    """A stored UTC time to the second, as a person reads it: '2026-01-01 09:30:00'."""
    return at[:19].replace("T", " ")


def _who(o: Override | None) -> dict[str, str]:
    """The review in force of an item: what it did, by whom, when ('' when none)."""
    if o is None:
        return {"decision": "", "by": "", "when (UTC)": ""}
    return {"decision": override_change(o), "by": o.reviewer, "when (UTC)": _when(o.created_at)}


def queue_claim_rows(queue: ReviewQueue) -> list[dict[str, Any]]:
    """Every queued claim, most severe first: its verdict in force beside the judge's, and
    who reviewed it, what they decided and when."""
    return [
        {
            "claim": i.claim.claim_id,
            "severity": i.claim.severity.value if i.claim.severity else "",
            "verdict": i.claim.verdict.value,
            "judge verdict": i.judged.verdict.value,
            "reviewed": i.reviewed,
            **_who(i.latest_override),
        }
        for i in queue.items
    ]


def queue_pair_rows(queue: ReviewQueue) -> list[dict[str, Any]]:
    """Every pairwise case needing a person: preference in force beside the judge's, and who
    decided it and when."""
    return [
        {
            "pair": p.review_id,
            "A": p.pair.system_a,
            "B": p.pair.system_b,
            "preference": p.pair.preference.value,
            "judge preference": p.judged.preference.value,
            "reviewed": p.reviewed,
            **_who(p.latest_override),
        }
        for p in queue.pairs
    ]


def queue_audit_rows(queue: ReviewQueue) -> list[dict[str, Any]]:
    """Every answer of the audit sample, in draw order: the judge's reading, the label in
    force, who labelled it and when."""
    return [
        {
            "answer": i.review_id,
            "judge": "HALLUCINATED" if i.judge_hallucinated else "FAITHFUL",
            "label": i.label.value if i.label else "",
            "reviewed": i.reviewed,
            **_who(i.latest_override),
        }
        for i in queue.audit
    ]


OWN_REVIEW_COLUMNS = [
    "when (UTC)",
    "run",
    "suite",
    "item",
    "kind",
    "decision",
    "in force",
    "comment",
]


def own_review_rows(reviews: Sequence[OwnReview]) -> list[dict[str, Any]]:
    """A reviewer's reviews as ``Store.reviews_by`` lists them (newest first), one row each."""
    return [
        {
            "when (UTC)": _when(r.override.created_at),
            "run": r.override.run_id,
            "suite": r.suite_name,
            "item": r.override.claim_id,
            "kind": r.kind,
            "decision": r.change,
            "in force": r.in_force,
            "comment": r.override.comment,
        }
        for r in reviews
    ]
