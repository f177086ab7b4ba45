"""The review queue: which claims of the gated system a person must look at, most severe first,
then the pairwise cases that need a person.

One definition serves every view (the gate's NEEDS_REVIEW reason, the dashboard's banner,
Overview, Triage and Sign-off, ``halgate runs`` and ``halgate review``): the claims the gate
queues on effective verdicts, plus the claims the judge queued that a reviewer has since
cleared, so finished work stays in the queue and counts as reviewed; and every pair the judge
flagged (its two orders disagree, low confidence, judge failure), decided or not, under the
review id ``pairwise:CASE``. The newest override of that id is the decision in force: its
``preference`` (A, B or TIE) replaces the reconciled one (a bare override confirms it), and
the gate's ``pairwise_review`` hold on the pair is lifted. ``QueueCounts`` are the numbers
every view shows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pydantic import Field

from ..inputs.policy import Policy
from ..models import PairwiseJudgement, Preference, Record, RunReport
from ..models.review import Override, PairReviewItem, ReviewItem
from ..scoring.gate import review_queue
from ..scoring.memo import remembered
from ..scoring.pairwise_gate import review_id
from .audit import AuditItem


def queue_ids(report: RunReport) -> list[str]:
    """Claim ids the gate queues on this report's verdicts, most severe first (a list the
    caller must not change: it is remembered for the report)."""
    return remembered(report, "queue_ids", lambda: _queue_ids(report))


def _queue_ids(report: RunReport) -> list[str]:
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

    Claims and pairwise cases both count: ``pending`` equals the items the gate's
    ``require_review_before_pass`` rule waits for (its ``pairwise_review`` reason lists the
    pairs); ``pairs`` and ``pairs_pending`` say how many of them are pairs.
    """

    total: int = Field(description="Items (claims and pairs) in the review queue.")
    reviewed: int = Field(description="Of those, items with a review (override) in force.")
    pending: int = Field(description="Of those, items awaiting review.")
    pairs: int = Field(default=0, description="Of the total, pairwise cases.")
    pairs_pending: int = Field(default=0, description="Of the pending, pairwise cases.")
    audit: int = Field(
        default=0, description="Answers of the audit sample to label (apart from the total)."
    )
    audit_labelled: int = Field(default=0, description="Of those, answers with a label.")

    def text(self) -> str:
        """'4 of 25 reviewed, 21 awaiting review'."""
        return f"{self.reviewed} of {self.total} reviewed, {self.pending} awaiting review"

    def audit_text(self) -> str:
        """'audit sample: 3 of 60 answers labelled' ('' without an audit sample)."""
        if not self.audit:
            return ""
        return f"audit sample: {self.audit_labelled} of {self.audit} answers labelled"


class ReviewQueue(Record):
    """A run's review queue: its claims, most severe first, its pairs, and their counts."""

    items: list[ReviewItem] = Field(default_factory=list, description="Claims, most severe first.")
    pairs: list[PairReviewItem] = Field(default_factory=list, description="Pairs, by case.")
    audit: list[AuditItem] = Field(
        default_factory=list, description="The audit sample's answers, in draw order."
    )
    counts: QueueCounts

    @property
    def pending(self) -> list[ReviewItem]:
        """The claims awaiting review, in queue order."""
        return [i for i in self.items if not i.reviewed]

    @property
    def pending_pairs(self) -> list[PairReviewItem]:
        """The pairs awaiting review, in queue order."""
        return [p for p in self.pairs if not p.reviewed]

    @property
    def pending_audit(self) -> list[AuditItem]:
        """The audit sample's answers without a label, in draw order."""
        return [i for i in self.audit if not i.reviewed]


# How halgate.judges.pairwise.combine_swapped words a disagreement: the first order's own
# result is kept only there (the record's preference is the reconciled TIE).
_FIRST_ORDER = re.compile(r"^The two orders disagree \(first (A|B|TIE), swapped ")


def first_order_preference(pair: PairwiseJudgement) -> Preference | None:
    """The preference of the judgement with A shown first, in its own right (None if unknown)."""
    if pair.error:
        return None
    if not pair.disagreement:
        return pair.preference
    found = _FIRST_ORDER.match(pair.justification)
    return Preference(found.group(1)) if found else None


def decided_pairs(
    pairs: Sequence[PairwiseJudgement], latest: Mapping[str, Override]
) -> list[PairwiseJudgement]:
    """The pairs with each reviewer's decision in force applied (the records never change).

    A pair the judge failed on and a reviewer decided counts in the preference tally like
    any decided pair: its copy carries the decision, and its error moves into the
    justification (the judged record keeps it).
    """
    out = []
    for p in pairs:
        o = latest.get(review_id(p.case_id))
        if o is None or o.preference is None:
            out.append(p)
        elif p.error is not None:
            why = f"decided by a reviewer; the judge failed: {p.error}"
            out.append(
                p.model_copy(
                    update={"preference": o.preference, "error": None, "justification": why}
                )
            )
        elif o.preference != p.preference:
            out.append(p.model_copy(update={"preference": o.preference}))
        else:
            out.append(p)
    return out


def pair_items(
    judged: RunReport, effective: RunReport, latest: Mapping[str, Override]
) -> list[PairReviewItem]:
    """Every pair the judge flagged for a person, in case order, with its review state."""
    after = {p.case_id: p for p in effective.pairwise or []}
    return [
        PairReviewItem(
            review_id=review_id(p.case_id),
            pair=after.get(p.case_id, p),
            judged=p,
            reviewed=review_id(p.case_id) in latest,
            latest_override=latest.get(review_id(p.case_id)),
        )
        for p in judged.pairwise or []
        if p.needs_review
    ]
