"""A URL's password is never printed, logged or stored; the app role on PostgreSQL cannot
change an append-only row even past the triggers."""

from __future__ import annotations

import logging

import psycopg
import pytest
from halgate.cli.app import app
from halgate.database import mask_text, parse_target
from halgate.errors import StoreError
from halgate.store import Store
from halgate.store.app_role import grant_app_role
from typer.testing import CliRunner

from ..conftest import build_report
from ..pg.fixtures import raw_refusal
from ..pg.server import PASSWORD


def test_mask_text_hides_every_password_form():
    text = (
        "postgresql://ana:pa%40ss@db.example:5432/halgate and "
        "postgres+psycopg://u:x@h/d?sslmode=require&password=qq"
    )
    masked = mask_text(text)
    assert "pa%40ss" not in masked and ":x@" not in masked and "qq" not in masked
    assert "postgresql://ana:***@db.example:5432/halgate" in masked
    assert str(parse_target("postgresql://ana:pw@h/d")) == "postgresql://ana:***@h/d"


def test_a_refused_login_names_the_server_without_the_password(pg_server, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    wrong = pg_server.url(password="Wr0ng-" + PASSWORD)
    with pytest.raises(StoreError) as raised:
        Store(wrong)
    assert "password authentication failed" in str(raised.value)
    assert "Wr0ng" not in str(raised.value) and "***" in str(raised.value)
    result = CliRunner().invoke(app, ["runs", "--db", wrong])
    assert result.exit_code == 4 and "Wr0ng" not in result.output and "***" in result.output
    out, err = capfd.readouterr()
    assert "Wr0ng" not in out + err + caplog.text


def test_the_password_is_stored_nowhere_in_the_database(pg_url):
    with Store(pg_url) as store:
        run_id = store.save_run(build_report())
        store.add_override(run_id, "q1/candidate/0", comment="ok", reviewer="a")
    dump = []
    with psycopg.connect(pg_url) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
        for (table,) in tables:
            dump += [str(r) for r in conn.execute(f"SELECT * FROM {table}").fetchall()]
    assert dump and not any(PASSWORD in row for row in dump)


def test_the_app_role_may_insert_but_never_update_or_delete_append_only_rows(pg_url):
    with Store(pg_url) as store:
        run_id = store.save_run(build_report())
        statements = grant_app_role(store, "halgate_app")
    revoke = next(s for s in statements if s.startswith("REVOKE UPDATE, DELETE, TRUNCATE ON "))
    frozen = set(revoke.split(" ON ", 1)[1].split(" FROM ")[0].split(", "))
    # every append-only table, the team-review ones included (found by their triggers)
    assert frozen == {
        "assignments",
        "audit_log",
        "overrides",
        "panel_labels",
        "role_grants",
        "signoffs",
    }
    with psycopg.connect(pg_url, autocommit=True) as admin:  # what an admin does once
        admin.execute("ALTER ROLE halgate_app LOGIN PASSWORD 'app-pw'")
    app_url = pg_url.replace(f"halgate_admin:{PASSWORD}", "halgate_app:app-pw")
    with Store(app_url) as store:  # the dashboard and CI connect as the app role
        store.add_override(
            run_id, "q1/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="a"
        )
        store.save_run(build_report(run_id="20260102T000000Z-bbbbbb"))
        assert len(store.list_runs()) == 2
    for sql in (
        "UPDATE overrides SET comment = 'x'",
        "DELETE FROM audit_log",
        "TRUNCATE signoffs",
        "DROP TRIGGER overrides_no_change ON overrides",
    ):
        refusal = raw_refusal(app_url, sql)
        assert "permission denied" in refusal or "must be owner" in refusal, refusal
    assert "append-only" in raw_refusal(pg_url, "DELETE FROM overrides")  # even the owner
