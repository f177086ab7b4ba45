"""The database role a team's halgate runs as on PostgreSQL: no UPDATE, DELETE or TRUNCATE
on the append-only tables, whatever a trigger says.

The triggers refuse changes to overrides, sign-offs and the audit log for everyone, but the
owner of a table may drop a trigger. So the dashboard and CI connect as a role that owns
nothing: ``grant_app_role`` (run by ``halgate db upgrade --app-role NAME`` as the owner,
after the migrations) gives it SELECT and INSERT on every append-only table (found by its
``*_no_change`` trigger, so tables later migrations make append-only are covered too), and
SELECT, INSERT, UPDATE, DELETE on the others. It creates the role (NOLOGIN until an admin
gives it a password: halgate never handles one) when it does not exist. Re-run it after
every upgrade: new tables need their grants.
"""

from __future__ import annotations

import re

from ..errors import UsageError
from .store import Store
from .triggers import is_postgres

_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def append_only_tables(store: Store) -> list[str]:
    """Tables whose rows may never change (they carry the append-only trigger)."""
    rows = store.db.execute(
        "SELECT DISTINCT event_object_table FROM information_schema.triggers "
        "WHERE trigger_name LIKE '%\\_no\\_change' AND trigger_schema = current_schema() "
        "ORDER BY 1"
    ).fetchall()
    return [str(r[0]) for r in rows]


def _tables(store: Store) -> list[str]:
    rows = store.db.execute(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1"
    ).fetchall()
    return [str(r[0]) for r in rows]


def grant_app_role(store: Store, role: str) -> list[str]:
    """Create (if needed) and grant the app role; returns the statements run."""
    if not is_postgres(store.db):
        raise UsageError("--app-role is for a PostgreSQL store (a SQLite file has no roles)")
    if not _NAME.match(role):
        raise UsageError(f"--app-role {role!r}: use lower-case letters, digits and _")
    frozen = append_only_tables(store)
    others = [t for t in _tables(store) if t not in frozen]
    exists = store.db.execute("SELECT 1 FROM pg_roles WHERE rolname = ?", [role]).fetchone()
    sql = [] if exists else [f"CREATE ROLE {role} NOLOGIN"]
    sql += [
        f"GRANT USAGE ON SCHEMA {_schema(store)} TO {role}",
        f"GRANT SELECT, INSERT ON {', '.join(frozen)} TO {role}",
        f"REVOKE UPDATE, DELETE, TRUNCATE ON {', '.join(frozen)} FROM {role}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {', '.join(others)} TO {role}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {_schema(store)} TO {role}",
    ]
    with store._write():
        for statement in sql:
            store.db.execute(statement)
    return sql


def _schema(store: Store) -> str:
    return str(store.db.execute("SELECT current_schema()").fetchone()[0])
