"""#12 B: overrides and sign-offs stay append-only against INSERT OR REPLACE, on a real file."""

from __future__ import annotations

import sqlite3

import pytest
from halgate.store import Store

from ..conftest import build_report


def _history(path):
    raw = sqlite3.connect(path)
    rows = (
        raw.execute("SELECT * FROM overrides ORDER BY id").fetchall(),
        raw.execute("SELECT * FROM signoffs ORDER BY id").fetchall(),
    )
    raw.close()
    return rows


@pytest.fixture
def reviewed_db(store_db):
    with Store(store_db) as store:
        run_id = store.save_run(build_report())
        store.add_override(
            run_id, "q1/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="a"
        )
        store.sign_off(run_id, "reject", "rita", "no", release_managers=["rita"])
    return store_db


@pytest.mark.parametrize("recursive", [False, True])
@pytest.mark.parametrize(
    "sql",
    [
        "INSERT OR REPLACE INTO overrides (id, run_id, claim_id, verdict, comment, reviewer, "
        "created_at) VALUES (1, 'x', 'q1/candidate/0', 'CONTRADICTED', 'forged', 'eve', 't')",
        "REPLACE INTO signoffs (id, run_id, decision, reviewer, comment, created_at, "
        "decision_status, inputs_hash) VALUES (1, 'x', 'APPROVED', 'eve', 'forged', 't', "
        "'PASSED', 'h')",
        "INSERT INTO overrides (id, run_id, claim_id, comment, reviewer, created_at) "
        "VALUES (1, 'x', 'c', 'forged', 'eve', 't') ON CONFLICT(id) DO UPDATE SET comment = 'x'",
    ],
)
def test_replacing_an_existing_row_is_refused(reviewed_db, sql, recursive):
    before = _history(reviewed_db)
    raw = sqlite3.connect(reviewed_db)
    raw.execute(f"PRAGMA recursive_triggers = {'ON' if recursive else 'OFF'}")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute(sql)
        raw.commit()
    raw.close()
    assert _history(reviewed_db) == before


def test_new_rows_still_append(reviewed_db):
    with Store(reviewed_db) as store:
        run_id = store.list_runs()[0].run_id
        store.add_override(run_id, "q2/candidate/0", comment="confirmed", reviewer="b")
        assert len(store.override_history(run_id)) == 2
