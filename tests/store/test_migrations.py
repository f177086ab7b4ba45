"""Schema migrations: an old database opens, upgrades and keeps its data."""

from __future__ import annotations

import json
import sqlite3

import pytest
from halgate.errors import StoreError
from halgate.models import GateStatus
from halgate.review import SUMMARY_VERSION
from halgate.review.effective import report_hash
from halgate.store import SCHEMA_VERSION, Store

from ..conftest import build_report

# Schema version 1 exactly as halgate 0.1 created it; frozen here on purpose.
V1_SCHEMA = """
CREATE TABLE runs (run_id TEXT PRIMARY KEY, created_at TEXT, saved_at TEXT, mode TEXT,
    suite_name TEXT, suite_hash TEXT, judge_id TEXT, prompt_version TEXT, gated_system TEXT,
    policy TEXT, status TEXT, exit_code INTEGER, timings TEXT, report TEXT, report_hash TEXT);
CREATE TABLE claims (run_id TEXT NOT NULL REFERENCES runs(run_id), claim_id TEXT NOT NULL,
    case_id TEXT, system TEXT, idx INTEGER, verdict TEXT, hallucination_type TEXT,
    severity TEXT, text TEXT, span_start INTEGER, span_end INTEGER, rationale TEXT,
    citations TEXT, score REAL, PRIMARY KEY (run_id, claim_id));
CREATE TABLE overrides (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL,
    claim_id TEXT NOT NULL, verdict TEXT, hallucination_type TEXT, severity TEXT,
    comment TEXT NOT NULL, reviewer TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE signoffs (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL,
    decision TEXT NOT NULL, reviewer TEXT NOT NULL, comment TEXT NOT NULL,
    created_at TEXT NOT NULL, decision_status TEXT NOT NULL, inputs_hash TEXT NOT NULL);
CREATE TABLE audit_log (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL,
    actor TEXT NOT NULL, action TEXT NOT NULL, run_id TEXT, detail TEXT);
PRAGMA user_version = 1;
"""


@pytest.fixture
def v1_db(tmp_path):
    """A schema-version-1 database built by hand, holding one run and one override."""
    path = tmp_path / "old.db"
    report = build_report()
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    conn.execute(
        "INSERT INTO runs (run_id, created_at, mode, suite_name, suite_hash, judge_id, "
        "gated_system, policy, status, exit_code, report, report_hash) "
        "VALUES (?, ?, 'compare', 'tiny', ?, 'fixture/none@v1', 'candidate', ?, 'FAILED', 1, "
        "?, ?)",
        [
            report.run_id,
            report.created_at,
            report.suite.content_hash,
            json.dumps(report.policy),
            report.model_dump_json(),
            report_hash(report),  # what save_run stored then; every read now checks it
        ],
    )
    conn.execute(
        "INSERT INTO overrides (run_id, claim_id, verdict, comment, reviewer, created_at) "
        "VALUES (?, 'q1/candidate/0', 'SUPPORTED', 'from v1', 'old-timer', '2025-01-01')",
        [report.run_id],
    )
    conn.execute(
        "INSERT INTO audit_log (at, actor, action, run_id, detail) "
        "VALUES ('2025-01-01', 'old-timer', 'override', ?, '{}')",
        [report.run_id],
    )
    conn.commit()
    conn.close()
    return path, report


def test_v1_database_opens_upgrades_and_keeps_data(v1_db):
    path, report = v1_db
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 12  # ... 0012_run_overviews
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == 12
        assert "label" in {c.name for c in store.db["overrides"].columns}
        loaded = store.load_report(report.run_id)
        # v7 drew the old run's audit seed, once, and the audit log says so
        assert loaded == report.model_copy(update={"audit_seed": loaded.audit_seed})
        assert isinstance(loaded.audit_seed, int)
        [o] = store.override_history(report.run_id)
        assert (o.reviewer, o.comment) == ("old-timer", "from v1")
        [row] = store.list_runs()  # the summary cache is filled on first read
        assert row.n_overrides == 1 and row.agreement == 0.0
        assert row.status == GateStatus.FAILED  # q2 is still a CRITICAL contradiction
        assert [e.actor for e in store.audit()] == ["old-timer", "halgate-migration"]
        assert store.audit()[1].detail == {"audit_seed": loaded.audit_seed}
        # v2 made old tables append-only too
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.db.execute("DELETE FROM overrides")
    with Store(path) as store:  # reopening is a no-op
        assert store.schema_version == 12


