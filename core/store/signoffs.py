"""Sign-offs: a release manager's final word, pinned to the decision inputs it was made on."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ..errors import UsageError
from ..models import RunReport
from ..models.review import Override, ReviewedReport, SignOff, SignOffDecision
from ..models.team import Role, TeamAgreement
from ..review import effective as eff
from ..review import rights, roles
from ..review.panel import hold_for_disputes
from ..review.record import reviewed_report
from ..review.reviewed import ReviewedRun
from .rows import now, rowid, signoff_of

_ALIASES = {
    "approve": SignOffDecision.APPROVED,
    "approved": SignOffDecision.APPROVED,
    "reject": SignOffDecision.REJECTED,
    "rejected": SignOffDecision.REJECTED,
}


def parse_decision(value: str | SignOffDecision) -> SignOffDecision:
    """approve / approved / APPROVED and reject / rejected / REJECTED."""
    try:
        return _ALIASES[str(value).strip().lower()]
    except KeyError:
        raise UsageError(f"sign-off decision {value!r} must be approve or reject") from None


class _Host(Protocol):
    """What the sign-off methods need of the Store they are mixed into."""

    db: Any

    def resolve(self, run_id: str) -> str: ...
    def load_report(self, run_id: str) -> RunReport: ...
    def override_history(self, run_id: str, claim_id: str | None = None) -> list[Override]: ...
    def _write(self) -> AbstractContextManager[None]: ...
    def _audit(self, actor: str, action: str, run_id: str | None, detail: dict) -> None: ...
    def inputs_hash(self, run_id: str) -> str: ...
    def signoffs(self, run_id: str) -> list[SignOff]: ...
    def reviewed_run(self, run_id: str) -> ReviewedRun: ...
    def disputed_items(self, run_id: str) -> list[str]: ...
    def team_agreement(self, run_id: str) -> TeamAgreement: ...
    def granted_roles(self) -> dict[str, set[Role]]: ...
    def release_managers(self) -> list[str]: ...


class SignOffMixin:
    """Sign-off methods of the Store (split out to keep one idea per module)."""

    def release_managers(self: _Host) -> list[str]:
        """Who may sign off by name: the server's configured release managers and everyone
        the roles table makes release manager or admin (a login's groups claim adds its own
        user in the dashboard)."""
        configured = rights.release_managers()
        return roles.holders(Role.RELEASE_MANAGER, self.granted_roles(), configured)

    def inputs_hash(self: _Host, run_id: str) -> str:
        """Hash of the judged report and every override of the run, as of now.

        It reads the recorded report hash without re-reading the report (the run list asks
        it of every run); whether the report still matches it is ``load_report``'s check.
        """
        run_id = self.resolve(run_id)
        (digest,) = self.db.execute(
            "SELECT report_hash FROM runs WHERE run_id = ?", [run_id]
        ).fetchone()
        return eff.inputs_hash(digest, self.override_history(run_id))

    def report_hash(self: _Host, run_id: str) -> str | None:
        """The hash recorded when the run was saved, without reading the report: a cache of
        the parsed report is keyed by it (whether the text still matches is
        ``load_report``'s check). Read from the run's overview row when it has one: in a
        ``runs`` row the hash follows the report, and reaching it walks a 130 MB report's
        overflow pages (50 ms, asked on every review)."""
        run_id = self.resolve(run_id)
        for table in ("run_overviews", "runs"):
            sql = f"SELECT report_hash FROM {table} WHERE run_id = ?"
            row = self.db.execute(sql, [run_id]).fetchone()
            if row is not None:
                return str(row[0]) if row[0] is not None else None
        return None

    def sign_off(
        self: _Host,
        run_id: str,
        decision: str | SignOffDecision,
        reviewer: str,
        comment: str,
        release_managers: Sequence[str] | None = None,
        override_gate: bool = False,
    ) -> SignOff:
        """Record APPROVED / REJECTED by a release manager against the current decision.

        Who may sign off is ``release_managers()``: the server's configuration
        (``HALGATE_RELEASE_MANAGERS``, else ``[review] release_managers`` in halgate.toml) and
        the roles table, never the run's policy, unless the caller passes the list; anyone
        else is refused with PermissionDeniedError. Approving a decision other than PASSED is
        refused with UsageError unless ``override_gate`` acknowledges it
        (``rights.check_approval``); the record says whether it overrode the gate.
        """
        run_id = self.resolve(run_id)
        choice = parse_decision(decision)
        if not reviewer.strip() or not comment.strip():
            raise UsageError("a sign-off needs a reviewer name and a comment")
        report = self.load_report(run_id)
        managers = (
            list(release_managers) if release_managers is not None else self.release_managers()
        )
        rights.check_sign_off(reviewer, managers, run_id)
        inputs = self.inputs_hash(run_id)
        # load_report has just checked the stored report against this recorded hash.
        (digest,) = self.db.execute(
            "SELECT report_hash FROM runs WHERE run_id = ?", [run_id]
        ).fetchone()
        effective = eff.effective_report(report, self.override_history(run_id))
        status = hold_for_disputes(effective, self.disputed_items(run_id)).decision.status
        overridden = rights.check_approval(
            choice == SignOffDecision.APPROVED, status, override_gate, run_id
        )
        at = now()
        with self._write():
            cur = self.db.execute(
                "INSERT INTO signoffs (run_id, decision, reviewer, comment, created_at, "
                "decision_status, inputs_hash, override_gate, report_hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                [
                    run_id,
                    choice.value,
                    reviewer,
                    comment,
                    at,
                    status.value,
                    inputs,
                    overridden,
                    digest,
                ],
            )
            sid = rowid(cur)
            detail: dict[str, Any] = {
                "decision": choice.value,
                "decision_status": status.value,
                "override_gate": overridden,
                "comment": comment,
                "signoff_id": sid,
                "report_hash": digest,
            }
            self._audit(reviewer, "signoff", run_id, detail)
        return SignOff(
            id=sid,
            run_id=run_id,
            decision=choice,
            reviewer=reviewer,
            comment=comment,
            created_at=at,
            decision_status=status,
            inputs_hash=inputs,
            report_hash=digest,
            override_gate=overridden,
            in_force=True,
        )

    def signoffs(self: _Host, run_id: str) -> list[SignOff]:
        """Every sign-off of a run, oldest first, each flagged stale if overrides followed; the
        newest is ``in_force`` unless it is stale (then none is: the run needs a new one)."""
        run_id = self.resolve(run_id)
        current = self.inputs_hash(run_id)
        rows = list(self.db.query("SELECT * FROM signoffs WHERE run_id = ? ORDER BY id", [run_id]))
        found = [signoff_of(r, current) for r in rows]
        if found and not found[-1].stale:
            found[-1] = found[-1].model_copy(update={"in_force": True})
        return found

    def latest_signoff(self: _Host, run_id: str) -> SignOff | None:
        """The newest sign-off, or None; it is in force unless it is stale."""
        found = self.signoffs(run_id)
        return found[-1] if found else None

    def reviewed_export(self: _Host, run_id: str) -> ReviewedReport:
        """The effective report with its review record (judge verdicts beside the verdicts in
        force, who reviewed what and when, the sign-off in force and every sign-off): what
        ``halgate export`` renders in every format."""
        run = self.reviewed_run(run_id)
        team = self.team_agreement(run.run_id)
        return reviewed_report(run, self.signoffs(run.run_id), team)
