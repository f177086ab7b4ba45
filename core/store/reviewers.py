"""A reviewer's own reviews across every run of the store (``halgate.review.own_reviews``)."""

from __future__ import annotations

from typing import Any

from ..review.mine import OwnReview, own_reviews
from .rows import override_of

# One pass: the reviewer's overrides with their run's suite and the newest override of each
# item they touched (the one in force), so the list needs no query per row.
_MINE = """
SELECT o.*, r.suite_name AS _suite,
       (SELECT max(l.id) FROM overrides l
        WHERE l.run_id = o.run_id AND l.claim_id = o.claim_id) AS _latest
FROM overrides o JOIN runs r ON r.run_id = o.run_id
WHERE trim(o.reviewer) = ?
ORDER BY o.id DESC
"""


class ReviewerMixin:
    """The "my reviews" query of the Store (split out to keep one idea per module)."""

    db: Any

    def last_change(self) -> int:
        """Id of the newest audit-log entry: every write (a run saved, a review, a sign-off)
        makes one in its transaction, so a screen that saw this number has seen every write
        until then (the dashboard's cache key on a PostgreSQL store, where no file changes)."""
        (newest,) = self.db.execute("SELECT coalesce(max(id), 0) FROM audit_log").fetchone()
        return int(newest)

    def reviews_by(self, reviewer: str, limit: int | None = None) -> list[OwnReview]:
        """Every override recorded under ``reviewer``, in every run, newest first, each with
        its run's suite, what it did and whether it is still in force; at most ``limit``.
        An empty name has no reviews."""
        who = reviewer.strip()
        if not who:
            return []
        sql = _MINE + (" LIMIT ?" if limit is not None else "")
        args: list[object] = [who] + ([int(limit)] if limit is not None else [])
        rows = list(self.db.query(sql, args))
        suites = {r["run_id"]: r["_suite"] for r in rows}
        latest = {(r["run_id"], r["claim_id"]): r["_latest"] for r in rows}
        records = [override_of({k: v for k, v in r.items() if not k.startswith("_")}) for r in rows]
        return own_reviews(who, records, suites, latest)
