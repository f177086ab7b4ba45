"""`halgate db copy` of the example run's SQLite store into a real PostgreSQL, verified; and
`halgate db upgrade`."""

from __future__ import annotations

import sqlite3

import pytest
from halgate.cli.app import app
from halgate.errors import StoreError
from halgate.store import SCHEMA_VERSION, Store
from halgate.store.copy import chain_digest, copy_store, table_counts
from typer.testing import CliRunner

from ..conftest import EXAMPLE_SUITE
from ..pg.server import PASSWORD


@pytest.fixture
def example_store(tmp_path, monkeypatch):
    """The example suite judged and saved, reviewed and signed off (every table has rows)."""
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    db = tmp_path / "example.db"
    result = CliRunner().invoke(app, ["run", str(EXAMPLE_SUITE), "--db", str(db), "-q"])
    assert result.exit_code in (0, 1, 3), result.output
    with Store(db) as store:
        run_id = store.list_runs()[0].run_id
        item = store.review_queue(run_id)[0]
        store.add_override(
            run_id, item.claim.claim_id, verdict="SUPPORTED", comment="ok", reviewer="a"
        )
        store.sign_off(run_id, "reject", "rita", "not yet")
    return db


def test_copy_of_the_example_store_into_postgresql_is_verified(example_store, pg_url):
    result = CliRunner().invoke(app, ["db", "copy", str(example_store), pg_url])
    assert result.exit_code == 0, result.output
    assert PASSWORD not in result.output and "***" in result.output
    print(result.output)
    with Store(example_store) as src, Store(pg_url) as dst:
        counts = table_counts(src)
        assert counts == table_counts(dst)
        assert counts["claims"] > 100 and counts["overrides"] == counts["signoffs"] == 1
        assert chain_digest(src) == chain_digest(dst)
        run_id = src.list_runs()[0].run_id
        assert dst.effective_report(run_id) == src.effective_report(run_id)
        assert dst.latest_signoff(run_id).decision == src.latest_signoff(run_id).decision
        # the copy goes on: a new override gets the next id, not a copied one
        item = dst.review_queue(run_id)[0]
        new = dst.add_override(run_id, item.claim.claim_id, comment="confirmed", reviewer="b")
        assert new.id == counts["overrides"] + 1


def test_copy_back_to_sqlite_and_into_a_non_empty_store_is_refused(example_store, pg_url, tmp_path):
    with Store(example_store) as src, Store(pg_url) as dst:
        copy_store(src, dst)
        with pytest.raises(StoreError, match="already holds data"):
            copy_store(src, dst)
        with Store(tmp_path / "back.db") as back:
            result = copy_store(dst, back)
            assert result.runs_verified == 1 and chain_digest(back) == chain_digest(src)


def test_a_copy_whose_report_was_altered_on_the_way_fails_verification(example_store, pg_url):
    raw = sqlite3.connect(example_store)
    raw.execute("UPDATE runs SET report = replace(report, 'SUPPORTED', 'CONTRADICTED')")
    raw.commit()
    raw.close()
    result = CliRunner().invoke(app, ["db", "copy", str(example_store), pg_url])
    assert result.exit_code == 4 and "ALTERED" in result.output


def test_db_upgrade_on_both_engines(store_url):
    result = CliRunner().invoke(app, ["db", "upgrade", "--db", store_url])
    assert result.exit_code == 0, result.output
    assert f"schema version {SCHEMA_VERSION}" in result.output and PASSWORD not in result.output


def test_ci_writes_a_run_to_the_team_store_and_every_command_reads_it(pg_url, tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["run", str(EXAMPLE_SUITE), "--db", pg_url, "-q"])
    assert result.exit_code == 1, result.output  # FAILED: the example has hallucinations
    assert "saved to postgresql://halgate_admin:***@127.0.0.1" in result.output
    listed = runner.invoke(app, ["runs", "--db", pg_url, "--json"], env={"HALGATE_DB": ""})
    assert listed.exit_code == 0 and '"status": "FAILED"' in listed.output
    shown = runner.invoke(app, ["show", "latest"], env={"HALGATE_DB": pg_url})
    assert shown.exit_code == 0 and "FAILED" in shown.output
    assert PASSWORD not in result.output + listed.output + shown.output
