"""``halgate db copy SRC DST``: move a store to another database (SQLite to PostgreSQL, or
back), verified.

Every table of the schema is copied row for row, ids included, into a destination that is
migrated to the same schema and holds no run yet, in one transaction. Then both sides are
compared: the row count of every table, and the tamper-evidence chain, a sha256 over every
row of each append-only table (overrides, sign-offs, audit log) in id order and over every
run's report hash; and every copied run is read back through ``Store.load_report``, which
checks its report against the hashes recorded in the runs table, the audit log and its
sign-offs. Any difference is a StoreError; nothing is left half copied.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ..errors import StoreError
from .rows import insert_rows
from .store import Store
from .triggers import is_postgres

#: Copied first, in this order (a claim's run comes first); any other table of the schema
#: (a later migration's) follows, by name. The migrations table is not copied: the
#: destination records its own, and ``copy_store`` checks both are at the same version.
TABLES = (
    "runs",
    "claims",
    "run_summaries",
    "run_overviews",
    "overrides",
    "signoffs",
    "audit_log",
    "judge_cache",
    "llm_batches",
    "llm_batch_lines",
)
_KEYS = {
    "runs": "run_id",
    "claims": "run_id, claim_id",
    "run_summaries": "run_id",
    "run_overviews": "run_id",
}
_BATCH = 1000


@dataclass
class CopyResult:
    """What was copied and the figures both sides agreed on."""

    rows: dict[str, int] = field(default_factory=dict)
    chain: str = ""
    runs_verified: int = 0


_SQLITE_TABLES = (
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
    "AND name != '_sqlite_migrations'"
)
_PG_TABLES = (
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
    "AND table_type = 'BASE TABLE' AND table_name != '_sqlite_migrations'"
)
#: The append-only tables: those ``triggers.append_only`` gave its trigger.
_SQLITE_CHAINED = (
    "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_no_update'"
)
_PG_CHAINED = (
    "SELECT DISTINCT event_object_table FROM information_schema.triggers "
    "WHERE trigger_name LIKE '%_no_change' AND trigger_schema = current_schema()"
)


def tables(store: Store) -> list[str]:
    """Every table of the schema, in copy order."""
    found = {
        r[0] for r in store.db.execute(_PG_TABLES if is_postgres(store.db) else _SQLITE_TABLES)
    }
    return [t for t in TABLES if t in found] + sorted(found - set(TABLES))


def chained(store: Store) -> list[str]:
    """The append-only tables (overrides, sign-offs, audit log, and any a later migration
    made append-only), by name."""
    sql = _PG_CHAINED if is_postgres(store.db) else _SQLITE_CHAINED
    return sorted({str(r[0]) for r in store.db.execute(sql)})


def _order(store: Store, table: str) -> str:
    return _KEYS.get(table) or ("id" if "id" in _columns(store, table) else "1")


def _columns(store: Store, table: str) -> list[str]:
    cur = store.db.execute(f"SELECT * FROM {table} LIMIT 0")
    return [d[0] for d in cur.description]


def _rows(store: Store, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
    sql = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {_order(store, table)}"
    return [tuple(r) for r in store.db.execute(sql).fetchall()]


def table_counts(store: Store) -> dict[str, int]:
    """Rows in every copied table."""
    return {
        t: int(store.db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in tables(store)
    }


def chain_digest(store: Store) -> str:
    """sha256 over the append-only tables' rows (id order) and every run's report hash."""
    h = hashlib.sha256()
    for table in chained(store):
        cols = sorted(_columns(store, table))
        for row in _rows(store, table, cols):
            h.update(json.dumps([table, *row], default=str).encode())
    for run_id, digest in store.db.execute(
        "SELECT run_id, report_hash FROM runs ORDER BY run_id"
    ).fetchall():
        h.update(json.dumps(["runs", run_id, digest]).encode())
    return h.hexdigest()


def copy_store(src: Store, dst: Store) -> CopyResult:
    """Copy every table of ``src`` into the empty ``dst`` and verify the copy."""
    if any(table_counts(dst).values()):
        raise StoreError(f"{dst.where}: the destination already holds data; copy into an empty one")
    if src.schema_version != dst.schema_version:
        raise StoreError(
            f"schema versions differ ({src.schema_version} vs {dst.schema_version}): "
            "run `halgate db upgrade` on the older one first"
        )
    with dst._write():
        for table in tables(src):
            cols = _columns(src, table)
            rows = _rows(src, table, cols)
            for i in range(0, len(rows), _BATCH):
                chunk = [dict(zip(cols, r, strict=True)) for r in rows[i : i + _BATCH]]
                insert_rows(dst.db, table, chunk)
        if is_postgres(dst.db):
            for table in _with_ids(dst):  # the next id continues after the copied ones
                dst.db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)"
                )
    return verify_copy(src, dst)


def verify_copy(src: Store, dst: Store) -> CopyResult:
    """Compare counts and the chain; read every run back through its integrity check."""
    counts, copied = table_counts(src), table_counts(dst)
    if counts != copied:
        diff = {t: (counts.get(t), copied.get(t)) for t in counts.keys() | copied.keys()}
        diff = {t: pair for t, pair in diff.items() if pair[0] != pair[1]}
        raise StoreError(f"copy differs in row counts (source, destination): {diff}")
    chain = chain_digest(src)
    if chain_digest(dst) != chain:
        raise StoreError("copy differs: the tamper-evidence chain does not match the source's")
    run_ids = [r[0] for r in dst.db.execute("SELECT run_id FROM runs").fetchall()]
    for run_id in run_ids:
        dst.load_report(run_id)  # RunAlteredError if any recorded hash disagrees
    return CopyResult(rows=copied, chain=chain, runs_verified=len(run_ids))


def _with_ids(store: Store) -> list[str]:
    """PostgreSQL tables with an identity ``id`` column (their sequence must move on)."""
    rows = store.db.execute(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND column_name = 'id' AND is_identity = 'YES'"
    ).fetchall()
    return [str(r[0]) for r in rows]
