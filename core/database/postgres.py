"""A PostgreSQL connection that speaks the few calls the store makes of sqlite-utils.

The store runs plain SQL text (SQLite's spelling) through ``execute`` / ``query``;
``dialect.to_postgres`` adapts it. The connection is in autocommit mode, like sqlite3's
between transactions, and the store brackets its writes with ``BEGIN IMMEDIATE`` … ``COMMIT``:
here ``BEGIN IMMEDIATE`` is ``BEGIN`` plus a transaction-scoped advisory lock, so writers
queue one after another exactly as they do on a SQLite file (no lost or doubled row, no
deadlock), while readers never wait. Every driver error becomes a ``StoreError`` whose text
has the URL's password masked.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..errors import StoreError
from .dialect import to_postgres
from .targets import mask_text

#: The advisory lock every halgate writer takes (any constant: "halgate" in ASCII).
WRITE_LOCK = 0x68616C67617465


class EmptyCursor:
    """The result of a statement that does nothing on PostgreSQL (a SQLite PRAGMA)."""

    rowcount = 0

    def fetchone(self) -> None:
        return None

    def fetchall(self) -> list[Any]:
        return []

    def __iter__(self) -> Iterator[Any]:
        return iter(())


class PgDatabase:
    """One psycopg connection to a halgate store on PostgreSQL (one thread or process)."""

    engine = "postgresql"

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        import psycopg  # only a PostgreSQL store needs the driver

        self._psycopg = psycopg
        self.where = mask_text(url)
        try:
            self.conn = psycopg.connect(
                url,
                autocommit=True,
                connect_timeout=max(1, int(timeout)),
                application_name="halgate",
            )
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: cannot connect: {_plain(exc)}") from None
        self._statement_timeout(timeout)

    def _statement_timeout(self, timeout: float) -> None:
        # Like SQLite's busy timeout: a writer waits this long for the lock, then fails.
        self.conn.execute(f"SET lock_timeout = {int(timeout * 1000)}")

    # ------------------------------------------------------------------ sqlite-utils' calls

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> Any:
        """Run one statement; returns a cursor (fetchone, fetchall, iteration)."""
        if sql.strip().upper() == "BEGIN IMMEDIATE":
            self._run("BEGIN", None)
            return self._run("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK])
        adapted = to_postgres(sql)
        if adapted is None:
            return EmptyCursor()
        return self._run(adapted, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One statement for many parameter rows (pipelined by psycopg)."""
        adapted = to_postgres(sql)
        if adapted is None:
            return
        try:
            with self.conn.cursor() as cur:
                cur.executemany(adapted, [_values(r) for r in rows])
        except self._psycopg.Error as exc:
            raise self._error(exc) from None

    def query(self, sql: str, params: Sequence[Any] | None = None) -> Iterator[dict[str, Any]]:
        """Rows as dicts, like ``sqlite_utils.Database.query``."""
        cur = self.execute(sql, params)
        if cur.description is None:
            return iter(())
        names = [d.name for d in cur.description]
        return (dict(zip(names, row, strict=True)) for row in cur.fetchall())

    def rollback(self) -> None:
        """Abandon the open transaction, if any."""
        try:
            self.conn.execute("ROLLBACK")
        except self._psycopg.Error:
            pass  # nothing open, or the connection is gone: either way nothing was kept

    def commit(self) -> None:
        """Nothing to do in autocommit mode outside ``BEGIN`` (sqlite3's ``commit`` on a
        connection with no open transaction does nothing either)."""

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> PgDatabase:
        self.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.execute("COMMIT")
        else:
            self.rollback()

    def table_exists(self, name: str) -> bool:
        """True when the table is in the connection's schema search path."""
        row = self.execute("SELECT to_regclass(?) IS NOT NULL", [name]).fetchone()
        return bool(row and row[0])

    # ------------------------------------------------------------------ internals

    def _run(self, sql: str, params: Sequence[Any] | None) -> Any:
        try:
            return self.conn.execute(sql, _values(params or []))
        except self._psycopg.Error as exc:
            raise self._error(exc) from None

    def _error(self, exc: Exception) -> StoreError:
        return StoreError(f"{self.where}: {_plain(exc)}")


def _values(params: Sequence[Any]) -> list[Any]:
    """Parameters as SQLite stores them: a bool is the integer 0 or 1 (the schema's
    INTEGER flags), so the same statement runs on both engines."""
    return [int(p) if isinstance(p, bool) else p for p in params]


def _plain(exc: Exception) -> str:
    """The driver's message on one line, any credential in it masked."""
    return mask_text(" ".join(str(exc).split()))
