"""#12 F: the dashboard listens on loopback only and shows users no error details."""

from __future__ import annotations

import tomllib
from pathlib import Path

from halgate.cli.dashboard import streamlit_command

from ..conftest import REPO


def test_streamlit_config_binds_loopback_and_hides_error_details():
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert config["client"]["showErrorDetails"] in ("none", False)


def test_halgate_dashboard_passes_the_same_settings_from_any_folder():
    cmd = streamlit_command(Path("/x/app.py"), 8501, "127.0.0.1")
    assert "--client.showErrorDetails=none" in cmd
    assert "--server.address=127.0.0.1" in cmd
