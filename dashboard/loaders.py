"""Cached reads from the review store, and the invalidation after writes.

Keys are plain arguments: the database path, the run id and a *version*. A run's version is
its number of overrides, so anything derived from effective verdicts is recomputed after every
review, from any session; the run list is keyed by the database file's stamp.

A 10,000-case report is ~60,000 claim records. ``st.cache_data`` copies (pickles) a value on
every hit, which costs seconds at that size, so the two report objects are kept with
``st.cache_resource`` (one shared, read-only instance) and everything else — frames, lists,
small records — with ``st.cache_data``. The run is read from SQLite once; the effective
report, the review queue with its counts and judge agreement are derived from that one read
by ``halgate.review.review_run`` (what ``Store.reviewed_run`` calls) instead of three more
store round trips that would each re-parse the report.
"""

from __future__ import annotations

import gc
import os
from typing import Any, TypeVar

import pandas as pd
import streamlit as st
from halgate import collector_paused
from halgate.database import is_server_url
from halgate.models import JudgeAgreement, Override, RunReport, RunRow, SignOff
from halgate.present import claims_frame, judge_health_row
from halgate.review import (
    OwnReview,
    ReviewedRun,
    ReviewQueue,
    RunOverview,
    review_run,
    review_run_since,
    run_overview,
)
from halgate.store import Store

_TTL = 3600
_T = TypeVar("_T")


def db_version(db: str) -> tuple[int, ...]:
    """Changes whenever anything writes to the database (any session, any process).

    SQLite in WAL mode appends to ``-wal`` and folds it back at checkpoints, so the pair of
    modification times covers both; it costs two ``stat`` calls, not a query.
    """
    if is_server_url(db):  # no file to stat: the newest audit entry (every write makes one)
        with Store(db) as store:
            return (store.last_change(),)
    stamps: list[int] = []
    for suffix in ("", "-wal"):
        try:
            info = os.stat(db + suffix)
            stamps += [info.st_mtime_ns, info.st_size]
        except FileNotFoundError:
            stamps += [0, 0]
    return tuple(stamps)


def run_version(db: str, run_id: str) -> int:
    """Cache-key part that changes whenever the run's effective verdicts may change: its
    overrides, and its review-panel labels (a dispute holds the gate) in the high bits."""
    with Store(db) as store:
        labels = len(store.panel_labels(run_id))
    return len(overrides_now(db, run_id)) + (labels << 32)


def overrides_now(db: str, run_id: str) -> list[Override]:
    """The run's override history straight from the store (one indexed query)."""
    with Store(db) as store:
        return store.override_history(run_id)


def run_rows(db: str) -> list[RunRow]:
    """Every run in the database, newest first (re-read after any write to the file)."""
    return _runs(db, db_version(db))


@st.cache_data(ttl=_TTL, max_entries=8, show_spinner="Loading runs…")
def _runs(db: str, version: tuple[int, ...]) -> list[RunRow]:
    with Store(db) as store:
        return store.list_runs()


def _settled(value: _T) -> _T:
    """Move everything alive now out of the cyclic garbage collector's reach.

    A cached 10,000-case report is about a million tracked objects; each full collection
    walks them all (0.7 s per report), which shows up as a random pause in whatever click
    comes next. These objects are long-lived and free of cycles, so refcounting alone frees
    them when the cache drops them.
    """
    gc.freeze()
    return value


def my_reviews(db: str, reviewer: str) -> list[OwnReview]:
    """``reviewer``'s overrides in every run, newest first (re-read after any write)."""
    return _reviews_by(db, reviewer, db_version(db))


@st.cache_data(ttl=_TTL, max_entries=16, show_spinner=False)
def _reviews_by(db: str, reviewer: str, version: tuple[int, ...]) -> list[OwnReview]:
    with Store(db) as store:
        return store.reviews_by(reviewer)


def judged_report(db: str, run_id: str) -> RunReport:
    """The run as the judge left it, read and checked once per recorded report hash and
    shared by every session (a stored run is never replaced; a file swapped under the same
    path, or a hash edited since, misses the cache and is read and checked again)."""
    with Store(db) as store:
        digest = store.report_hash(run_id)
    return _judged(db, run_id, digest)


@st.cache_resource(ttl=_TTL, max_entries=4, show_spinner="Reading the run…")
def _judged(db: str, run_id: str, digest: str | None) -> RunReport:
    with Store(db) as store, collector_paused():
        return _settled(store.load_report(run_id))


