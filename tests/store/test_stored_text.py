"""The stored report text is the canonical JSON its hash was taken of (issue #31 item 3), so a
read checks the hash on the text as stored; a run stored by an older halgate (the model's
own JSON, keys in field order) still reads as intact, and an edited one is still ALTERED."""

from __future__ import annotations

import json
import sqlite3

import pytest
from halgate.errors import RunAlteredError
from halgate.review.effective import stored_text_hash
from halgate.store import Store

from ..conftest import build_report


def _text(db, run_id: str) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT report FROM runs WHERE run_id = ?", [run_id]).fetchone()[0]


def _rewrite(db, run_id: str, text: str) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET report = ? WHERE run_id = ?", [text, run_id])


def test_the_stored_text_is_canonical_and_hashes_as_it_is(tmp_path):
    db = tmp_path / "h.db"
    with Store(db) as store:
        run_id = store.save_run(build_report())
        recorded = store.report_hash(run_id)
    text = _text(db, run_id)
    assert text == json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False)
    assert stored_text_hash(text) == recorded == stored_text_hash(text, recorded)


def test_a_run_stored_by_an_older_halgate_still_reads_as_intact(tmp_path):
    db = tmp_path / "old.db"
    with Store(db) as store:
        run_id = store.save_run(build_report())
        saved = store.load_report(run_id)
        recorded = store.report_hash(run_id)
    older = saved.model_copy(update={"audit_seed": None}).model_dump_json()  # field order
    assert older != json.dumps(json.loads(older), sort_keys=True, ensure_ascii=False)
    assert stored_text_hash(older, recorded) == recorded  # parsed and re-dumped: the same
    _rewrite(db, run_id, older)
    with Store(db) as store:
        assert store.load_report(run_id) == saved


def test_an_edited_text_is_altered_on_the_fast_path_too(tmp_path):
    db = tmp_path / "edit.db"
    with Store(db) as store:
        run_id = store.save_run(build_report())
    text = _text(db, run_id)
    _rewrite(db, run_id, text.replace('"CONTRADICTED"', '"SUPPORTED"'))
    with Store(db) as store, pytest.raises(RunAlteredError, match="ALTERED"):
        store.load_report(run_id)
