"""halgate review dashboard: the entry file only sets up shared state and navigation.

Started by ``halgate dashboard [--db FILE]`` (which passes the database as ``HALGATE_DB``) or
``streamlit run`` on this file. Pages live in ``views/``; each reads the selected run and the
reviewer from ``halgate.dashboard.state``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import streamlit as st
from halgate import HalgateError
from halgate.dashboard import links, loaders, state
from halgate.database import mask_url

VIEWS = Path(__file__).parent / "views"
# A file shipped with the package, served by this server: a ":material/...:" page icon makes
# the browser fetch the favicon from a font CDN, which an offline dashboard must not do.
ICON = Path(__file__).parent / "icon.svg"

st.set_page_config(page_title="halgate", page_icon=str(ICON), layout="wide")

pages = [
    st.Page(VIEWS / "runs.py", title="Runs", icon=":material/list:", default=True),
    st.Page(VIEWS / "overview.py", title="Overview", icon=":material/dashboard:"),
    st.Page(VIEWS / "claims.py", title="Claims explorer", icon=":material/search:"),
    st.Page(VIEWS / "triage.py", title="Triage", icon=":material/rule:"),
    st.Page(VIEWS / "reviews.py", title="My reviews", icon=":material/history:"),
    st.Page(VIEWS / "team_queue.py", title="Review queue", icon=":material/group:"),
    st.Page(VIEWS / "agreement.py", title="Agreement", icon=":material/handshake:"),
    st.Page(VIEWS / "signoff.py", title="Sign-off", icon=":material/verified:"),
    st.Page(VIEWS / "pairwise.py", title="Pairwise", icon=":material/compare:"),
    st.Page(VIEWS / "selftest.py", title="Self-test"),
]
page = st.navigation(pages)


def sidebar() -> None:
    """Database, run choice and reviewer identity."""
    with st.sidebar:
        st.markdown("### halgate")
        db = state.db_path()
        st.caption("Database")
        st.text(mask_url(db))  # a server URL never shows its password
        runs = loaders.run_rows(db)
        ids = [r.run_id for r in runs]
        current = links.linked_run(ids) or state.selected_run()  # a copied link names its run
        if ids:
            if current not in ids:
                current = ids[0]
            choice = st.selectbox("Run", ids, index=ids.index(current))
            state.select_run(choice)
            links.show_run(choice)
        state.identity_box()


# An expected failure (a file that is not a database, a run ALTERED outside halgate, a full
# disk, a lock past the busy timeout) is one error line naming it, never an exception box.
try:
    sidebar()
    page.run()
except HalgateError as exc:
    st.error(state.plain(str(exc)))
except sqlite3.Error as exc:
    st.error(state.plain(f"{mask_url(state.db_path())}: database error: {exc}"))
