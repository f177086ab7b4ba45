"""pytest fixtures for a real PostgreSQL: one server per test session, one fresh database
per test (``pg_url``), and ``store_url``: a store on each engine in turn (the same test,
the same assertions, on a SQLite file and on PostgreSQL)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .server import PgServer, start_server, why_no_server

REQUIRED = os.environ.get("HALGATE_REQUIRE_POSTGRES") == "1"
_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL server (skips with the reason where none can be had, unless
    HALGATE_REQUIRE_POSTGRES=1, where that fails)."""
    why = why_no_server()
    if why is not None:
        if REQUIRED:
            pytest.fail(f"HALGATE_REQUIRE_POSTGRES=1 but {why}")
        pytest.skip(f"PostgreSQL tests skipped: {why}")
    server = start_server()
    try:
        yield server
    finally:
        server.stop()


def fresh_database(server: PgServer) -> str:
    """Create an empty database on the server; its URL (with the password in it)."""
    import psycopg

    name = f"t{os.getpid()}_{next(_names)}"
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server.url(name)


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """URL of a fresh, empty database on the test server."""
    return fresh_database(pg_server)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "halgate.db")
    return fresh_database(request.getfixturevalue("pg_server"))


def raw_refusal(url: str, sql: str) -> str:
    """Run ``sql`` on the store with the engine's own driver (as someone bypassing halgate
    would) and return the database's refusal; fails the test if it was accepted."""
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            try:
                conn.execute(sql)
            except psycopg.Error as exc:
                return str(exc)
    else:
        import sqlite3

        conn2 = sqlite3.connect(url)
        try:
            conn2.execute(sql)
        except sqlite3.Error as exc:
            return str(exc)
        finally:
            conn2.close()
    pytest.fail(f"the database accepted {sql!r}")
