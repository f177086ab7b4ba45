"""Reviews of a run: overrides applied, the review queue and its counts, who may sign off.

Pure functions over records, shared by the store, the CLI and the dashboard::

    from halgate.review import review_run, release_managers

    run = review_run(run_id, judged, overrides)  # effective report, queue, agreement
    run.queue.counts.text()                      # '4 of 25 reviewed, 21 awaiting review'
"""

from ..models.review import PairReviewItem
from .effective import apply_override, effective_report, judge_agreement, latest_by_claim
from .queue import QueueCounts, ReviewQueue, first_order_preference, queue_ids, review_ids
from .reviewed import ReviewedRun, build_queue, review_run, run_summary
from .rights import check_approval, check_sign_off, may_sign_off, release_managers

__all__ = [
    "PairReviewItem",
    "QueueCounts",
    "ReviewQueue",
    "ReviewedRun",
    "apply_override",
    "build_queue",
    "check_approval",
    "check_sign_off",
    "effective_report",
    "first_order_preference",
    "judge_agreement",
    "latest_by_claim",
    "may_sign_off",
    "queue_ids",
    "release_managers",
    "review_ids",
    "review_run",
    "run_summary",
]
