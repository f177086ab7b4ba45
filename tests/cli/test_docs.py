"""Every CLI command is documented in the README and has help text for every option."""

from __future__ import annotations

import typer.main
from halgate.cli.app import app

from ..conftest import REPO


def commands() -> dict:
    return typer.main.get_command(app).commands


def test_every_command_is_in_the_readme():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    missing = [name for name in commands() if f"halgate {name}" not in readme]
    assert missing == []


def test_every_command_and_option_has_help():
    for name, cmd in commands().items():
        assert cmd.help, name
        for param in cmd.params:
            if param.param_type_name == "option":
                assert param.help, f"{name} {param.opts}"
