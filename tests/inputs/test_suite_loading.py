"""Suite loading: a clean suite loads; a broken one names every problem with file and line."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from halgate.errors import SuiteError
from halgate.inputs.suite import _Problems, _surrogate_field, load_suite, read_jsonl
from hypothesis import given, settings
from hypothesis import strategies as st

from ..conftest import write_jsonl


def test_tiny_suite_loads(tiny_suite):
    s = load_suite(tiny_suite)
    assert [c.case_id for c in s.cases] == ["q1", "q2", "q3"]
    assert set(s.answers) == {"baseline", "candidate"}
    assert s.case_documents(s.cases[0])[0].doc_id == "leaflet"
    assert len(s.content_hash) == 64


def test_content_hash_changes_with_any_answer(tiny_suite):
    before = load_suite(tiny_suite).content_hash
    path = tiny_suite / "answers" / "candidate.jsonl"
    path.write_text(path.read_text().replace("200 mg", "300 mg"))
    assert load_suite(tiny_suite).content_hash != before


def test_documents_folder_of_text_files(tiny_suite):
    (tiny_suite / "documents.jsonl").unlink()
    (tiny_suite / "documents").mkdir()
    (tiny_suite / "documents" / "leaflet.txt").write_text("The maximum daily dose is 100 mg.")
    (tiny_suite / "documents" / "policy.md").write_text("# Refunds\nWithin 14 days.")
    s = load_suite(tiny_suite)
    assert s.documents["policy"].text.startswith("# Refunds")


def break_suite(root: Path) -> None:
    cases = (root / "cases.jsonl").read_text().splitlines()
    cases[1] = cases[1][:-5]  # broken JSON on line 2
    cases.append(cases[0])  # duplicate case id on line 4
    cases.append('{"case_id": "q9", "question": "?", "doc_ids": ["nope"]}')  # unknown doc, line 5
    cases.append('{"case_id": "q10", "doc_ids": ["leaflet"]}')  # missing question, line 6
    (root / "cases.jsonl").write_text("\n".join(cases) + "\n")
    (root / "answers" / "candidate.jsonl").write_bytes(b'{"case_id": "q1", "answer": "caf\xe9"}\n')


def test_every_problem_reported_at_once(tiny_suite):
    break_suite(tiny_suite)
    with pytest.raises(SuiteError) as info:
        load_suite(tiny_suite)
    text = "\n".join(info.value.problems)
    cases = str(tiny_suite / "cases.jsonl")
    assert f"{cases}:2: (json): invalid JSON" in text
    assert f"{cases}:4: case_id: duplicate id 'q1' (first at line 1)" in text
    assert f"{cases}:5: doc_ids.0: unknown doc id 'nope'" in text
    assert f"{cases}:6: question: field required" in text
    assert f"{tiny_suite / 'answers' / 'candidate.jsonl'}:1: (file): not UTF-8" in text
    assert "has no answer in answers/baseline.jsonl" in text  # q9 has no baseline answer


def test_unknown_field_and_missing_answer(tiny_suite):
    write_jsonl(
        tiny_suite / "answers" / "baseline.jsonl",
        [{"case_id": "q1", "answer": "a", "anwser": "typo"}],
    )
    with pytest.raises(SuiteError) as info:
        load_suite(tiny_suite)
    text = "\n".join(info.value.problems)
    assert "baseline.jsonl:1: anwser: extra inputs are not permitted" in text
    assert "cases.jsonl:2: case_id: case 'q2' has no answer in answers/baseline.jsonl" in text


def test_cli_exits_4_and_writes_nothing(tiny_suite, tmp_path):
    break_suite(tiny_suite)
    out = tmp_path / "r.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "halgate.cli",
            "run",
            str(tiny_suite),
            "--out",
            str(out),
            "-q",
            "--no-save",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 4, proc.stderr
    assert "cases.jsonl:2:" in proc.stderr and "cases.jsonl:5:" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["answer", "case_id", "note"]),
        st.text(alphabet=st.sampled_from(["a", "\\", "u", "d", "8", "\ud800", "\udfff", "é"])),
        max_size=3,
    ),
    st.booleans(),
)
def test_lone_surrogates_are_found_on_every_line_that_has_one(obj, ascii_only):
    """The line pre-filter only skips lines that cannot hold a surrogate."""
    raw = json.dumps(obj, ensure_ascii=ascii_only)
    if not ascii_only and any("\ud800" <= ch <= "\udfff" for v in obj.values() for ch in v):
        return  # such a line is not UTF-8 text, refused before JSON is read
    problems = _Problems()
    with tempfile.TemporaryDirectory() as folder:  # one per example, removed after it
        path = Path(folder) / "answers.jsonl"
        path.write_text(raw + "\n", encoding="utf-8")
        rows = list(read_jsonl(path, problems))
    assert (not rows) == (_surrogate_field(json.loads(raw)) is not None)  # a pair is one char
    assert len(problems.items) == (0 if rows else 1)
