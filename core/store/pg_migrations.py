"""Applying the store's named migrations to PostgreSQL (sqlite-utils applies them to SQLite).

The same migration functions, in the same order, recorded in a table of the same name and
columns (``_sqlite_migrations``: migration_set, name, applied_at), so one history serves
both engines and ``halgate db copy`` finds the same names on either side. Every pending
migration runs in one transaction (PostgreSQL's DDL is transactional: a failed upgrade
leaves nothing half done), after the writers' advisory lock, so concurrent openers queue and
the later ones find nothing pending.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

TABLE = "_sqlite_migrations"

_CREATE = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "migration_set TEXT NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL, "
    "UNIQUE (migration_set, name))"
)


def pg_applied(db: Any, migration_set: str) -> list[str]:
    """Names of the migrations applied, in the order they were."""
    if not db.table_exists(TABLE):
        return []
    rows = db.execute(
        f"SELECT name FROM {TABLE} WHERE migration_set = ? ORDER BY id", [migration_set]
    ).fetchall()
    return [str(r[0]) for r in rows]


def pg_migrate(
    db: Any, migration_set: str, steps: Sequence[tuple[str, Callable[[Any], None]]]
) -> None:
    """Apply the pending ``steps`` (name, function) in order, all in one transaction."""
    done = set(pg_applied(db, migration_set))
    if db.table_exists("runs") and all(name in done for name, _ in steps):
        return
    db.execute("BEGIN IMMEDIATE")  # BEGIN + the writers' advisory lock (PgDatabase)
    try:
        db.execute(_CREATE)
        done = set(pg_applied(db, migration_set))
        for name, fn in steps:
            if name in done:
                continue
            fn(db)
            db.execute(
                f"INSERT INTO {TABLE} (migration_set, name, applied_at) VALUES (?, ?, ?)",
                [migration_set, name, str(datetime.now(UTC))],
            )
        db.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise
