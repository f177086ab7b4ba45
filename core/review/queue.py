"""The review queue: which claims of the gated system a person must look at, most severe first."""

from __future__ import annotations

from ..inputs.policy import Policy
from ..models import RunReport
from ..scoring.gate import review_queue


def queue_ids(report: RunReport) -> list[str]:
    """Claim ids in the gated system's review queue, most severe first."""
    policy = Policy.model_validate(report.policy)
    gated = report.decision.gated_system
    return [c.claim_id for c in review_queue(report.analyses, report.cases, policy, gated)]


def review_ids(judged: RunReport, effective: RunReport) -> list[str]:
    """The store's review queue: the effective queue, then claims the judge queued that a
    reviewer has since cleared (so finished work stays visible)."""
    ids = queue_ids(effective)
    seen = set(ids)
    return ids + [i for i in queue_ids(judged) if i not in seen]
