"""The database schema as numbered migrations, applied when a store is opened.

One migration history for both engines. Each migration is a named function in one
``sqlite_utils.migrations.Migrations`` set, written in the SQL both engines share (SQLite's
spelling; ``halgate.database.dialect`` adapts it for PostgreSQL) and called with either a
``sqlite_utils.Database`` or a ``PgDatabase``. The applied names are recorded in
``_sqlite_migrations`` on both (sqlite-utils applies them on SQLite, ``pg_migrations`` on
PostgreSQL); on SQLite the count is also written to ``PRAGMA user_version`` so any SQLite tool
can see the schema version. Append-only tables get their triggers from ``append_only``.
Never edit a released migration: add the next one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from ..database import PgDatabase
from ..errors import StoreError
from ..review.audit import draw_audit_seed
from .pg_migrations import pg_applied, pg_migrate
from .triggers import JUDGE_TABLES, append_only, no_replace

AnyDatabase = Database | PgDatabase
MigrationFn = Callable[[AnyDatabase], None]
migrations = Migrations("halgate")
_NAMES: list[str] = []
_STEPS: list[tuple[str, MigrationFn]] = []


def _migration(name: str) -> Callable[[MigrationFn], MigrationFn]:
    """Register a migration under ``name``, remembering the order for version numbers."""
    _NAMES.append(name)

    def register(fn: MigrationFn) -> MigrationFn:
        _STEPS.append((name, fn))
        return migrations(name=name)(fn)

    return register


_V1 = """
CREATE TABLE runs (
    run_id TEXT PRIMARY KEY, created_at TEXT, saved_at TEXT, mode TEXT,
    suite_name TEXT, suite_hash TEXT, judge_id TEXT, prompt_version TEXT,
    gated_system TEXT, policy TEXT, status TEXT, exit_code INTEGER,
    timings TEXT, report TEXT, report_hash TEXT
);
CREATE TABLE claims (
    run_id TEXT NOT NULL REFERENCES runs(run_id), claim_id TEXT NOT NULL,
    case_id TEXT, system TEXT, idx INTEGER, verdict TEXT, hallucination_type TEXT,
    severity TEXT, text TEXT, span_start INTEGER, span_end INTEGER, rationale TEXT,
    citations TEXT, score REAL,
    PRIMARY KEY (run_id, claim_id)
);
CREATE TABLE overrides (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, claim_id TEXT NOT NULL,
    verdict TEXT, hallucination_type TEXT, severity TEXT, comment TEXT NOT NULL,
    reviewer TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE signoffs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, decision TEXT NOT NULL,
    reviewer TEXT NOT NULL, comment TEXT NOT NULL, created_at TEXT NOT NULL,
    decision_status TEXT NOT NULL, inputs_hash TEXT NOT NULL
);
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, actor TEXT NOT NULL,
    action TEXT NOT NULL, run_id TEXT, detail TEXT
);
"""

# The LLM judge (core/judge_cache.py) creates the same table with IF NOT EXISTS; the
# columns must stay identical to its definition.
_JUDGE_CACHE = """
CREATE TABLE IF NOT EXISTS judge_cache (
    key TEXT PRIMARY KEY, prompt_version TEXT, model TEXT, response TEXT,
    usage TEXT, created_at TEXT
)
"""

APPEND_ONLY = ("overrides", "signoffs", "audit_log")


def _script(db: AnyDatabase, sql: str) -> None:
    # executescript() would COMMIT the surrounding migration transaction; run one by one.
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


@_migration("0001_initial")
def m0001_initial(db: AnyDatabase) -> None:
    """Runs, their claims, overrides, sign-offs and the audit log."""
    _script(db, _V1)
    db.execute("PRAGMA user_version = 1")


@_migration("0002_cache_summary_append_only")
def m0002_cache_summary_append_only(db: AnyDatabase) -> None:
    """Judge cache, cached effective summary per run, indexes, append-only triggers."""
    db.execute(_JUDGE_CACHE)
    for column in ("effective TEXT", "agreement TEXT", "summary_upto INTEGER"):
        db.execute(f"ALTER TABLE runs ADD COLUMN {column}")
    db.execute("CREATE INDEX IF NOT EXISTS overrides_run_claim ON overrides(run_id, claim_id)")
    db.execute("CREATE INDEX IF NOT EXISTS signoffs_run ON signoffs(run_id)")
    db.execute("CREATE INDEX IF NOT EXISTS audit_log_run ON audit_log(run_id)")
    for table in APPEND_ONLY:
        append_only(db, table, replace=False)  # 0004 added the guard against REPLACE
    db.execute("PRAGMA user_version = 2")


@_migration("0003_run_summaries_table")
def m0003_run_summaries_table(db: AnyDatabase) -> None:
    """The cached run-list summary moves out of ``runs`` into its own small table.

    ``runs`` holds each report's full JSON (100 MB for 10,000 cases); SQLite rewrites a whole
    row on UPDATE and reads it on ``SELECT *``, so keeping the summary there made every
    review and every run listing copy the report.
    """
    db.execute(
        "CREATE TABLE run_summaries (run_id TEXT PRIMARY KEY REFERENCES runs(run_id), "
        "effective TEXT, agreement TEXT, summary_upto INTEGER)"
    )
    db.execute(
        "INSERT INTO run_summaries (run_id, effective, agreement, summary_upto) "
        "SELECT run_id, effective, agreement, summary_upto FROM runs "
        "WHERE summary_upto IS NOT NULL"
    )
    for column in ("effective", "agreement", "summary_upto"):
        db.execute(f"ALTER TABLE runs DROP COLUMN {column}")
    db.execute("PRAGMA user_version = 3")


@_migration("0004_append_only_against_replace")
def m0004_append_only_against_replace(db: AnyDatabase) -> None:
    """``INSERT OR REPLACE`` may not overwrite an override, sign-off or audit entry.

    REPLACE deletes the conflicting row without firing the delete triggers (unless
    ``PRAGMA recursive_triggers`` is on, per connection), so an insert that reuses an
    existing id is refused before SQLite resolves the conflict, whatever the pragma says.
    """
    for table in APPEND_ONLY:
        no_replace(db, table)
    db.execute("PRAGMA user_version = 4")


@_migration("0005_pair_preference_signoff_override_gate")
def m0005_pair_preference_signoff_override_gate(db: AnyDatabase) -> None:
    """An override records a pairwise decision (A, B or TIE); a sign-off records whether it
    approved a decision other than PASSED on an explicit acknowledgement."""
    db.execute("ALTER TABLE overrides ADD COLUMN preference TEXT")
    db.execute("ALTER TABLE signoffs ADD COLUMN override_gate INTEGER NOT NULL DEFAULT 0")
    db.execute("PRAGMA user_version = 5")


@_migration("0006_audit_label")
def m0006_audit_label(db: AnyDatabase) -> None:
    """An override records a reviewer's label of a whole answer of the audit sample
    (``audit:CASE:SYSTEM``): HALLUCINATED or FAITHFUL."""
    db.execute("ALTER TABLE overrides ADD COLUMN label TEXT")
    db.execute("PRAGMA user_version = 6")


@_migration("0007_audit_seed")
def m0007_audit_seed(db: AnyDatabase) -> None:
    """The store draws each run's audit-sample seed when it saves or imports the run; runs
    saved before get theirs drawn here, each recorded in the audit log."""
    db.execute("ALTER TABLE runs ADD COLUMN audit_seed INTEGER")
    for (run_id,) in db.execute("SELECT run_id FROM runs").fetchall():
        seed = draw_audit_seed()
        db.execute("UPDATE runs SET audit_seed = ? WHERE run_id = ?", [seed, run_id])
        db.execute(
            "INSERT INTO audit_log (at, actor, action, run_id, detail) VALUES (?, ?, ?, ?, ?)",
            [
                datetime.now(UTC).isoformat(timespec="milliseconds"),
                "halgate-migration",
                "draw_audit_seed",
                run_id,
                json.dumps({"audit_seed": seed}),
            ],
        )
    db.execute("PRAGMA user_version = 7")


@_migration("0008_signoff_report_hash")
def m0008_signoff_report_hash(db: AnyDatabase) -> None:
    """A sign-off records the hash of the report it approved, so a report rewritten after
    the sign-off is found altered on every read (``store.integrity``)."""
    db.execute("ALTER TABLE signoffs ADD COLUMN report_hash TEXT")
    db.execute("PRAGMA user_version = 8")


@_migration("0009_judge_tables_owned_by_store")
def m0009_judge_tables_owned_by_store(db: AnyDatabase) -> None:
    """The LLM judge's cache and the Batch API's state are the store's tables: created here
    (judge code used to create them itself, with IF NOT EXISTS, so a SQLite store may
    already hold them, unchanged), on PostgreSQL as on SQLite."""
    for sql in JUDGE_TABLES:
        db.execute(sql)
    db.execute("PRAGMA user_version = 9")


def _version_of(name: str) -> str:
    """``PRAGMA user_version`` after migration ``name``: its place in the history."""
    return f"PRAGMA user_version = {_NAMES.index(name) + 1}"


_ROLES = """
CREATE TABLE role_grants (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, actor TEXT NOT NULL,
    action TEXT NOT NULL, principal TEXT NOT NULL, role TEXT NOT NULL
);
CREATE INDEX role_grants_principal ON role_grants(principal)
"""


@_migration("0010_roles")
def m0010_roles(db: AnyDatabase) -> None:
    """Roles granted and revoked with ``halgate roles``: an append-only history."""
    _script(db, _ROLES)
    append_only(db, "role_grants")
    db.execute(_version_of("0010_roles"))


_PANELS = """
CREATE TABLE panel_labels (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, item_id TEXT NOT NULL,
    reviewer TEXT NOT NULL, label TEXT NOT NULL, comment TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX panel_labels_once ON panel_labels(run_id, item_id, reviewer);
CREATE TABLE assignments (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, item_id TEXT NOT NULL,
    reviewer TEXT NOT NULL, how TEXT NOT NULL, assigned_by TEXT NOT NULL, at TEXT NOT NULL
);
CREATE UNIQUE INDEX assignments_once ON assignments(run_id, item_id, reviewer)
"""


@_migration("0011_review_panels")
def m0011_review_panels(db: AnyDatabase) -> None:
    """Review panels: each reviewer's blind label of a queue item (one each) and who is
    assigned which item; both append-only."""
    _script(db, _PANELS)
    for table in ("panel_labels", "assignments"):
        append_only(db, table)
    db.execute(_version_of("0011_review_panels"))


@_migration("0012_run_overviews")
def m0012_run_overviews(db: AnyDatabase) -> None:
    """Each run's overview (``halgate.review.RunOverview``), the newest one derived: what
    the dashboard's Overview draws, kept so opening a large run reads kilobytes instead of
    parsing its whole report. A cache, derived again when missing or stale (older runs get
    theirs the first time they are opened or listed), with a copy of the run's recorded
    report hash (``Store.report_hash`` reads it there: in ``runs`` it follows the report)."""
    db.execute(
        "CREATE TABLE run_overviews (run_id TEXT PRIMARY KEY REFERENCES runs(run_id), "
        "upto INTEGER NOT NULL, version INTEGER NOT NULL, overview TEXT NOT NULL, "
        "report_hash TEXT)"
    )
    db.execute(_version_of("0012_run_overviews"))


SCHEMA_VERSION = len(_NAMES)


def newer_schema_error(found: int, where: str) -> StoreError:
    """The error for a database written by a newer halgate (names both versions)."""
    return StoreError(
        f"{where}: database schema version {found} is newer than this halgate's "
        f"{SCHEMA_VERSION}; upgrade halgate (nothing was changed)"
    )


def check_version(db: AnyDatabase, where: str) -> None:
    """Refuse, before anything is written, a database whose schema is ahead of us (SQLite:
    the file's ``user_version``; PostgreSQL: the migrations recorded)."""
    if isinstance(db, PgDatabase):
        found = len(pg_applied(db, migrations.name))
    else:
        found = db.execute("PRAGMA user_version").fetchone()[0]
    if found > SCHEMA_VERSION:
        raise newer_schema_error(found, where)


def check_current(db: Database, where: str) -> None:
    """Refuse a database opened read-only that still needs migrations (none can run)."""
    if not db["runs"].exists() or migrations.pending(db):
        raise StoreError(
            f"{where}: the database cannot be written (full disk or read-only) and needs "
            "upgrading first; free some space and run the command again"
        )


def schema_version(db: AnyDatabase) -> int:
    """Number of halgate migrations applied to this database."""
    if isinstance(db, PgDatabase):
        return len(pg_applied(db, migrations.name))
    return len(migrations.applied(db))


def _adopt_unrecorded(db: Database) -> None:
    """Record migrations of a database built without the migrations table.

    A database made by hand (or by an older tool) that carries ``PRAGMA user_version = N``
    and the ``runs`` table is taken to be at schema version N.
    """
    if migrations.applied(db) or not db["runs"].exists():
        return
    version = db.execute("PRAGMA user_version").fetchone()[0]
    migrations.ensure_migrations_table(db)
    at = datetime.now(UTC).isoformat()
    db.table(migrations.migrations_table).insert_all(
        {"migration_set": migrations.name, "name": name, "applied_at": at}
        for name in _NAMES[:version]
    )


def applied_names(db: AnyDatabase) -> list[str]:
    """The names of the migrations applied to this database, in order."""
    if isinstance(db, PgDatabase):
        return pg_applied(db, migrations.name)
    return [m.name for m in migrations.applied(db)]


def migrate(db: AnyDatabase) -> None:
    """Bring the schema up to date; safe when several processes open a new file at once."""
    known = set(_NAMES)
    unknown = [name for name in applied_names(db) if name not in known]
    if unknown:
        raise StoreError(
            f"database schema is newer than this halgate (unknown migrations: "
            f"{', '.join(unknown)}); upgrade halgate"
        )
    if isinstance(db, PgDatabase):
        pg_migrate(db, migrations.name, _STEPS)
        return
    if db["runs"].exists() and not migrations.pending(db):
        return
    # IMMEDIATE takes the write lock first, so concurrent openers queue here (busy timeout)
    # and the loser finds nothing pending instead of racing on CREATE TABLE.
    db.execute("BEGIN IMMEDIATE")
    try:
        _adopt_unrecorded(db)
        migrations.apply(db)
        db.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise
