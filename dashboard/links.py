"""Deep links: the run, the item under review and the filters live in the URL.

A copied address opens the same view in another browser (a colleague's, after login): the
page is the URL's path (``/triage``), the rest its query parameters (``?run=...&claim=...``).
The URL is read once per session, when it is new, and then written back after every change,
so the address bar always names what is on screen. Values from a URL are only kept when
they are among the page's own choices (a link is user input like any other).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

RUN = "run"
_SEEN_RUN = "_link_run_seen"


def linked_run(ids: Sequence[str]) -> str | None:
    """The run the URL names, when it is a stored run and new to this session (else None:
    the sidebar's choice stands)."""
    wanted = st.query_params.get(RUN)
    seen = st.session_state.get(_SEEN_RUN)
    st.session_state[_SEEN_RUN] = wanted
    return wanted if wanted in ids and wanted != seen else None


def show_run(run_id: str) -> None:
    """Name the run on screen in the URL (and remember it, so it is not read as a new link)."""
    publish(run=run_id)
    st.session_state[_SEEN_RUN] = run_id


def value(param: str) -> str | None:
    """The URL's value of ``param``, if any."""
    return st.query_params.get(param)


def seed(key: str, param: str, options: Sequence[str], multi: bool = False) -> None:
    """Start widget ``key`` from the URL's ``param`` the first time this session draws it
    (only values among ``options``; the widget's own default otherwise)."""
    if key in st.session_state or param not in st.query_params:
        return
    given = [v for v in st.query_params.get_all(param) if v in options]
    if multi:
        st.session_state[key] = given
    elif given:
        st.session_state[key] = given[0]


def publish(**params: str | Sequence[str] | None) -> None:
    """Write the view into the URL: a value sets its parameter, None or empty removes it."""
    for name, given in params.items():
        if not given:
            if name in st.query_params:
                del st.query_params[name]
        elif isinstance(given, str):
            if st.query_params.get(name) != given:
                st.query_params[name] = given
        elif st.query_params.get_all(name) != list(given):
            st.query_params[name] = list(given)