@st.cache_data(ttl=_TTL, max_entries=16, show_spinner=False)
def overrides(db: str, run_id: str, version: int) -> list[Override]:
    """The run's override history, oldest first (the newest per claim is in force)."""
    return overrides_now(db, run_id)


@st.cache_resource(ttl=_TTL, max_entries=2, show_spinner="Applying reviews…")
def reviewed(db: str, run_id: str, version: int) -> ReviewedRun:
    """Overrides applied, the gate recomputed, the queue counted: ``review_run`` on the
    cached judged report and override history (what ``Store.reviewed_run`` returns).

    After a review only the answer it changed is redone (``review_run_since`` from the last
    reviewed run this server derived, any session's); the result is the same record."""
    judged, history = judged_report(db, run_id), overrides(db, run_id, version)
    with Store(db) as store:
        disputed = store.disputed_items(run_id)
    last = _last_reviewed(db, run_id)
    with collector_paused():
        if last:
            run = review_run_since(last[0], judged, history, disputed)
        else:
            run = review_run(run_id, judged, history, disputed)
    last[:] = [run]
    with Store(db) as store:  # the run list then reads this summary instead of redoing it
        store.cache_summary(run)
    return _settled(run)


@st.cache_resource(ttl=_TTL, max_entries=4, show_spinner=False)
def _last_reviewed(db: str, run_id: str) -> list[ReviewedRun]:
    """Holds the newest reviewed run derived for (db, run_id): where the next review starts."""
    return []


@st.cache_resource(ttl=_TTL, max_entries=8, show_spinner="Reading the run…")
def overview(db: str, run_id: str, version: int) -> RunOverview:
    """What the Overview draws: the store's overview for the reviews in force (kilobytes,
    the report's hash checked) or, when none is stored for them (an older run, a review
    from another server), derived the full way and stored for the next reader."""
    last = _last_reviewed(db, run_id)  # this server derived the run already: no read
    with Store(db) as store:
        digest = store.report_hash(run_id) or ""
        if last and _in_force(store, last[0]):
            return run_overview(last[0], digest)
        found = store.run_overview(run_id)
    if found is not None:
        return found
    return run_overview(reviewed(db, run_id, version), digest)


def _in_force(store: Store, run: ReviewedRun) -> bool:
    """Whether ``run`` was derived from the overrides and disputes in force now."""
    history = store.override_history(run.run_id)
    return [o.id for o in history] == [o.id for o in run.overrides] and sorted(
        store.disputed_items(run.run_id)
    ) == sorted(run.disputed)


def effective_run(db: str, run_id: str, version: int) -> RunReport:
    """The run with overrides applied and metrics, comparison and decision recomputed."""
    return reviewed(db, run_id, version).report


def queue(db: str, run_id: str, version: int) -> ReviewQueue:
    """The run's review queue, most severe first, with the reviewed flag and its counts."""
    return reviewed(db, run_id, version).queue


def agreement(db: str, run_id: str, version: int) -> JudgeAgreement:
    """Judge agreement from the run's overrides."""
    return reviewed(db, run_id, version).agreement


@st.cache_data(ttl=_TTL, max_entries=8, show_spinner=False)
def claims(db: str, run_id: str, version: int) -> pd.DataFrame:
    """One row per effective claim, for the claims explorer."""
    overridden = {o.claim_id for o in overrides(db, run_id, version)}
    return claims_frame(effective_run(db, run_id, version), overridden=overridden)


def signoffs(db: str, run_id: str) -> list[SignOff]:
    """Sign-offs with their stale flag (uncached: cheap, and staleness must be current)."""
    with Store(db) as store:
        return store.signoffs(run_id)


@st.cache_data(ttl=_TTL, max_entries=64, show_spinner=False)
def health_row(db: str, run_id: str, agreement_rate: float | None) -> dict[str, Any]:
    """The judge-health signals of one run, for the trend on the Runs page.

    Read straight from the store rather than through ``judged_report``, so scanning past runs
    never evicts the run being reviewed from that small cache.
    """
    with Store(db) as store:
        return judge_health_row(store.load_report(run_id), agreement_rate)


def invalidate(runs_changed: bool = False) -> None:
    """Forget cached reads after a write.

    Versioned entries would miss anyway, but lists and sign-off views carry no version. A
    saved or re-imported run may replace a judged report, so that cache goes too.
    """
    st.cache_data.clear()
    if runs_changed:
        _judged.clear()
        reviewed.clear()
        _last_reviewed.clear()
