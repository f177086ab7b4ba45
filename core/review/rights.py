"""Who may sign off a run: one rule for the CLI, the dashboard and the store.

A release manager's sign-off is the final word on a release, so both faces must agree on who
is one, and nobody may name themselves one. The list comes from the server's configuration
only: the ``HALGATE_RELEASE_MANAGERS`` variable when it is set, else ``release_managers`` in
the ``[review]`` section of the config file the LLM judge also reads (``halgate.toml`` in the
working directory, else ``~/.config/halgate/config.toml``)::

    [review]
    release_managers = ["carol", "dan"]

Never from a run's policy: a suite's ``policy.toml`` or an uploaded report is written by
whoever wants the release through, so a ``release_managers`` list there grants nothing.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import PermissionDeniedError, UsageError
from ..judges.llm.config import config_paths
from ..models import GateStatus

ENV_VAR = "HALGATE_RELEASE_MANAGERS"
CONFIG_KEY = "[review] release_managers"


def _names(values: Sequence[object]) -> list[str]:
    """Stripped, non-empty names; duplicates dropped, first occurrence kept."""
    return list(dict.fromkeys(str(n).strip() for n in values if str(n).strip()))


def _configured(paths: Sequence[Path]) -> list[str]:
    """``release_managers`` of the ``[review]`` section of the first config file found."""
    for path in paths:
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise UsageError(f"{path}: not valid TOML: {exc}") from None
        section = data.get("review", {})
        names = section.get("release_managers", []) if isinstance(section, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise UsageError(f"{path}: {CONFIG_KEY} must be a list of names")
        return _names(names)
    return []


def release_managers(
    env: Mapping[str, str] | None = None, paths: Sequence[Path] | None = None
) -> list[str]:
    """Who may sign off any run, from the server's configuration only.

    When ``HALGATE_RELEASE_MANAGERS`` is set in ``env`` (default: the process environment) to
    a comma-separated list of names, that list is the set of release managers; otherwise the
    ``[review] release_managers`` list of the first config file in ``paths`` (default: the
    files the LLM judge reads). A run's policy is never consulted. Names are stripped;
    duplicates are dropped, first occurrence kept.
    """
    env = os.environ if env is None else env
    configured = _names(env.get(ENV_VAR, "").split(","))
    if configured:
        return configured
    return _configured(config_paths() if paths is None else paths)


def may_sign_off(reviewer: str, managers: Sequence[str]) -> bool:
    """Whether ``reviewer`` is one of ``managers`` (the exact name, as recorded)."""
    return bool(reviewer.strip()) and reviewer in managers


def check_sign_off(reviewer: str, managers: Sequence[str], run_id: str) -> None:
    """Raise PermissionDeniedError, saying why, unless ``reviewer`` may sign off ``run_id``."""
    if not managers:
        raise PermissionDeniedError(
            f"sign-off refused: no release managers are configured for run {run_id} "
            f"(set {ENV_VAR} or {CONFIG_KEY} in halgate.toml on this server)"
        )
    if not may_sign_off(reviewer, managers):
        raise PermissionDeniedError(
            f"sign-off refused: {reviewer!r} is not a release manager "
            f"(allowed: {', '.join(managers)})"
        )


OVERRIDE_GATE_HINT = "--override-gate in the CLI, the acknowledgement box on the Sign-off page"


def check_approval(approving: bool, status: GateStatus, override_gate: bool, run_id: str) -> bool:
    """Whether a sign-off overrides the gate; raise UsageError if it would, unacknowledged.

    Approving a run whose effective decision is not PASSED (FAILED, NEEDS_REVIEW,
    HARNESS_ERROR) needs an explicit acknowledgement (and, like every sign-off, a comment);
    a rejection, or an approval of a PASSED run, never overrides anything.
    """
    overrides = approving and status != GateStatus.PASSED
    if overrides and not override_gate:
        raise UsageError(
            f"sign-off refused: run {run_id}'s gate decision is {status.value}, not PASSED; "
            f"approving it anyway needs an explicit acknowledgement ({OVERRIDE_GATE_HINT}) "
            "and a comment saying why"
        )
    return overrides
