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

The dashboard knows who is signing off only when it has a login (``[auth]`` in Streamlit's
``secrets.toml``, the identity from ``st.user``). Without one, a name is typed, not checked,
so sign-off from the dashboard is off unless the server allows it:
``HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF=1`` (``make demo`` sets it), else
``allow_unauthenticated_signoff = true`` in the same ``[review]`` section. The CLI is not
affected: whoever runs ``halgate signoff`` has the server's shell and its database already.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import PermissionDeniedError, UsageError
from ..inputs import config_section
from ..models import GateStatus

ENV_VAR = "HALGATE_RELEASE_MANAGERS"
CONFIG_KEY = "[review] release_managers"


def _names(values: Sequence[object]) -> list[str]:
    """Stripped, non-empty names; duplicates dropped, first occurrence kept."""
    return list(dict.fromkeys(str(n).strip() for n in values if str(n).strip()))


def _configured(paths: Sequence[Path] | None) -> list[str]:
    """``release_managers`` of the ``[review]`` section of the first config file found."""
    path, section = config_section("review", paths)
    names = section.get("release_managers", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise UsageError(f"{path}: {CONFIG_KEY} must be a list of names")
    return _names(names)


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
    return _configured(paths)


def may_sign_off(reviewer: str, managers: Sequence[str]) -> bool:
    """Whether ``reviewer`` is one of ``managers`` (the exact name, as recorded)."""
    return bool(reviewer.strip()) and reviewer in managers


def check_sign_off(reviewer: str, managers: Sequence[str], run_id: str) -> None:
    """Raise PermissionDeniedError, saying why, unless ``reviewer`` may sign off ``run_id``."""
    if not managers:
        raise PermissionDeniedError(
            f"sign-off refused: {reviewer!r} is not a release manager; no release managers "
            f"are configured for run {run_id} (set {ENV_VAR} or {CONFIG_KEY} in halgate.toml "
            "on this server, grant the role with `halgate roles grant`, or give the login's "
            "groups claim a release-manager group)"
        )
    if not may_sign_off(reviewer, managers):
        raise PermissionDeniedError(
            f"sign-off refused: {reviewer!r} is not a release manager "
            f"(allowed: {', '.join(managers)})"
        )


ALLOW_ENV_VAR = "HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF"
ALLOW_KEY = "[review] allow_unauthenticated_signoff"
_YES = {"1", "true", "yes", "on"}
_NO = {"0", "false", "no", "off"}


def allow_unauthenticated_signoff(
    env: Mapping[str, str] | None = None, paths: Sequence[Path] | None = None
) -> bool:
    """Whether the dashboard may take sign-offs from a typed name when it has no login.

    ``HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF`` (1/true/yes/on or 0/false/no/off) when set in
    ``env``, else ``[review] allow_unauthenticated_signoff`` (a boolean) of the first config
    file in ``paths``; off by default. Anything else is a UsageError naming the setting.
    """
    env = os.environ if env is None else env
    value = env.get(ALLOW_ENV_VAR, "").strip().lower()
    if value in _YES or value in _NO:
        return value in _YES
    if value:
        raise UsageError(f"{ALLOW_ENV_VAR}={value!r}: expected 1 or 0 (true or false)")
    path, section = config_section("review", paths)
    allowed = section.get("allow_unauthenticated_signoff", False)
    if not isinstance(allowed, bool):
        raise UsageError(f"{path}: {ALLOW_KEY} must be true or false")
    return allowed


def check_sign_off_identity(
    login_configured: bool, logged_in: bool, allow_unauthenticated: bool | None = None
) -> None:
    """Raise PermissionDeniedError, saying why, unless the dashboard knows who signs off.

    A logged-in user may go on (whether they are a release manager is ``check_sign_off``'s
    question). With a login configured, nobody else may. Without one, a typed name is
    accepted only when ``allow_unauthenticated`` (default: ``allow_unauthenticated_signoff()``)
    is true.
    """
    if logged_in:
        return
    if login_configured:
        raise PermissionDeniedError("sign-off refused: log in first (sidebar, Log in)")
    if allow_unauthenticated is None:
        allow_unauthenticated = allow_unauthenticated_signoff()
    if not allow_unauthenticated:
        raise PermissionDeniedError(
            "sign-off is off: this dashboard runs unauthenticated (no [auth] login in "
            ".streamlit/secrets.toml), so a typed name proves nothing; configure the login, "
            f"or allow it on this server with {ALLOW_ENV_VAR}=1 or {ALLOW_KEY} = true in "
            "halgate.toml (or use halgate signoff)"
        )


def check_review_identity(
    login_configured: bool, logged_in: bool, allow_unauthenticated: bool | None = None
) -> None:
    """Raise PermissionDeniedError unless the dashboard may record this session's reviews.

    Overrides and audit labels move the gate as surely as a sign-off (a typed name could
    overturn a CRITICAL claim and turn FAILED into PASSED), so the same switch governs them:
    a logged-in user may review; with a login configured nobody else may; without one a
    typed name may only where ``allow_unauthenticated`` (default: the server's
    ``allow_unauthenticated_signoff()``) is true.
    """
    if logged_in:
        return
    if login_configured:
        raise PermissionDeniedError("review refused: log in first (sidebar, Log in)")
    if allow_unauthenticated is None:
        allow_unauthenticated = allow_unauthenticated_signoff()
    if not allow_unauthenticated:
        raise PermissionDeniedError(
            "reviews are off: this dashboard runs unauthenticated, so a typed name proves "
            "nothing and its overrides and audit labels would move the gate; configure the "
            f"login, or allow it on this server with {ALLOW_ENV_VAR}=1 or {ALLOW_KEY} = true "
            "(or use halgate override)"
        )


def login_identity(user: Mapping[str, object]) -> str | None:
    """Who a login says the user is: a verified email, else the provider's subject.

    A display name (``name``) is whatever the account holder typed, and so is an email the
    provider has not verified: neither may be recorded as a reviewer or match a release
    manager. None when nobody is logged in or the login gives neither.
    """
    if not user.get("is_logged_in"):
        return None
    email = str(user.get("email") or "").strip()
    if email and user.get("email_verified") is True:
        return email
    subject = str(user.get("sub") or "").strip()
    return subject or None


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
