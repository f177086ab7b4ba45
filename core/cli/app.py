"""The Typer application, its consoles, and what every command shares (errors, options).

Each command parses options, calls one core function and renders the result. Expected
problems print one clear line and exit with the documented code (DESIGN.md §4):
0 passed, 1 failed, 2 harness error, 3 needs review, 4 bad input or usage.
"""

from __future__ import annotations

import sys
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..errors import HalgateError, SuiteError
from ..models import EXIT_BAD_INPUT

app = typer.Typer(
    name="halgate",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click help: a flag shows no value type
)


err = Console(stderr=True, highlight=False, soft_wrap=True)


out = Console(highlight=False, soft_wrap=True)


def fail(exc: HalgateError) -> typer.Exit:
    """Print an expected error without a traceback; return the exit to raise."""
    if isinstance(exc, SuiteError):
        err.print(f"error: {len(exc.problems)} problem(s) in the suite:", markup=False)
        for p in exc.problems:
            err.print(f"  {p}", markup=False)
    else:
        err.print(f"error: {exc}", markup=False)
    return typer.Exit(EXIT_BAD_INPUT)


SuiteArg = Annotated[Path, typer.Argument(help="Suite folder (cases.jsonl, documents, answers/).")]


def _print_version(value: bool) -> None:
    if value:
        out.print(f"halgate {package_version('halgate')}", markup=False)
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print halgate's version and exit.",
        ),
    ] = False,
) -> None:
    """Hallucination regression gate: compare a candidate LLM system with a baseline claim by
    claim, cite the evidence, and decide whether it may ship."""


def main() -> None:
    """Entry point of the `halgate` script; usage errors exit 4 (click's default is 2)."""
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # click's usage, option and parameter errors
        show = getattr(exc, "show", None)
        if show is not None:
            show()
        code = 0 if type(exc).__name__ == "NoArgsIsHelpError" else EXIT_BAD_INPUT
    except (KeyboardInterrupt, typer.Abort):
        err.print("interrupted")
        code = 130
    sys.exit(code if isinstance(code, int) else 0)
