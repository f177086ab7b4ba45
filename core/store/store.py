"""The review store: one SQLite file holding runs, claims, overrides, sign-offs and audit log.

The CLI and the dashboard call these methods and never build SQL. Writes that touch several
tables run in one ``BEGIN IMMEDIATE`` transaction, so concurrent reviewers queue on the busy
timeout instead of failing or losing a row. Overrides, sign-offs and the audit log are
append-only (triggers refuse UPDATE, DELETE and an INSERT OR REPLACE of an existing id). A
stored run is never replaced: saving a different report under its id is refused.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..database import DbTarget, parse_target
from ..errors import NotFoundError, StoreError, UsageError
from ..models import AuditLabel, HallucinationType, Preference, RunReport, Severity, Verdict
from ..models.review import AuditEntry, JudgeAgreement, Override, ReviewItem, RunRow
from ..review import effective as eff
from ..review.audit import audit_labels, audit_review_ids, draw_audit_seed
from ..review.panel import hold_for_disputes
from ..review.reviewed import SUMMARY_VERSION, ReviewedRun, run_summary
from ..scoring.corrected import AUDIT_PREFIX
from .connect import open_database, open_server
from .integrity import read_run, verified_report
from .overviews import DerivedMixin
from .panels import PanelMixin, check_single_review
from .reviewers import ReviewerMixin
from .roles import RolesMixin
from .rows import (
    audit_of,
    claim_row,
    enum_or_none,
    insert_rows,
    now,
    override_of,
    rowid,
    run_columns,
    run_row_of,
    stale_summary,
    value_or_none,
    whoami,
)
from .schema import schema_version
from .signoffs import SignOffMixin

DEFAULT_TIMEOUT = 30.0
#: Names the newest run, so the README's commands need no copied run id.
LATEST = "latest"


# Every column a run list needs, never the report itself (megabytes per run). Newest stored
# first: a report's own created_at is whatever its file says (an upload dated 2099 must not
# sort first for ever, where `halgate runs --json | jq '.[0]'` would pick it).
_LIST_RUNS = """
SELECT r.run_id, r.created_at, r.saved_at, r.mode, r.suite_name, r.suite_hash, r.judge_id,
       r.prompt_version, r.gated_system, r.status, r.exit_code,
       s.effective, s.agreement, s.summary_upto
