"""`latest` names the newest run, so the README's review commands need no copied run id."""

from __future__ import annotations

import pytest
from halgate.errors import NotFoundError
from halgate.store import Store


def test_latest_is_the_newest_stored_run(tmp_path, make_report):
    newer = make_report(run_id="20260102T000000Z-aaaaaa")
    newer = newer.model_copy(update={"created_at": "2026-01-02T00:00:00+00:00"})
    older = make_report(run_id="20260101T000000Z-bbbbbb")
    older = older.model_copy(update={"created_at": "2026-01-01T00:00:00+00:00"})
    with Store(tmp_path / "r.db") as store:
        store.save_run(newer)
        store.save_run(older)  # saved last, made first: `latest` goes by when it was stored,
        assert store.resolve("latest") == older.run_id  # as the runs list (a file's own date
        assert store.list_runs()[0].run_id == older.run_id  # may be forged: 2099)
        assert store.resolve("20260101") == older.run_id


def test_latest_in_an_empty_database_says_so(tmp_path):
    with Store(tmp_path / "r.db") as store, pytest.raises(NotFoundError, match="no run"):
        store.resolve("latest")
