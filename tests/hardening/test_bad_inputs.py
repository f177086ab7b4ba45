"""#12 D: bad suite files and options end in one clear line and exit 4, with nothing written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import halgate.cli  # noqa: F401  (registers the commands)
import pytest
from halgate.cli.app import app
from typer.testing import CliRunner


@pytest.fixture
def no_judging(monkeypatch):
    """Fail the test if the engine starts: these errors must be found before judging."""
    import halgate.run.engine as engine

    def refuse(*args, **kwargs):
        raise AssertionError("judging started before the bad input was noticed")

    monkeypatch.setattr(engine, "run_suite", refuse)


def run_cli(tmp_path: Path, suite: Path, *extra: str, db: Path | None = None, out=None):
    db = db or tmp_path / "work" / "h.db"
    out = out or tmp_path / "work" / "r.json"
    args = ["run", str(suite), "-q", "--db", str(db), "--out", str(out), *extra]
    result = CliRunner().invoke(app, args)
    return result, db, out


def assert_bad_input(result, *words: str) -> None:
    assert result.exit_code == 4, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    for w in words:
        assert w in result.output, result.output


def assert_nothing_written(tmp_path: Path) -> None:
    work = tmp_path / "work"
    assert not work.exists() or not any(work.iterdir()), list(work.iterdir())


def test_suite_json_with_a_non_string_name(tiny_suite, tmp_path, no_judging):
    (tiny_suite / "suite.json").write_text(json.dumps({"name": 5}))
    result, *_ = run_cli(tmp_path, tiny_suite)
    assert_bad_input(result, "suite.json", "name")
    assert_nothing_written(tmp_path)


@pytest.mark.parametrize("name", ["suite.json", "cases.jsonl", "documents.jsonl"])
def test_deeply_nested_json_is_a_suite_problem(tiny_suite, tmp_path, name, no_judging):
    (tiny_suite / name).write_text("[" * 200_000 + "]" * 200_000 + "\n")
    result, *_ = run_cli(tmp_path, tiny_suite)
    assert_bad_input(result, name, "nested")
    assert_nothing_written(tmp_path)


@pytest.mark.parametrize(
    "name", ["cases.jsonl", "documents.jsonl", "answers/candidate.jsonl", "documents/x.txt"]
)
def test_a_suite_file_that_is_a_directory(tiny_suite, tmp_path, name, no_judging):
    path = tiny_suite / name
    if path.exists():
        path.unlink()
    path.mkdir(parents=True)
    result, *_ = run_cli(tmp_path, tiny_suite)
    assert_bad_input(result, name, "directory")
    assert_nothing_written(tmp_path)


def test_a_lone_surrogate_in_an_answer(tiny_suite, tmp_path, no_judging):
    path = tiny_suite / "answers" / "candidate.jsonl"
    lines = path.read_text().splitlines()
    lines[0] = '{"case_id": "q1", "answer": "The dose is \\ud800 100 mg."}'
    path.write_text("\n".join(lines) + "\n")
    result, *_ = run_cli(tmp_path, tiny_suite)
    assert_bad_input(result, "candidate.jsonl:1", "surrogate")
    assert_nothing_written(tmp_path)


def test_policy_that_is_a_directory(tiny_suite, tmp_path, no_judging):
    result, *_ = run_cli(tmp_path, tiny_suite, "--policy", str(tmp_path))
    assert_bad_input(result, "--policy", str(tmp_path))
    assert_nothing_written(tmp_path)


def test_out_that_is_a_directory_or_under_a_file(tiny_suite, tmp_path, no_judging):
    (tmp_path / "work").mkdir()
    result, *_ = run_cli(tmp_path, tiny_suite, out=tmp_path / "work")
    assert_bad_input(result, "--out", "directory")
    assert not (tmp_path / "work" / "h.db").exists()
    blocker = tmp_path / "plain.txt"
    blocker.write_text("x")
    result, *_ = run_cli(tmp_path, tiny_suite, out=blocker / "sub" / "r.json")
    assert_bad_input(result, "--out", "plain.txt")
    assert_nothing_written(tmp_path)


def test_same_system_as_baseline_and_candidate(tiny_suite, tmp_path, no_judging):
    result, *_ = run_cli(
        tmp_path, tiny_suite, "--baseline", "candidate", "--candidate", "candidate"
    )
    assert_bad_input(result, "--baseline", "--candidate")
    assert_nothing_written(tmp_path)


def test_db_that_cannot_be_written(tiny_suite, tmp_path, no_judging, monkeypatch):
    (tmp_path / "work").mkdir()
    result, *_ = run_cli(tmp_path, tiny_suite, db=tmp_path / "work")
    assert_bad_input(result, "--db", "directory")
    blocker = tmp_path / "plain.txt"
    blocker.write_text("x")
    result, *_ = run_cli(tmp_path, tiny_suite, db=blocker / "h.db")
    assert_bad_input(result, "--db", "plain.txt")
    ro = tmp_path / "ro.db"
    ro.write_bytes(b"")
    ro.chmod(0o444)
    real_access = os.access
    # As root chmod does not stop a write; ask as an ordinary user would be answered.
    monkeypatch.setattr(
        os,
        "access",
        lambda p, mode, **kw: (
            False if Path(p) == ro and mode & os.W_OK else real_access(p, mode, **kw)
        ),
    )
    result, *_ = run_cli(tmp_path, tiny_suite, db=ro)
    assert_bad_input(result, "--db", "read-only")
    assert_nothing_written(tmp_path)


def test_symlink_out_of_the_suite_folder_is_not_followed(tiny_suite, tmp_path, no_judging):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0")
    (tiny_suite / "documents").mkdir()
    (tiny_suite / "documents" / "leak.txt").symlink_to(secret)
    result, *_ = run_cli(tmp_path, tiny_suite)
    assert_bad_input(result, "leak.txt", "link")
    outside = tmp_path / "elsewhere"
    shutil.copytree(tiny_suite / "answers", outside)
    shutil.rmtree(tiny_suite / "answers")
    (tiny_suite / "documents" / "leak.txt").unlink()
    (tiny_suite / "answers").symlink_to(outside)
    result, *_ = run_cli(tmp_path, tiny_suite)
    assert_bad_input(result, "answers", "link")
    assert_nothing_written(tmp_path)
