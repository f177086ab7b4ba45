"""Who may sign off a run: one rule for the CLI, the dashboard and the store.

A release manager's sign-off is the final word on a release, so both faces must agree on who
is one. The list comes from the server's configuration when it is set (the
``HALGATE_RELEASE_MANAGERS`` variable) and only otherwise from the run's policy.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import PermissionDeniedError
from ..inputs.policy import Policy

ENV_VAR = "HALGATE_RELEASE_MANAGERS"


def release_managers(
    policy: Policy | Mapping[str, Any], env: Mapping[str, str] | None = None
) -> list[str]:
    """Who may sign off a run decided under ``policy``.

    When ``HALGATE_RELEASE_MANAGERS`` is set in ``env`` (default: the process environment) to
    a comma-separated list of names, that list *is* the set of release managers: it replaces
    the policy's ``release_managers``, it is not added to it. When the variable is unset or
    holds no name, the policy's ``release_managers`` apply. Names are stripped; duplicates
    are dropped, first occurrence kept. ``policy`` may be a Policy or a report's policy dict.
    """
    env = os.environ if env is None else env
    configured = [n.strip() for n in env.get(ENV_VAR, "").split(",") if n.strip()]
    if configured:
        return list(dict.fromkeys(configured))
    names = (
        policy.release_managers if isinstance(policy, Policy) else policy.get("release_managers")
    )
    return list(dict.fromkeys(str(n).strip() for n in names or [] if str(n).strip()))


def may_sign_off(reviewer: str, managers: Sequence[str]) -> bool:
    """Whether ``reviewer`` is one of ``managers`` (the exact name, as recorded)."""
    return bool(reviewer.strip()) and reviewer in managers


def check_sign_off(reviewer: str, managers: Sequence[str], run_id: str) -> None:
    """Raise PermissionDeniedError, saying why, unless ``reviewer`` may sign off ``run_id``."""
    if not managers:
        raise PermissionDeniedError(
            f"sign-off refused: no release managers are configured for run {run_id} "
            f"(set release_managers in the policy or {ENV_VAR})"
        )
    if not may_sign_off(reviewer, managers):
        raise PermissionDeniedError(
            f"sign-off refused: {reviewer!r} is not a release manager "
            f"(allowed: {', '.join(managers)})"
        )
