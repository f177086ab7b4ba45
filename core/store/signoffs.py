"""Sign-offs: a release manager's final word, pinned to the decision inputs it was made on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import PermissionDeniedError, UsageError
from ..inputs.policy import Policy
from ..models.review import SignOff, SignOffDecision
from ..review import effective as eff
from .rows import now, signoff_of

if TYPE_CHECKING:
    from .store import Store

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


class SignOffMixin:
    """Sign-off methods of the Store (split out to keep one idea per module)."""

    def inputs_hash(self: Store, run_id: str) -> str:
        """Hash of the judged report and every override of the run, as of now."""
        run_id = self.resolve(run_id)
        (digest,) = self.db.execute(
            "SELECT report_hash FROM runs WHERE run_id = ?", [run_id]
        ).fetchone()
        return eff.inputs_hash(digest, self.override_history(run_id))

    def sign_off(
        self: Store,
        run_id: str,
        decision: str | SignOffDecision,
        reviewer: str,
        comment: str,
        release_managers: list[str] | None = None,
    ) -> SignOff:
        """Record APPROVED / REJECTED by a release manager against the current decision.

        ``release_managers`` overrides the run's ``policy.release_managers`` (e.g. from a
        config file); anyone else is refused with PermissionDeniedError.
        """
        run_id = self.resolve(run_id)
        choice = parse_decision(decision)
        if not reviewer.strip() or not comment.strip():
            raise UsageError("a sign-off needs a reviewer name and a comment")
        report = self.load_report(run_id)
        managers = release_managers
        if managers is None:
            managers = Policy.model_validate(report.policy).release_managers
        if not managers:
            raise PermissionDeniedError(
                f"sign-off refused: no release managers are configured for run {run_id} "
                "(set release_managers in the policy or HALGATE_RELEASE_MANAGERS)"
            )
        if reviewer not in managers:
            raise PermissionDeniedError(
                f"sign-off refused: {reviewer!r} is not a release manager "
                f"(allowed: {', '.join(managers)})"
            )
        inputs = self.inputs_hash(run_id)
        status = eff.effective_report(report, self.override_history(run_id)).decision.status
        row = {
            "run_id": run_id,
            "decision": choice.value,
            "reviewer": reviewer,
            "comment": comment,
            "created_at": now(),
            "decision_status": status.value,
            "inputs_hash": inputs,
        }
        with self._write():
            cur = self.db.execute(
                f"INSERT INTO signoffs ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                list(row.values()),
            )
            detail = {
                "decision": choice.value,
                "decision_status": status.value,
                "comment": comment,
                "signoff_id": cur.lastrowid,
            }
            self._audit(reviewer, "signoff", run_id, detail)
        return SignOff(id=cur.lastrowid, **row)

    def signoffs(self: Store, run_id: str) -> list[SignOff]:
        """Every sign-off of a run, oldest first, each flagged stale if overrides followed."""
        run_id = self.resolve(run_id)
        current = self.inputs_hash(run_id)
        rows = self.db.query("SELECT * FROM signoffs WHERE run_id = ? ORDER BY id", [run_id])
        return [signoff_of(r, current) for r in rows]

    def latest_signoff(self: Store, run_id: str) -> SignOff | None:
        """The sign-off in force (the newest), or None."""
        found = self.signoffs(run_id)
        return found[-1] if found else None
