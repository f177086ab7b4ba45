"""Every CLI command is documented (README or a docs/ page) and has help text for every option."""

from __future__ import annotations

from importlib.metadata import version

import typer.main
from halgate.cli.app import app
from typer.testing import CliRunner

from ..conftest import REPO


def commands() -> dict:
    return typer.main.get_command(app).commands


def test_every_command_is_documented():
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    missing = [name for name in commands() if f"halgate {name}" not in text]
    assert missing == []


def test_every_command_and_option_has_help():
    for name, cmd in commands().items():
        assert cmd.help, name
        for param in cmd.params:
            if param.param_type_name == "option":
                assert param.help, f"{name} {param.opts}"


def test_flags_show_no_value_type_and_have_no_negative_form():
    runner = CliRunner()
    for name, cmd in commands().items():
        text = runner.invoke(app, [name, "--help"], terminal_width=100).output
        assert "<bool>" not in text, name
        for param in cmd.params:
            if getattr(param, "is_flag", False) and param.name != "help":
                assert param.secondary_opts == [], f"{name} {param.opts}: a --no- form"


def test_the_command_list_shows_every_summary_whole():
    text = CliRunner().invoke(app, ["--help"], terminal_width=80).output
    listed = text.split("Commands:")[1]
    assert "..." not in listed
    assert all(name in listed for name in commands())


def test_shared_options_say_what_they_do_for_each_command():
    helps = {
        name: {p.name: p.help for p in cmd.params if p.param_type_name == "option"}
        for name, cmd in commands().items()
    }
    assert "saved to" in helps["run"]["db"]
    assert "appended to" in helps["override"]["db"] and "appended to" in helps["signoff"]["db"]
    assert "appended" not in helps["export"]["db"]
    assert "release manager" in helps["signoff"]["reviewer"]
    assert "release manager" not in helps["override"]["reviewer"]


def test_version_prints_the_installed_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"halgate {version('halgate')}"