def test_v2_summaries_move_to_their_own_table_and_runs_lose_the_columns(v1_db):
    """A v2 database kept its run-list summary in ``runs``; v3 moves it as it is."""
    from halgate.store.schema import m0002_cache_summary_append_only
    from sqlite_utils import Database

    path, report = v1_db
    db = Database(str(path))
    m0002_cache_summary_append_only(db)
    # a summary of today's shape (SUMMARY_VERSION), so it is read as it is: moved, not lost
    cached = {"status": "PASSED", "exit_code": 0, "n_overrides": 5, "n_claims": 6}
    cached["version"] = SUMMARY_VERSION
    db.execute(
        "UPDATE runs SET effective = ?, agreement = '{}', summary_upto = 9 WHERE run_id = ?",
        [json.dumps(cached), report.run_id],
    )
    db.conn.commit()
    db.close()
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        columns = {c.name for c in store.db["runs"].columns}
        assert not columns & {"effective", "agreement", "summary_upto"}
        [row] = store.list_runs()  # upto 9 >= the one override: read, not recomputed
        assert (row.status, row.n_overrides) == (GateStatus.PASSED, 5)
        assert row.answer_rate is None  # not in that summary: shown as n/a, never made up
        loaded = store.load_report(report.run_id)
        assert loaded == report.model_copy(update={"audit_seed": loaded.audit_seed})


def test_a_summary_stored_before_the_answer_level_rate_is_recomputed_once(v1_db):
    """A run-list summary without ``version`` (stored by a halgate that listed only the
    claim-level rate) is recomputed on listing, stored, and then read as it is."""
    path, report = v1_db
    with Store(path) as store:
        store.list_runs()
        old = {"status": "PASSED", "exit_code": 0, "n_overrides": 1, "micro_rate": 0.5}
        store.db.execute(
            "UPDATE run_summaries SET effective = ? WHERE run_id = ?",
            [json.dumps(old), report.run_id],
        )
        store.db.conn.commit()
        [row] = store.list_runs()
        assert row.answer_rate == pytest.approx(1 / 3) and row.gated_measure == "answers"
        assert (row.micro_rate, row.status) == (pytest.approx(1 / 3), GateStatus.FAILED)
        (text,) = store.db.execute("SELECT effective FROM run_summaries").fetchone()
        assert json.loads(text)["version"] == SUMMARY_VERSION  # stored: not redone each time


def test_judge_cache_has_the_columns_the_llm_judge_expects(store_db):
    with Store(store_db) as store:
        cols = {c.name: c.type for c in store.db["judge_cache"].columns}
        pks = store.db["judge_cache"].pks
    assert cols == {
        "key": "TEXT",
        "prompt_version": "TEXT",
        "model": "TEXT",
        "response": "TEXT",
        "usage": "TEXT",
        "created_at": "TEXT",
    }
    assert pks == ["key"]


# What the LLM judge created itself before migration 0009 gave its tables to the store.
OLD_JUDGE_CACHE = """
CREATE TABLE IF NOT EXISTS judge_cache (
    key TEXT PRIMARY KEY, prompt_version TEXT, model TEXT, response TEXT, usage TEXT,
    created_at TEXT
)
"""


def test_store_opens_a_file_the_judge_cache_created_first(store_db):
    conn = sqlite3.connect(store_db)
    conn.execute(OLD_JUDGE_CACHE)
    conn.execute("INSERT INTO judge_cache (key, response) VALUES ('k', 'r')")
    conn.commit()
    conn.close()
    with Store(store_db) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.db.execute("SELECT response FROM judge_cache").fetchone() == ("r",)


def test_newer_schema_is_refused(store_db):
    Store(store_db).close()
    conn = sqlite3.connect(store_db)
    conn.execute(
        "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
        "VALUES ('halgate', '0099_future', 'x')"
    )
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer than this halgate"):
        Store(store_db)
