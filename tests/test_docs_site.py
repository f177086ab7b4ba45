"""The documentation site builds with MkDocs in strict mode, and strict mode bites."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MKDOCS = Path(sys.executable).with_name("mkdocs")


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MKDOCS), "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )


def test_the_site_builds_strict(tmp_path):
    out = build(REPO / "mkdocs.yml", tmp_path / "site")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "site" / "cli.html").exists()


def test_a_broken_link_fails_the_build(tmp_path):
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    shutil.copy(REPO / "mkdocs.yml", tmp_path / "mkdocs.yml")
    with (tmp_path / "docs" / "cli.md").open("a") as page:
        page.write("\n[gone](no-such-page.md)\n")
    out = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert out.returncode != 0
    assert "no-such-page.md" in out.stderr
