"""What the store keeps derived from a reviewed run: the run list's summary and the Overview.

Both are caches written after every derivation (save, review, listing) and never trusted
past what they were derived from: a summary is recomputed when overrides are newer than it,
an overview is returned only for exactly the overrides and disputes in force now and only
after the stored report has been checked against every recorded hash (``verified_hash``,
which reads the text as data: no report objects), so an edited report is caught on the
Overview as on every other read.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ..errors import StoreError
from ..review.overview import OVERVIEW_VERSION, RunOverview, run_overview
from ..review.reviewed import ReviewedRun, run_summary
from .integrity import read_run, verified_hash

_SUMMARY = (
    "INSERT INTO run_summaries (run_id, effective, agreement, summary_upto) "
    "VALUES (?, ?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET "
    "effective = excluded.effective, agreement = excluded.agreement, "
    "summary_upto = excluded.summary_upto "
    "WHERE run_summaries.summary_upto < excluded.summary_upto "
    "OR coalesce(json_extract(run_summaries.effective, '$.version'), 1) "
    "< json_extract(excluded.effective, '$.version')"
)
# The newest derivation wins; an equal one may differ in disputes (a panel label since).
_OVERVIEW = (
    "INSERT INTO run_overviews (run_id, upto, version, overview, report_hash) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET upto = excluded.upto, "
    "version = excluded.version, overview = excluded.overview "
    "WHERE run_overviews.upto <= excluded.upto"
)


class _Host(Protocol):
    db: Any

    def resolve(self, run_id: str) -> str: ...
    def _write(self) -> AbstractContextManager[None]: ...
    def disputed_items(self, run_id: str) -> list[str]: ...
    def report_hash(self, run_id: str) -> str | None: ...


class DerivedMixin:
    """Run-list summaries and run overviews of the Store."""

    def cache_summary(self: _Host, run: ReviewedRun) -> dict[str, Any]:
        """Store the run-list summary and the overview of a reviewed run the caller already
        derived (the dashboard does after every review), so listing runs and opening one
        need not derive them again. Only a summary of more overrides than the stored one,
        or of a newer shape (``SUMMARY_VERSION``), is written."""
        summary = run_summary(run)
        upto = max((o.id for o in run.overrides), default=0)
        digest = self.report_hash(run.run_id)
        overview = run_overview(run, digest or "").model_dump_json()
        try:
            with self._write():
                agreement = run.agreement.model_dump_json()
                self.db.execute(_SUMMARY, [run.run_id, json.dumps(summary), agreement, upto])
                values = [run.run_id, upto, OVERVIEW_VERSION, overview, digest]
                self.db.execute(_OVERVIEW, values)
        except StoreError:
            pass  # only a cache: a read-only, full or busy file still gets correct numbers
        return summary

    def run_overview(self: _Host, run_id: str) -> RunOverview | None:
        """The run's overview as its reviews stand now, or None when none is stored for
        exactly the overrides and disputes in force (derive one: ``reviewed_run`` then
        ``cache_summary``). RunAlteredError when the stored report was edited."""
        run_id = self.resolve(run_id)
        row = self.db.execute(
            "SELECT overview FROM run_overviews WHERE run_id = ? AND version = ?",
            [run_id, OVERVIEW_VERSION],
        ).fetchone()
        if row is None:
            return None
        try:
            overview = RunOverview.model_validate_json(row[0])
        except ValueError:
            return None  # unreadable: derived again, and written over
        (upto,) = self.db.execute(
            "SELECT coalesce(max(id), 0) FROM overrides WHERE run_id = ?", [run_id]
        ).fetchone()
        if overview.upto != upto or overview.disputed != sorted(self.disputed_items(run_id)):
            return None
        if verified_hash(self.db, read_run(self.db, run_id)) != overview.report_hash:
            return None  # derived from another report (a file swapped in under its path)
        return overview
