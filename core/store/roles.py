"""The roles table: ``halgate roles grant|revoke|list`` (an append-only history, audited).

Plain SQL run through the Store's connection (``db.execute`` / ``db.query``), so another
engine under the store takes these queries over unchanged.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from sqlite_utils import Database

from ..errors import UsageError
from ..models.team import Role, RoleChange
from ..review.roles import parse_role, roles_in_force
from .rows import now, rowid

_HISTORY = "SELECT id, at, actor, action, principal, role FROM role_grants ORDER BY id"


class _Host(Protocol):
    db: Database

    def _write(self) -> AbstractContextManager[None]: ...
    def _audit(self, actor: str, action: str, run_id: str | None, detail: dict) -> None: ...
    def role_history(self) -> list[RoleChange]: ...


class RolesMixin:
    """Role methods of the Store (split out to keep one idea per module)."""

    def role_history(self: _Host) -> list[RoleChange]:
        """Every grant and revoke, oldest first."""
        return [RoleChange.model_validate(r) for r in self.db.query(_HISTORY)]

    def granted_roles(self: _Host) -> dict[str, set[Role]]:
        """Identity -> the roles the table grants now (``review.roles.roles_in_force``)."""
        return roles_in_force(self.role_history())

    def change_role(
        self: _Host, action: str, principal: str, role: str | Role, actor: str
    ) -> RoleChange:
        """Grant or revoke ``role`` for ``principal`` (recorded, and in the audit log).

        The principal is an identity as the login gives it (a verified email or the
        provider's subject). Granting a role already held, or revoking one not held, is a
        UsageError: the history records changes only.
        """
        who, by = principal.strip(), actor.strip()
        if action not in ("grant", "revoke"):
            raise UsageError(f"roles: {action!r} is not grant or revoke")
        if not who or not by:
            raise UsageError("a role change needs the identity and who makes the change")
        chosen = parse_role(str(role))
        at = now()
        with self._write():
            held = chosen in roles_in_force(self.role_history()).get(who, set())
            if held == (action == "grant"):
                state = "already holds" if held else "does not hold"
                raise UsageError(f"{who} {state} the {chosen.value} role: nothing to {action}")
            cur = self.db.execute(
                "INSERT INTO role_grants (at, actor, action, principal, role) "
                "VALUES (?, ?, ?, ?, ?) RETURNING id",
                [at, by, action, who, chosen.value],
            )
            cid = rowid(cur)
            detail = {"principal": who, "role": chosen.value, "change_id": cid}
            self._audit(by, f"role_{action}", None, detail)
        return RoleChange(id=cid, at=at, actor=by, action=action, principal=who, role=chosen)  # type: ignore[arg-type]
