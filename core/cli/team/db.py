"""`halgate db`: upgrade a review database's schema; copy a store to another database.

``halgate db upgrade`` applies the pending migrations (what opening a store does anyway),
and on PostgreSQL with ``--app-role NAME`` grants the role the dashboard and CI connect as
(no UPDATE or DELETE on the append-only tables). ``halgate db copy SRC DST`` copies every
table, ids included, into an empty database and verifies the copy (row counts, the
tamper-evidence chain, every run's recorded hashes). A URL's password is never printed.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ...database import parse_target
from ...errors import HalgateError
from ..app import app, fail, out
from ..store_commands import DEFAULT_DB, store_at

db_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Upgrade a review database's schema (and grant PostgreSQL's app role); copy a store "
    "into another database, verified.",
)
app.add_typer(db_app, name="db", short_help="Upgrade or copy a review database.")

_TARGET = (
    "a SQLite file (a path or sqlite:///PATH) or a PostgreSQL store "
    "(postgresql://USER:PASSWORD@HOST/DB; the password is never printed)"
)


@db_app.command("upgrade", short_help="Apply pending migrations; grant the app role.")
def upgrade(
    db: Annotated[
        str,
        typer.Option(
            "--db",
            envvar="HALGATE_DB",
            help=f"Review database to upgrade: {_TARGET}. Default: $HALGATE_DB, else ./halgate.db.",
        ),
    ] = DEFAULT_DB,
    app_role: Annotated[
        str | None,
        typer.Option(
            "--app-role",
            help="PostgreSQL only: create (NOLOGIN) or update this role and grant it what "
            "halgate needs, with no UPDATE, DELETE or TRUNCATE on overrides, sign-offs and "
            "the audit log. Run as the tables' owner, after every upgrade.",
        ),
    ] = None,
) -> None:
    """Bring the schema up to date (both engines), then grant the app role if asked."""
    from ...store.app_role import grant_app_role

    with store_at(db, create=True) as store:
        version = store.schema_version
        try:
            granted = grant_app_role(store, app_role) if app_role else []
        except HalgateError as exc:
            raise fail(exc) from None
    out.print(f"{parse_target(db)}: schema version {version} (up to date)", markup=False)
    for statement in granted:
        out.print(f"  {statement}", markup=False)


@db_app.command("copy", short_help="Copy a store into an empty database, verified.")
def copy(
    src: Annotated[str, typer.Argument(help=f"Store to copy from: {_TARGET}.")],
    dst: Annotated[str, typer.Argument(help=f"Empty database to copy into: {_TARGET}.")],
) -> None:
    """Copy every table (ids included) and verify: row counts, tamper-evidence chain, runs."""
    from ...store.copy import copy_store

    with store_at(src) as source, store_at(dst, create=True) as dest:
        try:
            result = copy_store(source, dest)
        except HalgateError as exc:
            raise fail(exc) from None
    out.print(f"copied {parse_target(src)} -> {parse_target(dst)}", markup=False)
    for table, n in result.rows.items():
        out.print(f"  {table:<16} {n:>8} rows (equal on both sides)", markup=False)
    out.print(
        f"  tamper-evidence chain sha256 {result.chain[:16]}… equal; "
        f"{result.runs_verified} run(s) verified against their recorded hashes",
        markup=False,
    )
