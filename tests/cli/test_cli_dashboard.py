"""`halgate dashboard` starts the packaged app with fixed settings; uploads unpack safely."""

from __future__ import annotations

import io
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest
from halgate.cli.app import app
from halgate.cli.dashboard import streamlit_command
from halgate.errors import SuiteError
from halgate.inputs.archive import extract_suite_archive
from halgate.inputs.suite import load_suite
from typer.testing import CliRunner


def test_the_app_file_ships_inside_the_package():
    app_file = files("halgate.dashboard") / "app.py"
    assert app_file.is_file()
    views = files("halgate.dashboard") / "views"
    expected = {"runs.py", "overview.py", "claims.py", "triage.py", "signoff.py", "pairwise.py"}
    assert expected <= {p.name for p in views.iterdir()}


def test_streamlit_is_started_headless_without_usage_statistics_on_the_chosen_port():
    cmd = streamlit_command(Path("/x/app.py"), 8765, "127.0.0.1")
    assert cmd[1:5] == ["-m", "streamlit", "run", "/x/app.py"]
    for flag in (
        "--server.headless=true",
        "--browser.gatherUsageStats=false",
        "--server.port=8765",
        "--server.address=127.0.0.1",
    ):
        assert flag in cmd


def test_dashboard_command_is_registered_with_db_and_port_options():
    result = CliRunner().invoke(app, ["dashboard", "--help"])
    assert result.exit_code == 0
    assert "--db" in result.output and "--port" in result.output


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def _suite_entries(root: Path, prefix: str) -> dict[str, bytes]:
    return {
        prefix + str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()
    }


@pytest.mark.parametrize("prefix", ["tiny/", ""])
def test_a_zipped_suite_unpacks_to_a_loadable_folder(tiny_suite, tmp_path, prefix):
    data = _zip(_suite_entries(tiny_suite, prefix))
    folder = extract_suite_archive(data, tmp_path / "out")
    assert len(load_suite(folder).cases) == 3


@pytest.mark.parametrize("name", ["../evil.txt", "/etc/evil", "a/../../evil.txt"])
def test_entries_escaping_the_folder_are_refused_before_anything_is_written(tmp_path, name):
    with pytest.raises(SuiteError, match="leaves the suite folder"):
        extract_suite_archive(_zip({"ok.txt": b"x", name: b"x"}), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_not_a_zip_is_a_suite_error(tmp_path):
    with pytest.raises(SuiteError, match="not a zip"):
        extract_suite_archive(b"plain text", tmp_path)
