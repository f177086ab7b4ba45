"""#12: a document above the size limit and a suite above the case limit are refused by
load_suite with the file, the line and the limit named (exit 4 from the CLI)."""

from __future__ import annotations

import inspect

import halgate.cli  # noqa: F401  (registers the commands)
import pytest
from halgate.cli.app import app
from halgate.errors import SuiteError
from halgate.inputs import suite as suite_module
from halgate.inputs.suite import load_suite
from typer.testing import CliRunner

from ..conftest import TINY_ANSWERS, TINY_CASES, TINY_DOCS, write_jsonl


def test_the_default_limits_are_the_documented_ones():
    assert suite_module.MAX_DOCUMENT_BYTES == 5_000_000
    assert suite_module.MAX_CASES == 100_000
    params = inspect.signature(load_suite).parameters
    assert params["max_document_bytes"].default == suite_module.MAX_DOCUMENT_BYTES
    assert params["max_cases"].default == suite_module.MAX_CASES


def test_a_document_record_above_the_limit_is_refused_naming_file_and_line(tiny_suite):
    docs = [*TINY_DOCS, {"doc_id": "big", "text": "é" * 600}]  # 1,200 bytes of UTF-8
    write_jsonl(tiny_suite / "documents.jsonl", docs)
    load_suite(tiny_suite, max_document_bytes=1200)  # at the limit: fine
    with pytest.raises(SuiteError) as err:
        load_suite(tiny_suite, max_document_bytes=1199)
    line = len(docs)
    assert err.value.problems == [
        f"{tiny_suite / 'documents.jsonl'}:{line}: text: document 'big' is 1200 bytes, "
        "above the limit of 1199 bytes"
    ]


def test_a_document_file_above_the_limit_is_refused(tiny_suite):
    (tiny_suite / "documents.jsonl").unlink()
    (tiny_suite / "documents").mkdir()
    for d in TINY_DOCS:
        (tiny_suite / "documents" / f"{d['doc_id']}.txt").write_text(d["text"] + "x" * 500)
    with pytest.raises(SuiteError) as err:
        load_suite(tiny_suite, max_document_bytes=100)
    assert len(err.value.problems) == len(TINY_DOCS)
    first = err.value.problems[0]
    assert first.startswith(f"{tiny_suite / 'documents'}/") and ":1: text: document" in first
    assert "above the limit of 100 bytes" in first


def test_inline_documents_of_a_case_count_too(tiny_suite):
    cases = [dict(TINY_CASES[0], documents=[{"doc_id": "inline", "text": "y" * 300}])]
    cases += TINY_CASES[1:]
    write_jsonl(tiny_suite / "cases.jsonl", cases)
    with pytest.raises(SuiteError) as err:
        load_suite(tiny_suite, max_document_bytes=200)
    assert any(
        p.startswith(f"{tiny_suite / 'cases.jsonl'}:1: documents.0.text:") and "limit of 200" in p
        for p in err.value.problems
    ), err.value.problems


def _many_cases(root, n: int) -> None:
    cases = [
        {"case_id": f"c{i}", "question": "What is the dose?", "doc_ids": ["leaflet"]}
        for i in range(n)
    ]
    write_jsonl(root / "cases.jsonl", cases)
    for system in TINY_ANSWERS:
        rows = [{"case_id": f"c{i}", "answer": "100 mg."} for i in range(n)]
        write_jsonl(root / "answers" / f"{system}.jsonl", rows)


def test_a_suite_above_the_case_limit_is_refused_naming_file_line_and_limit(tiny_suite):
    _many_cases(tiny_suite, 30)
    assert len(load_suite(tiny_suite, max_cases=30).cases) == 30
    with pytest.raises(SuiteError) as err:
        load_suite(tiny_suite, max_cases=25)
    assert err.value.problems == [
        f"{tiny_suite / 'cases.jsonl'}:26: (file): more than 25 cases, the limit of a suite"
    ]


def test_the_cli_refuses_a_too_big_suite_with_exit_4(tiny_suite, tmp_path, monkeypatch):
    write_jsonl(tiny_suite / "documents.jsonl", [*TINY_DOCS, {"doc_id": "big", "text": "z" * 40}])
    real = suite_module.load_suite
    import halgate.inputs.suite as target

    monkeypatch.setattr(target, "load_suite", lambda f: real(f, max_document_bytes=30))
    result = CliRunner().invoke(app, ["run", str(tiny_suite), "-q", "--no-save"])
    assert result.exit_code == 4, result.output
    assert "documents.jsonl:" in result.output and "limit of 30 bytes" in result.output
