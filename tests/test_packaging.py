"""Packaging: folders map to halgate.*; no code imports `core` or `dashboard` by those names."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from .conftest import REPO

BAD_IMPORT = re.compile(r"^\s*(from|import)\s+(core|dashboard)(\.|\s|$)", re.MULTILINE)


def test_no_code_imports_core_or_dashboard_by_folder_name():
    offenders = [
        str(p.relative_to(REPO))
        for folder in ("core", "dashboard", "tests")
        for p in (REPO / folder).rglob("*.py")
        if BAD_IMPORT.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_dashboard_and_data_are_importable_resources():
    from halgate.resources import data_path

    assert data_path("schemas", "run_report.schema.json").is_file()


def test_wheel_contains_every_module_and_no_top_level_core(tmp_path: Path):
    # Build from a copy of the tracked files: a stale ./build folder must not hide a package
    # missing from pyproject's explicit list.
    src = tmp_path / "src"
    tracked = (
        subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, tracked):
        if (REPO / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, src / rel)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(src),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    wheel = next(tmp_path.glob("halgate-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    tops = {n.split("/")[0] for n in names if not n.startswith("halgate-")}
    assert tops == {"halgate"}
    modules = {
        "halgate/" + str(p.relative_to(REPO / "core")) for p in (REPO / "core").rglob("*.py")
    }
    assert modules - names == set(), "modules missing from the wheel (pyproject packages)"
    for needed in (
        "halgate/cli/__init__.py",
        "halgate/dashboard/app.py",
        "halgate/dashboard/views/triage.py",
        "halgate/data/schemas/run_report.schema.json",
        "halgate/data/examples/acme-helpdesk/cases.jsonl",
    ):
        assert needed in names, needed


def test_public_api_is_exported():
    import halgate

    assert sorted(halgate.__all__) == halgate.__all__
    for name in halgate.__all__:
        assert getattr(halgate, name) is not None, name
    assert {"offline", "llm"} <= set(halgate.judge_names())
