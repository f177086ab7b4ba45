"""Who holds which role: the one rule for the CLI, the dashboard and the store.

A role comes from three places, all of them the server's own, never a suite, a report or
anything a user types:

* the **roles table** of the store, administered with ``halgate roles grant|revoke`` (an
  append-only history; the newest change per identity and role is in force);
* the **login's claim** (``[review] roles_claim = "groups"`` in halgate.toml, or
  ``HALGATE_ROLES_CLAIM``): a group named in ``[review.role_groups]`` (default: a group
  named like the role, ``reviewer``, ``release_manager``, ``admin``) grants that role; the
  claim is signed by the identity provider the server configured, like the subject;
* the **configured release managers** (``rights.release_managers``, as before).

ADMIN holds every right; RELEASE_MANAGER includes REVIEWER. Roles are *managed* once a
claim is configured or any role is granted in the store: then a logged-in user needs the
reviewer role to review. Without either, reviewing stays as it was (any logged-in user,
or a typed name where the server allows it); sign-off always needs a release manager.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ..errors import PermissionDeniedError, UsageError
from ..inputs import config_section
from ..models.team import Role, RoleChange

CLAIM_ENV_VAR = "HALGATE_ROLES_CLAIM"
_IMPLIES = {
    Role.ADMIN: {Role.ADMIN, Role.RELEASE_MANAGER, Role.REVIEWER},
    Role.RELEASE_MANAGER: {Role.RELEASE_MANAGER, Role.REVIEWER},
    Role.REVIEWER: {Role.REVIEWER},
}


def parse_role(value: str) -> Role:
    """reviewer / release_manager (or release-manager) / admin, any case."""
    try:
        return Role(value.strip().lower().replace("-", "_"))
    except ValueError:
        choices = ", ".join(r.value for r in Role)
        raise UsageError(f"role {value!r} is not one of: {choices}") from None


def roles_claim(env: Mapping[str, str] | None = None, paths: Sequence[Path] | None = None) -> str:
    """The login claim that carries group names ('' when roles do not come from the login)."""
    env = os.environ if env is None else env
    if env.get(CLAIM_ENV_VAR, "").strip():
        return env[CLAIM_ENV_VAR].strip()
    path, section = config_section("review", paths)
    claim = section.get("roles_claim", "")
    if not isinstance(claim, str):
        raise UsageError(f'{path}: [review] roles_claim must be a claim name, e.g. "groups"')
    return claim.strip()


def role_groups(paths: Sequence[Path] | None = None) -> dict[Role, set[str]]:
    """Role -> the group names that grant it (``[review.role_groups]``; default: its name)."""
    path, section = config_section("review", paths)
    table = section.get("role_groups", {})
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [review.role_groups] must be a table of role = [groups]")
    out = {role: {role.value} for role in Role}
    for key, groups in table.items():
        role = parse_role(str(key))
        if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
            raise UsageError(f"{path}: [review.role_groups] {key} must be a list of group names")
        out[role] = {g.strip() for g in groups if g.strip()}
    return out


def claimed_roles(
    user: Mapping[str, object], claim: str, groups: Mapping[Role, set[str]]
) -> set[Role]:
    """Roles a logged-in user's groups claim grants (a list, or names split by spaces or
    commas). Nothing without a login or a configured claim."""
    if not claim or not user.get("is_logged_in"):
        return set()
    value = user.get(claim)
    if isinstance(value, str):
        names = set(value.replace(",", " ").split())
    elif isinstance(value, list | tuple):
        names = {str(v).strip() for v in value}
    else:
        return set()
    return {role for role, wanted in groups.items() if names & wanted}


def roles_in_force(history: Iterable[RoleChange]) -> dict[str, set[Role]]:
    """Identity -> roles granted and not since revoked (history oldest first)."""
    held: dict[str, set[Role]] = {}
    for change in sorted(history, key=lambda c: c.id):
        roles = held.setdefault(change.principal, set())
        if change.action == "grant":
            roles.add(change.role)
        else:
            roles.discard(change.role)
    return {who: roles for who, roles in held.items() if roles}


def implied(roles: Iterable[Role]) -> set[Role]:
    """Every right the roles carry (ADMIN all of them, RELEASE_MANAGER reviewing too)."""
    return {right for role in roles for right in _IMPLIES[role]}


def roles_of(
    identity: str | None,
    granted: Mapping[str, set[Role]],
    configured_managers: Sequence[str] = (),
    claimed: Iterable[Role] = (),
) -> set[Role]:
    """Every right ``identity`` holds: its grants, its claim's roles, configured manager."""
    if not identity or not identity.strip():
        return set()
    direct = set(granted.get(identity, set())) | set(claimed)
    if identity in configured_managers:
        direct.add(Role.RELEASE_MANAGER)
    return implied(direct)


def holders(
    role: Role, granted: Mapping[str, set[Role]], configured_managers: Sequence[str] = ()
) -> list[str]:
    """Identities the store or the configuration give ``role`` (claims are per login)."""
    found = [who for who in granted if role in roles_of(who, granted, configured_managers)]
    if role is not Role.ADMIN:
        found += [m for m in configured_managers if role in roles_of(m, {}, configured_managers)]
    return list(dict.fromkeys(found))


def roles_managed(claim: str, granted: Mapping[str, set[Role]]) -> bool:
    """Whether reviewing needs the reviewer role: a claim is configured or a role granted."""
    return bool(claim) or bool(granted)


def check_role(identity: str | None, roles: set[Role], role: Role, doing: str) -> None:
    """Raise PermissionDeniedError, naming the role, unless ``roles`` include ``role``."""
    if role not in roles:
        who = repr(identity) if identity else "this session"
        raise PermissionDeniedError(
            f"{doing} refused: {who} does not hold the {role.value} role "
            "(`halgate roles grant IDENTITY " + role.value + "`, or the login's groups claim)"
        )


def check_may_review(identity: str | None, held: set[Role], managed: bool) -> None:
    """Raise PermissionDeniedError unless a logged-in ``identity`` may review: anyone while
    roles are not managed, else a holder of the reviewer role (or a role above it)."""
    if managed:
        check_role(identity, held, Role.REVIEWER, "review")
