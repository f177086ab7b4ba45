"""Conversions between database rows and halgate records (kept out of the Store class)."""

from __future__ import annotations

import getpass
import json
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

from sqlite_utils import Database

from ..errors import StoreError, UsageError
from ..models import ClaimJudgement, RunReport
from ..models.review import AuditEntry, Override, RunRow, SignOff
from ..review.effective import canonical_text

E = TypeVar("E", bound=StrEnum)


def whoami() -> str:
    """The login name recorded as the actor of a write that names none."""
    try:
        return getpass.getuser()
    except Exception:  # no login name in some containers
        return "halgate"


def now() -> str:
    """UTC timestamp with milliseconds, ISO 8601 (sortable as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def enum_or_none(enum: type[E], field: str, value: str | StrEnum | None) -> E | None:
    """Validate a user-given verdict/type/severity (any case) as ``enum``; None stays None."""
    if value is None or value == "":
        return None
    try:
        return enum(str(value).strip().upper())
    except ValueError:
        choices = ", ".join(e.value for e in enum)
        raise UsageError(f"{field} {value!r} is not one of: {choices}") from None


def value_or_none(value: StrEnum | None) -> str | None:
    """The text stored for an optional enum."""
    return None if value is None else value.value


def rowid(cursor: Any) -> int:
    """The id the database gave the row an ``INSERT … RETURNING id`` just wrote (both
    engines; sqlite3's ``lastrowid`` has no PostgreSQL twin)."""
    row = cursor.fetchone()
    if row is None or row[0] is None:
        raise StoreError("the database did not report the id of the row just written")
    return int(row[0])


def insert_rows(db: Any, table: str, rows: list[dict[str, Any]]) -> None:
    """Insert many rows with the same columns in one statement (plain SQL, both engines)."""
    names = list(rows[0])
    sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
    values = [[r[n] for n in names] for r in rows]
    if isinstance(db, Database):  # sqlite-utils: its sqlite3 connection
        db.conn.executemany(sql, values)
    else:  # PgDatabase adapts the SQL
        db.executemany(sql, values)


def claim_row(run_id: str, c: ClaimJudgement) -> dict[str, Any]:
    """One row of the ``claims`` table: the judge's record of a claim, never changed later."""
    return {
        "run_id": run_id,
        "claim_id": c.claim_id,
        "case_id": c.case_id,
        "system": c.system,
        "idx": c.index,
        "verdict": c.verdict.value,
        "hallucination_type": c.hallucination_type.value if c.hallucination_type else None,
        "severity": c.severity.value if c.severity else None,
        "text": c.text,
        "span_start": c.start,
        "span_end": c.end,
        "rationale": c.rationale,
        "citations": json.dumps([x.model_dump(mode="json") for x in c.citations]),
        "score": c.score,
    }


def override_of(row: dict[str, Any]) -> Override:
    """An ``overrides`` row as a record."""
    return Override.model_validate(row)


def signoff_of(row: dict[str, Any], current_inputs: str) -> SignOff:
    """A ``signoffs`` row as a record, stale when the decision inputs changed since."""
    return SignOff.model_validate({**row, "stale": row["inputs_hash"] != current_inputs})


def audit_of(row: dict[str, Any]) -> AuditEntry:
    """An ``audit_log`` row as a record (its detail is stored as JSON text)."""
    return AuditEntry.model_validate({**row, "detail": json.loads(row["detail"] or "{}")})


def run_row_of(row: dict[str, Any], signoff: SignOff | None) -> RunRow:
    """A ``runs`` row joined with its ``run_summaries`` row (the cached summary) as a list entry."""
    summary = json.loads(row["effective"] or "{}")
    agreement = json.loads(row["agreement"] or "{}").get("overall") or {}
    return RunRow(
        run_id=row["run_id"],
        created_at=row["created_at"],
        saved_at=row.get("saved_at"),
        mode=row["mode"],
        suite_name=row["suite_name"],
        suite_hash=row["suite_hash"],
        judge_id=row["judge_id"],
        prompt_version=row["prompt_version"],
        gated_system=row["gated_system"],
        judged_status=row["status"],
        status=summary.get("status", row["status"]),
        exit_code=summary.get("exit_code", row["exit_code"]),
        micro_rate=summary.get("micro_rate"),
        rate_change=summary.get("rate_change"),
        answer_rate=summary.get("answer_rate"),
        answer_rate_change=summary.get("answer_rate_change"),
        gated_measure=summary.get("gated_measure"),
        n_claims=summary.get("n_claims", 0),
        n_review=summary.get("n_review", 0),
        pending_review=summary.get("pending_review", 0),
        n_overrides=summary.get("n_overrides", 0),
        agreement=agreement.get("rate"),
        signoff=signoff.decision if signoff else None,
        signoff_stale=signoff.stale if signoff else False,
    )


def run_columns(report: RunReport, digest: str) -> dict[str, Any]:
    """One row of the ``runs`` table: identity, decision as judged and the full report."""
    return {
        "run_id": report.run_id,
        "created_at": report.created_at,
        "saved_at": now(),
        "mode": report.mode.value,
        "suite_name": report.suite.name,
        "suite_hash": report.suite.content_hash,
        "judge_id": report.judge.judge_id,
        "prompt_version": report.judge.prompt_version,
        "gated_system": report.decision.gated_system,
        "policy": json.dumps(report.policy, ensure_ascii=False),
        "status": report.decision.status.value,
        "exit_code": report.decision.exit_code,
        "timings": json.dumps(report.timings),
        "report": canonical_text(report),  # hashed as stored: reads skip the re-dump
        "report_hash": digest,
    }


def stale_summary(row: dict[str, Any], latest_override: int, version: int) -> bool:
    """A run's cached summary must be recomputed: none yet, overrides recorded since, or
    stored by a halgate whose summary lacked fields (older than ``version``)."""
    if row["summary_upto"] is None or row["summary_upto"] < latest_override:
        return True
    return int(json.loads(row["effective"] or "{}").get("version", 1)) < version
