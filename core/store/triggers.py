"""Append-only tables on both engines, and the judges' tables the store owns.

``append_only(db, table)`` is the one way a migration makes a table append-only: UPDATE and
DELETE are refused by triggers (on PostgreSQL TRUNCATE too, by a plpgsql function), and on
SQLite an ``INSERT OR REPLACE`` reusing an existing id as well (PostgreSQL has no REPLACE;
its ``ON CONFLICT DO UPDATE`` fires the UPDATE trigger). The refusal's message is
"TABLE is append-only" on both. On PostgreSQL the app may also run as a role without UPDATE
or DELETE on these tables (``halgate db upgrade --app-role``, ``store.roles``).
"""

from __future__ import annotations

from typing import Any

#: The trigger function every append-only table of a PostgreSQL store calls.
PG_REFUSE = """
CREATE OR REPLACE FUNCTION halgate_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$
"""

#: The LLM judge's response cache and the Batch API's state (core/judges/llm/cache.py and
#: core/judges/llm_batch/jobs.py read and write them; they never create them).
JUDGE_TABLES = (
    """
    CREATE TABLE IF NOT EXISTS judge_cache (
        key TEXT PRIMARY KEY, prompt_version TEXT, model TEXT, response TEXT,
        usage TEXT, created_at TEXT
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS llm_batches (
        batch_id TEXT PRIMARY KEY, input_file_id TEXT, state TEXT NOT NULL, status TEXT,
        model TEXT, base_url TEXT, n_requests INTEGER, counts TEXT, run TEXT, error TEXT,
        created_at TEXT, updated_at TEXT
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS llm_batch_lines (
        batch_id TEXT NOT NULL, key TEXT NOT NULL, response TEXT, error TEXT, usage TEXT,
        PRIMARY KEY (batch_id, key)
    )
    """,
)


def is_postgres(db: Any) -> bool:
    """True for a PgDatabase (a sqlite_utils.Database has no ``engine`` attribute)."""
    return getattr(db, "engine", "sqlite") == "postgresql"


def append_only(db: Any, table: str, replace: bool = True) -> None:
    """Refuse UPDATE and DELETE on ``table`` (and a REPLACE of an existing id, unless
    ``replace`` is False: migration 0002 made those two, 0004 the third)."""
    if is_postgres(db):
        db.execute(PG_REFUSE)
        db.execute(
            f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION halgate_append_only()"
        )
        db.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION halgate_append_only()"
        )
        return
    for op in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
        )
    if replace:
        no_replace(db, table)


def no_replace(db: Any, table: str) -> None:
    """SQLite: an ``INSERT OR REPLACE`` may not overwrite a row (REPLACE deletes without
    firing the delete trigger unless ``recursive_triggers`` is on). Nothing on PostgreSQL."""
    if is_postgres(db):
        return
    db.execute(
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_replace BEFORE INSERT ON {table} "
        f"WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM {table} WHERE id = NEW.id) "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
    )
