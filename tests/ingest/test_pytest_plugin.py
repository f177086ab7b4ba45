"""The pytest plugin, run as users run it: `pytest --halgate SUITE` in a fresh process (the
plugin loads from its installed ``pytest11`` entry point), with pytest's own --junitxml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from junitparser import JUnitXml

from ..conftest import EXAMPLE_SUITE, TINY_CASES, TINY_DOCS


def _pytest(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_pytest_halgate_fails_with_the_gate_reasons_and_writes_junit(tmp_path):
    done = _pytest(tmp_path, "--halgate", str(EXAMPLE_SUITE), "--junitxml", "junit.xml")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "halgate gate: FAILED" in done.stdout
    assert "[FAILED] block_on_severity:" in done.stdout
    suite = next(iter(JUnitXml.fromfile(str(tmp_path / "junit.xml"))))
    results = {case.name: bool(case.result) for case in suite}
    assert len(results) == 54  # 53 cases and the gate
    assert results["halgate[gate]"] is True  # a result element = failed
    assert results["halgate[med-001]"] is False  # the faithful dose answer passes
    assert results["halgate[med-002]"] is True  # '200 mg' where the leaflet says 100 mg
    failure = next(c for c in suite if c.name == "halgate[med-002]").result[0]
    assert "200 mg" in failure.message and "CONTRADICTED" in failure.message


def test_without_the_option_the_plugin_adds_nothing(tmp_path):
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    done = _pytest(tmp_path, "-m", "halgate or not halgate")
    assert done.returncode == 0 and "1 passed" in done.stdout
    helped = _pytest(tmp_path, "--help")
    assert "--halgate=SUITE" in helped.stdout  # loaded, and inert


def test_a_suite_built_in_python_is_gated_by_the_fixture(tmp_path):
    answers = {
        "baseline": {c["case_id"]: c["reference_answer"] for c in TINY_CASES},
        "candidate": {c["case_id"]: c["reference_answer"] for c in TINY_CASES},
    }
    (tmp_path / "test_gate.py").write_text(
        "from halgate.pytest_plugin import assert_gate_passes, make_suite\n"
        f"CASES, DOCS, ANSWERS = {TINY_CASES!r}, {TINY_DOCS!r}, {answers!r}\n"
        "def test_faithful(halgate_gate):\n"
        "    assert_gate_passes(halgate_gate(make_suite(CASES, DOCS, ANSWERS)),"
        " allow_review=True)\n"
        "def test_invented(halgate_gate):\n"
        "    bad = {k: 'The maximum daily dose is 900 mg.' for k in ANSWERS['candidate']}\n"
        "    report = halgate_gate(make_suite(CASES, DOCS, {**ANSWERS, 'candidate': bad}))\n"
        "    assert_gate_passes(report)\n"
    )
    done = _pytest(tmp_path)
    assert "1 failed, 1 passed" in done.stdout, done.stdout + done.stderr
    assert "test_invented" in done.stdout and "halgate gate: FAILED" in done.stdout
