"""#12 E: a report or database from a newer halgate is refused, naming both versions."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest
from halgate.errors import ReportError, StoreError
from halgate.models import SCHEMA_VERSION
from halgate.reports.json_report import parse_report
from halgate.store import SCHEMA_VERSION as DB_VERSION
from halgate.store import Store

from ..conftest import build_report


def test_a_report_with_a_newer_schema_version_is_refused_naming_both():
    data = json.loads(build_report().model_dump_json())
    data["schema_version"] = "99.0"
    with pytest.raises(ReportError, match=rf"99\.0.*{SCHEMA_VERSION}"):
        parse_report(json.dumps(data), "new.json")
    data["schema_version"] = "banana"
    with pytest.raises(ReportError, match="schema_version"):
        parse_report(json.dumps(data), "odd.json")


@pytest.mark.parametrize("with_tables", [True, False])
def test_a_database_with_a_newer_user_version_is_refused_untouched(store_db, with_tables):
    if with_tables:
        with Store(store_db):
            pass
    raw = sqlite3.connect(store_db)
    raw.execute("PRAGMA journal_mode = DELETE")
    raw.execute("PRAGMA user_version = 99")
    raw.close()
    digest = hashlib.sha256(store_db.read_bytes()).hexdigest()
    with pytest.raises(StoreError, match=rf"99.*{DB_VERSION}|{DB_VERSION}.*99"):
        Store(store_db)
    assert hashlib.sha256(store_db.read_bytes()).hexdigest() == digest
    raw = sqlite3.connect(store_db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 99
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    raw.close()
