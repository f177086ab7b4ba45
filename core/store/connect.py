"""Open the review database: migrated for writing, or read-only when the disk is full.

A ``postgresql://`` target opens a ``PgDatabase`` instead, checked and migrated the same way
(``open_server``); the rest of this module is about SQLite files.

WAL mode must create its side files (``-wal``, ``-shm``) to open a database, so on a full
disk (or a read-only mount) every read command used to fail. When SQLite says the file
cannot be written, it is opened as it is (``mode=ro&immutable=1``: no side files, no
locks), for reading; a write on it is then a StoreError saying why. A database that still
needs a migration cannot be opened that way.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlite_utils import Database

from ..database import DbTarget, PgDatabase
from ..errors import StoreError
from .schema import check_current, check_version, migrate

# SQLite's words for a file it may read but not write (a lock past the busy timeout is not
# one: that file is opened normally by the next command).
CANNOT_WRITE = ("disk I/O error", "disk is full", "readonly", "unable to open database file")


def open_server(target: DbTarget, timeout: float) -> PgDatabase:
    """A migrated PostgreSQL store (never read-only: a server has no full-disk fallback)."""
    db = PgDatabase(target.url or "", timeout)
    try:
        check_version(db, target.display)
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def migrate_target(target: DbTarget) -> None:
    """Bring a database up to the schema and close it: what ``halgate.database`` runs before
    it hands the judges (cache, Batch API state) a connection to the store's tables."""
    if target.is_server:
        open_server(target, 30.0).close()
    elif target.path is not None:
        open_database(target.path, 30.0)[0].close()


def open_database(path: Path, timeout: float) -> tuple[Database, bool]:
    """(database, opened read-only); StoreError when it cannot be opened at all."""
    try:
        return _open(path, timeout, read_only=False), False
    except sqlite3.OperationalError as exc:
        if not path.is_file() or not any(w in str(exc) for w in CANNOT_WRITE):
            raise StoreError(f"{path}: cannot open the review database: {exc}") from None
        return _open(path, timeout, read_only=True), True


def _open(path: Path, timeout: float, read_only: bool) -> Database:
    """Connect, check the version, set WAL mode and migrate (read-only: check only)."""
    conn = None
    try:
        if read_only:
            uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
            conn = sqlite3.connect(uri, uri=True, timeout=timeout)
        else:
            conn = sqlite3.connect(str(path), timeout=timeout)
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        db = Database(conn, execute_plugins=False)
        check_version(db, str(path))  # before WAL mode rewrites the header
        if read_only:
            check_current(db, str(path))
            return db
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA recursive_triggers = ON")
        migrate(db)
        return db
    except sqlite3.OperationalError:
        if conn is not None:
            conn.close()
        if read_only:
            raise StoreError(f"{path}: cannot open the review database") from None
        raise
    except (sqlite3.DatabaseError, StoreError) as exc:
        if conn is not None:
            conn.close()
        if isinstance(exc, StoreError):
            raise
        raise StoreError(f"{path}: cannot open the review database: {exc}") from None