FROM runs r LEFT JOIN run_summaries s ON s.run_id = r.run_id
ORDER BY coalesce(r.saved_at, r.created_at) DESC, r.rowid DESC
"""


class Store(SignOffMixin, ReviewerMixin, RolesMixin, PanelMixin, DerivedMixin):
    """A halgate review database; migrates itself on open. Use one per thread or process."""

    def __init__(self, path: str | Path | DbTarget, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.target = parse_target(path)
        #: How messages name the store: the file, or the server URL without its password.
        self.where = self.target.display
        self.path = self.target.path or Path(self.where)  # the SQLite file (a server: a name)
        self.db: Any
        if self.target.is_server:
            self.db, self.read_only = open_server(self.target, timeout), False
        else:
            self.db, self.read_only = open_database(self.path, timeout)

    def close(self) -> None:
        """Close the connection (the file stays consistent either way)."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        """Number of migrations applied to this file."""
        return schema_version(self.db)

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction; IMMEDIATE takes the lock up front (no upgrade deadlock).

        A database that refuses the write (locked past the busy timeout, a full disk, opened
        read-only) is a StoreError naming it, never a raw sqlite3 error.
        """
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.where}: cannot write: {exc}") from None
        try:
            yield
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self.db.rollback()
            raise StoreError(f"{self.where}: cannot write: {exc}") from None
        except BaseException:
            self.db.rollback()
            raise

    def _audit(self, actor: str, action: str, run_id: str | None, detail: dict) -> None:
        self.db.execute(
            "INSERT INTO audit_log (at, actor, action, run_id, detail) VALUES (?, ?, ?, ?, ?)",
            [now(), actor, action, run_id, json.dumps(detail, ensure_ascii=False)],
        )

    # ------------------------------------------------------------------ runs

    def resolve(self, run_id: str) -> str:
        """The full run id for an id, a unique prefix of one, or ``latest`` (the newest run)."""
        if run_id == LATEST:
            return self._latest_run_id()
        if self.db.execute("SELECT 1 FROM runs WHERE run_id = ?", [run_id]).fetchone():
            return run_id
        hits = [
            r[0]
            for r in self.db.execute(
                "SELECT run_id FROM runs WHERE substr(run_id, 1, ?) = ? LIMIT 5",
                [len(run_id), run_id],
            )
        ]
        if len(hits) == 1 and run_id:
            return hits[0]
        if len(hits) > 1:
            raise UsageError(f"run id {run_id!r} is ambiguous: {', '.join(hits)} ...")
        raise NotFoundError(f"run {run_id!r} not found in {self.where} (see `halgate runs`)")

    def _latest_run_id(self) -> str:
        row = self.db.execute(_LIST_RUNS + " LIMIT 1").fetchone()  # newest stored
        if row is None:
            raise NotFoundError(f"no run in {self.where} yet (run `halgate run SUITE` first)")
        return str(row[0])

    def save_run(self, report: RunReport, actor: str | None = None) -> str:
        """Store a judged report and its claims; saving the same report again is a no-op.

        A different report under a run id already stored (an imported file reusing an id) is
        refused with StoreError: the stored run, its reviews and sign-offs stay as they are.
        """
        report = report.model_copy(update={"audit_seed": None})  # the store draws it, below
        digest = eff.report_hash(report)
        seed = draw_audit_seed()
        row = {**run_columns(report, digest), "audit_seed": seed}
        with self._write():
            old = self.db.execute(
                "SELECT report_hash FROM runs WHERE run_id = ?", [report.run_id]
            ).fetchone()
            if old is not None and old[0] == digest:
                return report.run_id
            if old is not None:
                raise StoreError(
                    f"run {report.run_id} already exists in {self.where} with different "
                    "content; it was not replaced (a report must carry a new run_id)"
                )
            names = ", ".join(row)
            self.db.execute(
                f"INSERT INTO runs ({names}) VALUES ({', '.join('?' * len(row))})",
                list(row.values()),
            )
            claims = [claim_row(report.run_id, c) for a in report.analyses for c in a.claims]
            if claims:
                insert_rows(self.db, "claims", claims)
            detail = {
                "suite": report.suite.name,
                "judge": report.judge.judge_id,
                "status": report.decision.status.value,
                "claims": len(claims),
                "audit_seed": seed,
                "report_hash": digest,
            }
            self._audit(actor or whoami(), "save_run", report.run_id, detail)
        self._refresh(report.run_id, judged=report.model_copy(update={"audit_seed": seed}))
        return report.run_id

    def load_report(self, run_id: str) -> RunReport:
        """The report exactly as the judge produced it (no overrides), its stored hash
        verified (``integrity``): RunAlteredError if it was edited since it was stored. The
        audit seed is the store's own, drawn when the run was saved."""
        run_id = self.resolve(run_id)
        report = verified_report(self.db, read_run(self.db, run_id))[0]
        sql = "SELECT audit_seed FROM runs WHERE run_id = ?"
        (seed,) = self.db.execute(sql, [run_id]).fetchone()
        return report.model_copy(update={"audit_seed": seed})

    def effective_report(self, run_id: str) -> RunReport:
        """The report with overrides applied and metrics, comparison and decision recomputed
        (items a review panel disputes hold it at NEEDS_REVIEW)."""
        run_id = self.resolve(run_id)
        report = eff.effective_report(self.load_report(run_id), self.override_history(run_id))
        return hold_for_disputes(report, self.disputed_items(run_id))

    def list_runs(self) -> list[RunRow]:
        """Every run, newest first, with effective status, rates and review counts."""
        latest = {
            r["run_id"]: r["m"]
            for r in self.db.query("SELECT run_id, max(id) AS m FROM overrides GROUP BY run_id")
        }
        rows = list(self.db.query(_LIST_RUNS))
        out = []
        for r in rows:
            if stale_summary(r, latest.get(r["run_id"], 0), SUMMARY_VERSION):
                run = self._refresh(r["run_id"])
                r["effective"] = json.dumps(run_summary(run))
                r["agreement"] = run.agreement.model_dump_json()
            out.append(run_row_of(r, self.latest_signoff(r["run_id"])))
        return out

    def _refresh(self, run_id: str, judged: RunReport | None = None) -> ReviewedRun:
        """Recompute the cached effective summary; never overwrite a newer one.

        `judged` spares re-reading a report the caller has just saved.
        """
        run = self._reviewed(run_id, judged)
        self.cache_summary(run)
        return run

    # ------------------------------------------------------------------ overrides

    def add_override(
        self,
        run_id: str,
        claim_id: str,
        *,
        verdict: str | None = None,
        hallucination_type: str | None = None,
        severity: str | None = None,
        preference: str | None = None,
        label: str | None = None,
        comment: str,
        reviewer: str,
    ) -> Override:
        """Record a reviewer's correction; with no verdict/type/severity it confirms the claim.

        A pairwise case (``pairwise:CASE``) is decided with ``preference`` A, B or TIE (none:
        the judge's reconciled preference is confirmed); an answer of the audit sample
        (``audit:CASE:SYSTEM``) is labelled with ``label`` HALLUCINATED or FAITHFUL (required);
        claims take neither.
        """
        run_id = self.resolve(run_id)
        check_single_review(self.db, run_id, claim_id, self._settling_panel)
        if not reviewer.strip():
            raise UsageError("an override needs a reviewer name")
        if not comment.strip():
            raise UsageError("an override needs a comment saying why")
        new_verdict = enum_or_none(Verdict, "verdict", verdict)
        new_type = enum_or_none(HallucinationType, "hallucination_type", hallucination_type)
        new_severity = enum_or_none(Severity, "severity", severity)
        new_preference = enum_or_none(Preference, "preference", preference)
        new_label = enum_or_none(AuditLabel, "label", label)
        values = {
            "verdict": value_or_none(new_verdict),
            "hallucination_type": value_or_none(new_type),
            "severity": value_or_none(new_severity),
        }
        at = now()
        with self._write():
            found = self.db.execute(
                "SELECT 1 FROM claims WHERE run_id = ? AND claim_id = ?", [run_id, claim_id]
            ).fetchone()
            if found and (new_preference is not None or new_label is not None):
                raise UsageError(
                    f"{claim_id} is a claim: --preference decides a pairwise case "
                    "(pairwise:CASE), --label labels an audited answer (audit:CASE:SYSTEM)"
                )
            if not found and claim_id.startswith(AUDIT_PREFIX):
                self._check_audit_label(run_id, claim_id, new_label, new_preference, values)
            elif not found:
                self._check_pair_review(run_id, claim_id, {**values, "label": new_label})
            values["preference"] = value_or_none(new_preference)
            values["label"] = value_or_none(new_label)
            cur = self.db.execute(
                "INSERT INTO overrides (run_id, claim_id, verdict, hallucination_type, severity, "
                "preference, label, comment, reviewer, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                [run_id, claim_id, *values.values(), comment, reviewer, at],
            )
            oid = rowid(cur)
            detail = {"claim_id": claim_id, "override_id": oid, "comment": comment, **values}
            self._audit(reviewer, "override", run_id, detail)
        # The cached run summary is refreshed lazily by list_runs(): writes stay short.
        return Override(
            id=oid,
            run_id=run_id,
            claim_id=claim_id,
            verdict=new_verdict,
            hallucination_type=new_type,
            severity=new_severity,
            preference=new_preference,
            label=new_label,
            comment=comment,
            reviewer=reviewer,
            created_at=at,
        )

    def _check_audit_label(
        self,
        run_id: str,
        review_id: str,
        label: AuditLabel | None,
        preference: Preference | None,
        values: dict[str, Any],
    ) -> None:
        """An answer of the audit sample is labelled under ``audit:CASE:SYSTEM`` with a label
        (HALLUCINATED or FAITHFUL) and a comment, nothing else."""
        labels = audit_labels(self.override_history(run_id))
        if review_id not in audit_review_ids(self.load_report(run_id), labels):
            raise NotFoundError(
                f"{review_id!r} is not in the audit sample of run {run_id} "
                "(`halgate review RUN` lists it)"
            )
        if label is None or preference is not None or any(v is not None for v in values.values()):
            raise UsageError(
                f"{review_id} is an answer of the audit sample: record --label hallucinated or "
                "--label faithful (the whole answer) and a comment, no verdict, type, severity "
                "or preference"
            )

    def _check_pair_review(self, run_id: str, review_id: str, values: dict[str, Any]) -> None:
        """A pairwise case needing a person is decided under ``pairwise:CASE``: a preference
        (A, B or TIE) and a comment, never a verdict, type or severity."""
        if review_id not in eff.pair_review_ids(self.load_report(run_id)):
            raise NotFoundError(f"claim {review_id!r} not found in run {run_id}")
        if any(v is not None for v in values.values()):
            raise UsageError(
                f"{review_id} is a pairwise case: record a preference (A, B or TIE) and a "
                "comment only, no verdict, type or severity"
            )

    def override_history(self, run_id: str, claim_id: str | None = None) -> list[Override]:
        """Every override of a run (or one claim), oldest first: the last one is in force."""
        run_id = self.resolve(run_id)
        where, args = "run_id = ?", [run_id]
        if claim_id is not None:
            where, args = where + " AND claim_id = ?", args + [claim_id]
        rows = self.db.query(f"SELECT * FROM overrides WHERE {where} ORDER BY id", args)
        return [override_of(r) for r in rows]

    def reviewed_run(self, run_id: str) -> ReviewedRun:
        """The run with its reviews applied: effective report, review queue with its counts,
        judge agreement (``halgate.review.review_run`` on one read of the run)."""
        return self._reviewed(self.resolve(run_id))

    def review_queue(self, run_id: str) -> list[ReviewItem]:
        """Claims a person must look at, most severe first, then those since cleared (the pairs
        are ``reviewed_run(run_id).queue.pairs``)."""
        return self.reviewed_run(run_id).queue.items

    def judge_agreement(self, run_id: str) -> JudgeAgreement:
        """Share of reviewed claims whose judge verdict the reviewers kept (DESIGN.md §3)."""
        run_id = self.resolve(run_id)
        return eff.judge_agreement(run_id, self.load_report(run_id), self.override_history(run_id))

    def audit(self, run_id: str | None = None) -> list[AuditEntry]:
        """The audit log (of one run, or all), oldest first."""
        if run_id is None:
            rows = self.db.query("SELECT * FROM audit_log ORDER BY id")
        else:
            rows = self.db.query(
                "SELECT * FROM audit_log WHERE run_id = ? ORDER BY id", [self.resolve(run_id)]
            )
        return [audit_of(r) for r in rows]
