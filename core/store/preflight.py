"""Checks on a database path made before any work starts, so a run that cannot be saved
fails at once (exit 4) instead of after judging; nothing is created or changed here."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..database import DbTarget, PgDatabase, parse_target
from ..errors import StoreError, UsageError
from .schema import SCHEMA_VERSION, newer_schema_error


def writable_target(path: Path, option: str) -> None:
    """Raise UsageError unless a file could be created or replaced at ``path``.

    ``path`` must not be a directory, its nearest existing ancestor must be a writable
    directory (not a file), and an existing file must be writable.
    """
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory; give a file name")
    for parent in path.parents:
        if not parent.exists():
            continue
        if not parent.is_dir():
            raise UsageError(f"{option} {path}: {parent} is a file, not a folder")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise UsageError(f"{option} {path}: folder {parent} is read-only")
        break
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{option} {path}: read-only file")


def check_db_folder(path: Path | str, option: str = "--db") -> None:
    """Raise UsageError when the database's folder does not exist: SQLite creates the file,
    never its folder, so the run would be judged and then fail to save. (A PostgreSQL
    store is checked when it is opened.)"""
    target = parse_target(path)
    if target.path is None:
        return
    path = target.path
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(
            f"{option} {path}: folder {folder} does not exist; create it first "
            f"(mkdir -p {folder}) or give a path in an existing folder"
        )


def check_db_target(path: Path | str, option: str = "--db") -> None:
    """Raise unless a run can be saved in the database at ``path`` (without opening it for
    writing): a writable place, and an existing file must be a halgate database no newer
    than this halgate."""
    path = Path(path)
    writable_target(path, option)
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            found = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: cannot open the review database: {exc}") from None
    if found > SCHEMA_VERSION:
        raise newer_schema_error(found, str(path))


def _check_server(target: DbTarget) -> None:
    """Connect and compare schema versions (StoreError, password masked, if it fails)."""
    from .schema import check_version

    db = PgDatabase(target.url or "", timeout=10.0)
    try:
        check_version(db, target.display)
    finally:
        db.close()
