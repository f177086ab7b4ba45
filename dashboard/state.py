"""Per-session state the pages share: which database, which run, who is reviewing.

Kept in one module so every page reads the same keys; nothing here touches the database
except through ``open_store``, which opens a fresh Store per operation (SQLite connections
must not cross Streamlit's script threads).

Identity: with ``[auth]`` in ``.streamlit/secrets.toml`` (Streamlit's OIDC login) reviews and
sign-offs come from the logged-in ``st.user`` only; without it the sidebar says that the
dashboard runs unauthenticated, names are typed, and whether a typed name may sign off is
``halgate.review.check_sign_off_identity`` (off unless the server allows it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st
from halgate import HalgateError, Store
from halgate.models import Role
from halgate.review import (
    allow_unauthenticated_signoff,
    check_may_review,
    check_review_identity,
    check_sign_off_identity,
    claimed_roles,
    login_identity,
    role_groups,
    roles_claim,
    roles_managed,
    roles_of,
)

DEFAULT_DB = "halgate.db"
RUN_KEY = "run_id"
REVIEWER_KEY = "reviewer_name"


def db_path() -> str:
    """The review database: ``HALGATE_DB`` (set by ``halgate dashboard --db``) or the default."""
    if "db_path" not in st.session_state:
        st.session_state["db_path"] = os.environ.get("HALGATE_DB", DEFAULT_DB)
    return str(st.session_state["db_path"])


@contextmanager
def open_store() -> Iterator[Store]:
    """A Store for one operation, closed afterwards."""
    store = Store(db_path())
    try:
        yield store
    finally:
        store.close()


def selected_run() -> str | None:
    """The run the pages show, chosen in the sidebar."""
    value = st.session_state.get(RUN_KEY)
    return str(value) if value else None


def select_run(run_id: str) -> None:
    """Make ``run_id`` the run every page shows (e.g. after a new run or an upload)."""
    st.session_state[RUN_KEY] = run_id


def login_configured() -> bool:
    """True when ``[auth]`` is set in secrets, i.e. ``st.login`` can be used."""
    try:
        return "auth" in st.secrets
    except Exception:  # no secrets file at all: Streamlit raises rather than answering False
        return False


def logged_in_user() -> str | None:
    """The identity from Streamlit's built-in authentication, when a user is logged in."""
    try:
        info = st.user.to_dict()
    except Exception:  # st.user is unavailable outside a running app
        return None
    return login_identity(info)  # a verified email or the subject, never a display name


UNAUTHENTICATED = (
    "This dashboard runs unauthenticated: no login is configured ([auth] in "
    ".streamlit/secrets.toml), so the name below is typed, not checked."
)


def _unauthenticated_signoff_allowed() -> bool:
    try:
        return allow_unauthenticated_signoff()
    except HalgateError:  # a bad setting: the Sign-off page shows the message
        return False


def identity_box() -> str | None:
    """Draw the reviewer identity control in the sidebar and return the reviewer, if known.

    With ``[auth]`` in secrets, identity comes from ``st.login``/``st.user``; otherwise the
    sidebar says the dashboard runs unauthenticated, and the reviewer types a name once
    (kept for the browser session).
    """
    user = logged_in_user()
    if user:
        st.caption("Signed in as")
        st.text(user)
        held = sorted(r.value for r in session_roles())
        if held:
            st.caption("Roles: " + ", ".join(held))
        if login_configured():
            st.button("Log out", on_click=st.logout)
        return user
    if login_configured():
        st.caption("Log in to review or sign off.")
        st.button("Log in", on_click=st.login, type="primary")
        return None
    st.warning(UNAUTHENTICATED)
    if _unauthenticated_signoff_allowed():
        st.caption("Sign-off by a typed name is allowed on this server.")
        st.caption("So are reviews: overrides and audit labels by a typed name move the gate.")
    else:
        st.caption("Sign-off from the dashboard is off without a login.")
        st.caption(
            "So are reviews: overrides and audit labels would move the gate on a name "
            "nobody checked."
        )
    name = st.text_input("Your name (recorded with reviews)", key=REVIEWER_KEY)
    return name.strip() or None


def sign_off_refusal() -> str | None:
    """Why this session may not sign off from the dashboard (core's rule), else None."""
    try:
        check_sign_off_identity(login_configured(), logged_in_user() is not None)
    except HalgateError as exc:
        return str(exc)
    return None


def review_refusal() -> str | None:
    """Why this session may not record overrides or labels (core's rules), else None: the
    identity rule, then, for a logged-in user while roles are managed, the reviewer role."""
    user = logged_in_user()
    try:
        check_review_identity(login_configured(), user is not None)
        if user is not None:
            check_may_review(user, session_roles(), _roles_managed())
    except HalgateError as exc:
        return str(exc)
    return None


def _claimed_roles() -> set[Role]:
    """Roles the login's groups claim grants (none without a login or a configured claim)."""
    try:
        return claimed_roles(st.user.to_dict(), roles_claim(), role_groups())
    except Exception:  # st.user outside a running app, or a bad setting (shown elsewhere)
        return set()


def session_roles() -> set[Role]:
    """The logged-in user's rights: the roles table, the configured release managers and
    the login's claim (``halgate.review.roles_of``). None for a typed name: it proves nothing."""
    user = logged_in_user()
    if user is None:
        return set()
    with open_store() as store:
        granted, managers = store.granted_roles(), store.release_managers()
    return roles_of(user, granted, managers, _claimed_roles())


def roles_from_login() -> bool:
    """Whether the login's groups claim grants roles on this server."""
    try:
        return login_configured() and bool(roles_claim())
    except HalgateError:
        return False


def _roles_managed() -> bool:
    with open_store() as store:
        granted = store.granted_roles()
    try:
        claim = roles_claim()
    except HalgateError:
        claim = ""
    return roles_managed(claim, granted)


def sign_off_managers() -> list[str]:
    """Who may sign off here: the store's list (configuration and roles table), and the
    logged-in user when the login's claim makes them release manager."""
    with open_store() as store:
        managers = store.release_managers()
    user = logged_in_user()
    if user and Role.RELEASE_MANAGER in session_roles() and user not in managers:
        managers.append(user)
    return managers


def reviewer() -> str | None:
    """Who is reviewing, as established by ``identity_box`` in this session."""
    user = logged_in_user()
    if user:
        return user
    if login_configured():
        return None
    name = st.session_state.get(REVIEWER_KEY) or ""
    return str(name).strip() or None


def flash(message: str, kind: str = "success") -> None:
    """Queue a message for the next render (callbacks run before the page draws)."""
    st.session_state["_flash"] = (kind, message)


def show_flash() -> None:
    """Show and forget the queued message, if any (plain text, never markdown)."""
    item = st.session_state.pop("_flash", None)
    if item:
        kind, message = item
        show = {"success": st.success, "error": st.error, "warning": st.warning}
        show.get(kind, st.info)(plain(message))


_MARKDOWN_SPECIALS = "\\`*_{}[]()#+-.!|<>~$:"


def plain(text: str) -> str:
    """Backslash-escape Markdown so text quoting user input (names, ids) shows literally."""
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS else ch for ch in text)
