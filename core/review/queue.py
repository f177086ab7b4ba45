"""The review queue: which claims of the gated system a person must look at, most severe first.

One definition serves every view (the gate's NEEDS_REVIEW reason, the dashboard's banner,
Overview, Triage and Sign-off, ``halgate runs`` and ``halgate review``): the claims the gate
queues on effective verdicts, plus the claims the judge queued that a reviewer has since
cleared, so finished work stays in the queue and counts as reviewed. ``QueueCounts`` are
the numbers every view shows.
"""

from __future__ import annotations

from pydantic import Field

from ..inputs.policy import Policy
from ..models import Record, RunReport
from ..models.review import ReviewItem
from ..scoring.gate import review_queue


def queue_ids(report: RunReport) -> list[str]:
    """Claim ids the gate queues on this report's verdicts, most severe first."""
    policy = Policy.model_validate(report.policy)
    gated = report.decision.gated_system
    return [c.claim_id for c in review_queue(report.analyses, report.cases, policy, gated)]


def review_ids(judged: RunReport, effective: RunReport) -> list[str]:
    """The review queue of a run: the effective queue, then claims the judge queued that a
    reviewer has since cleared (so finished work stays visible)."""
    ids = queue_ids(effective)
    seen = set(ids)
    return ids + [i for i in queue_ids(judged) if i not in seen]


class QueueCounts(Record):
    """How far the review of a run's queue has got: the numbers every view shows.

    ``pending`` equals the claims the gate's ``require_review_before_pass`` rule waits for.
    Pairwise cases that need a person are not claims; the gate lists them in its own
    ``pairwise_review`` reason.
    """

    total: int = Field(description="Claims in the review queue.")
    reviewed: int = Field(description="Of those, claims with a review (override) in force.")
    pending: int = Field(description="Of those, claims awaiting review.")

    def text(self) -> str:
        """'4 of 25 reviewed, 21 awaiting review'."""
        return f"{self.reviewed} of {self.total} reviewed, {self.pending} awaiting review"


class ReviewQueue(Record):
    """A run's review queue: its items, most severe first, and their counts."""

    items: list[ReviewItem] = Field(default_factory=list)
    counts: QueueCounts

    @property
    def pending(self) -> list[ReviewItem]:
        """The items awaiting review, in queue order."""
        return [i for i in self.items if not i.reviewed]
