"""Tamper-evidence of a stored run: every read checks the report against what was recorded.

A run's report is stored once and never replaced, with the sha256 of its canonical JSON
(``report_hash``). Anyone with write access to the SQLite file can still rewrite the report
with ``sqlite3``: flip every claim to SUPPORTED and the gate would pass. So every read of a
run recomputes the hash and compares it with three records of it: the ``report_hash`` column,
the ``save_run`` entry of the append-only audit log, and the hash each sign-off approved.
Any difference marks the run, and every sign-off on it, as altered: ``RunAlteredError``
(exit 4), raised by ``Store.load_report`` and so by ``show``, ``gate``, exports and the
dashboard. A rewrite that also fixes every recorded hash needs the triggers of the
append-only tables dropped first; the hashes are evidence, not a signature.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import RunAlteredError
from ..models import RunReport
from ..review import effective as eff


@dataclass(frozen=True)
class StoredRun:
    """A run's report text and the hash recorded with it, as read from the database."""

    run_id: str
    text: str
    recorded_hash: str | None


def read_run(db: Any, run_id: str) -> StoredRun:
    """The stored report text and its recorded hash."""
    text, digest = db.execute(
        "SELECT report, report_hash FROM runs WHERE run_id = ?", [run_id]
    ).fetchone()
    return StoredRun(run_id, text or "", digest)


def _logged_hashes(db: Any, run_id: str) -> list[str]:
    """The report hashes the audit log recorded when the run was saved (none for old runs)."""
    rows = db.execute(
        "SELECT detail FROM audit_log WHERE run_id = ? AND action = 'save_run'", [run_id]
    ).fetchall()
    found = []
    for (detail,) in rows:
        try:
            digest = json.loads(detail or "{}").get("report_hash")
        except (ValueError, AttributeError):
            digest = "(unreadable audit entry)"
        if digest:
            found.append(str(digest))
    return found


def _signed(db: Any, run_id: str) -> list[tuple[int, str, str, str | None]]:
    """(id, decision, reviewer, approved report hash) of every sign-off of the run."""
    rows = db.execute(
        "SELECT id, decision, reviewer, report_hash FROM signoffs WHERE run_id = ? ORDER BY id",
        [run_id],
    ).fetchall()
    return [(int(r[0]), str(r[1]), str(r[2]), r[3]) for r in rows]


def verified_report(db: Any, stored: StoredRun) -> tuple[RunReport, str]:
    """The report and its hash, or RunAlteredError saying what no longer matches."""
    try:
        report: RunReport | None = RunReport.model_validate_json(stored.text)
    except ValueError:
        report = None
    actual = verified_hash(db, stored, readable=report is not None)
    assert report is not None  # verified_hash raised for an unreadable report
    return report, actual


def verified_hash(db: Any, stored: StoredRun, readable: bool = True) -> str:
    """The stored report's hash once the runs table, the audit log and every sign-off agree
    on it, else RunAlteredError. Reads the text as data (no report objects: a stored text
    that hashes to its record as it is costs one sha256); ``readable`` False: the caller
    could not parse it into a report."""
    try:
        actual = eff.stored_text_hash(stored.text, stored.recorded_hash)
    except ValueError:
        readable = False
    if not readable:
        actual = "(not a valid report)"
    problems = []
    if stored.recorded_hash != actual:
        problems.append(f"the runs table recorded {_short(stored.recorded_hash)}")
    problems += [
        f"the audit log recorded {_short(h)} when it was saved"
        for h in _logged_hashes(db, stored.run_id)
        if h != actual
    ]
    signoffs = _signed(db, stored.run_id)
    problems += [
        f"sign-off #{sid} ({decision} by {who}) approved {_short(h)}"
        for sid, decision, who, h in signoffs
        if h is not None and h != actual
    ]
    if problems or not readable:
        raise RunAlteredError(_message(stored.run_id, actual, problems, signoffs))
    return actual


def _short(digest: str | None) -> str:
    return f"hash {digest[:12]}" if digest else "no hash"


def _message(
    run_id: str, actual: str, problems: list[str], signoffs: list[tuple[int, str, str, str | None]]
) -> str:
    void = (
        f"; its sign-off(s) {', '.join(f'#{s[0]} ({s[1]} by {s[2]})' for s in signoffs)} "
        "are ALTERED too and void"
        if signoffs
        else ""
    )
    return (
        f"run {run_id} is ALTERED: its stored report ({_short(actual)}) is not the one "
        f"recorded ({'; '.join(problems) or 'unreadable'}){void}. Nothing is decided, "
        "exported or shown from an altered run: restore the database from a backup"
    )
