"""Cached reads from the review store, and the writes that invalidate them.

Every loader takes plain arguments (database path, run id, version) so ``st.cache_data`` can
key on them; ``version`` is the number of overrides of the run, which changes with every
review, so a cached effective report is never served after an override. Writers clear the
cache as well, because sign-offs and new runs change lists that carry no version.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st
from halgate.models import RunReport
from halgate.store import Store
from halgate.store.models import JudgeAgreement, Override, ReviewItem, RunRow, SignOff
from halgate.tables import claims_frame, judge_health_row

_TTL = 3600


def run_version(db: str, run_id: str) -> int:
    """Cache-key part that changes whenever the run's effective verdicts may change."""
    with Store(db) as store:
        return len(store.override_history(run_id))


@st.cache_data(ttl=_TTL, max_entries=8, show_spinner="Loading runs…")
def runs(db: str) -> list[RunRow]:
    """Every run in the database, newest first."""
    with Store(db) as store:
        return store.list_runs()


@st.cache_data(ttl=_TTL, max_entries=8, show_spinner="Applying reviews…")
def effective_report(db: str, run_id: str, version: int) -> RunReport:
    """The run with overrides applied and the gate recomputed."""
    with Store(db) as store:
        return store.effective_report(run_id)


@st.cache_data(ttl=_TTL, max_entries=32, show_spinner=False)
def judged_report(db: str, run_id: str) -> RunReport:
    """The run as the judge left it (immutable once saved, so no version)."""
    with Store(db) as store:
        return store.load_report(run_id)


@st.cache_data(ttl=_TTL, max_entries=8, show_spinner=False)
def claims(db: str, run_id: str, version: int) -> pd.DataFrame:
    """One row per effective claim, for the claims explorer."""
    report = effective_report(db, run_id, version)
    return claims_frame(report, overridden={o.claim_id for o in overrides(db, run_id, version)})


@st.cache_data(ttl=_TTL, max_entries=8, show_spinner=False)
def overrides(db: str, run_id: str, version: int) -> list[Override]:
    """The run's override history, oldest first."""
    with Store(db) as store:
        return store.override_history(run_id)


@st.cache_data(ttl=_TTL, max_entries=8, show_spinner=False)
def queue(db: str, run_id: str, version: int) -> list[ReviewItem]:
    """The run's review queue, most severe first."""
    with Store(db) as store:
        return store.review_queue(run_id)


@st.cache_data(ttl=_TTL, max_entries=8, show_spinner=False)
def agreement(db: str, run_id: str, version: int) -> JudgeAgreement:
    """Judge agreement from the run's overrides."""
    with Store(db) as store:
        return store.judge_agreement(run_id)


def signoffs(db: str, run_id: str) -> list[SignOff]:
    """Sign-offs with their stale flag (uncached: cheap, and staleness must be current)."""
    with Store(db) as store:
        return store.signoffs(run_id)


@st.cache_data(ttl=_TTL, max_entries=64, show_spinner=False)
def health_row(db: str, run_id: str, agreement_rate: float | None) -> dict:
    """The judge-health signals of one run, for the trend on the Runs page."""
    return judge_health_row(judged_report(db, run_id), agreement_rate)


def invalidate() -> None:
    """Forget every cached read; call after any write to the store."""
    st.cache_data.clear()
