"""Reviews of a run: overrides applied, the review queue and its counts, who may sign off.

Pure functions over records, shared by the store, the CLI and the dashboard::

    from halgate.review import review_run, release_managers

    run = review_run(run_id, judged, overrides)  # effective report, queue, agreement
    run.queue.counts.text()                      # '4 of 25 reviewed, 21 awaiting review'
    own_reviews("ana", overrides, suites, latest)  # ana's reviews, newest first
"""

from ..models.review import PairReviewItem
from .audit import AuditItem, audit_cases, audit_input, audit_items, audit_labels, audit_review_ids
from .effective import apply_override, effective_report, judge_agreement, latest_by_claim
from .incremental import review_run_since
from .mine import OwnReview, is_reviewer, override_change, own_reviews, review_kind
from .overview import OVERVIEW_VERSION, RunOverview, run_overview
from .panel import check_label, label_choices, visible_labels
from .progress import AuditProgress, LookInterval, audit_progress
from .queue import QueueCounts, ReviewQueue, first_order_preference, queue_ids, review_ids
from .record import claim_review, review_record, reviewed_report, signoff_in_force
from .reviewed import (
    SUMMARY_VERSION,
    ReviewedRun,
    build_queue,
    gated_measure,
    review_run,
    run_summary,
)
from .rights import (
    allow_unauthenticated_signoff,
    check_approval,
    check_review_identity,
    check_sign_off,
    check_sign_off_identity,
    login_identity,
    may_sign_off,
    release_managers,
)
from .roles import (
    check_may_review,
    check_role,
    claimed_roles,
    parse_role,
    role_groups,
    roles_claim,
    roles_managed,
    roles_of,
)
from .team_agreement import team_agreement

__all__ = [
    "check_label",
    "check_may_review",
    "check_role",
    "claimed_roles",
    "label_choices",
    "parse_role",
    "role_groups",
    "roles_claim",
    "roles_managed",
    "roles_of",
    "team_agreement",
    "visible_labels",
    "AuditProgress",
    "LookInterval",
    "audit_progress",
    "SUMMARY_VERSION",
    "AuditItem",
    "OwnReview",
    "PairReviewItem",
    "QueueCounts",
    "ReviewQueue",
    "ReviewedRun",
    "allow_unauthenticated_signoff",
    "apply_override",
    "audit_cases",
    "audit_input",
    "audit_items",
    "audit_labels",
    "audit_review_ids",
    "build_queue",
    "claim_review",
    "check_approval",
    "check_sign_off",
    "check_review_identity",
    "check_sign_off_identity",
    "login_identity",
    "effective_report",
    "first_order_preference",
    "gated_measure",
    "is_reviewer",
    "judge_agreement",
    "latest_by_claim",
    "may_sign_off",
    "override_change",
    "own_reviews",
    "queue_ids",
    "release_managers",
    "review_ids",
    "review_kind",
    "review_record",
    "review_run",
    "review_run_since",
    "reviewed_report",
    "run_summary",
    "OVERVIEW_VERSION",
    "RunOverview",
    "run_overview",
    "signoff_in_force",
]
