"""Connections for the code below the store (the LLM judge's cache, the Batch API's state).

Their tables belong to the store's schema (migration ``0009_judge_tables_owned_by_store``),
but the judges sit below the store in the layers and cannot import it. So the store hands
this module its migrator when it is imported (``own_schema``), and ``open_connection`` runs
it before giving a judge its connection: the judge finds its tables however new the
database, and never creates one itself.
"""

from __future__ import annotations

import importlib
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ..errors import StoreError
from .postgres import PgDatabase
from .targets import DbTarget, parse_target

_schema_owner: Callable[[DbTarget], None] | None = None


class Connection(Protocol):
    """What the judges call on a connection (sqlite3's calls; PgDatabase has them too)."""

    def execute(self, sql: str, params: Any = ..., /) -> Any: ...
    def executemany(self, sql: str, rows: Any, /) -> Any: ...
    def commit(self) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> Any: ...
    def __exit__(self, *exc: Any) -> Any: ...


def own_schema(migrator: Callable[[DbTarget], None]) -> None:
    """Called once by ``halgate.store``: how to bring any database up to the schema."""
    global _schema_owner
    _schema_owner = migrator


def _owner() -> Callable[[DbTarget], None]:
    """The store's migrator; the store is loaded here when nothing has loaded it yet (the
    package imports its parts on first use, so a judge's cache may come first)."""
    if _schema_owner is None:
        importlib.import_module("..store", __package__)  # registers itself (own_schema)
    if _schema_owner is None:  # pragma: no cover - the store registers when imported
        raise StoreError("the store's schema is not loaded (import halgate.store first)")
    return _schema_owner


def open_connection(target: str | Path | DbTarget, timeout: float = 30.0) -> Connection:
    """A connection to a migrated database: sqlite3 (WAL, busy timeout) or PostgreSQL."""
    where = parse_target(target)
    if where.path is not None:
        where.path.parent.mkdir(parents=True, exist_ok=True)
    _owner()(where)
    if where.is_server:
        return PgDatabase(where.url or "", timeout)
    assert where.path is not None
    conn = sqlite3.connect(where.path, timeout=timeout)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn
