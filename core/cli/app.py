"""The Typer application, its consoles, and what every command shares (errors, options).

Each command parses options, calls one core function and renders the result. Expected
problems print one clear line and exit with the documented code (DESIGN.md §4):
0 passed, 1 failed, 2 harness error, 3 needs review, 4 bad input or usage.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..errors import HalgateError, SuiteError
from ..models import EXIT_BAD_INPUT

app = typer.Typer(
    name="halgate",
    help="Hallucination regression gate: compare a candidate LLM system with a baseline "
    "claim by claim, cite the evidence, and decide whether it may ship.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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


JudgeOpt = Annotated[
    str | None,
    typer.Option(
        "--judge",
        "-j",
        help="Judge to use: offline (no network) or llm (OpenAI-compatible endpoint). Default: llm "
        "when OPENAI_API_KEY / OPENAI_BASE_URL or the config file set an endpoint, else offline.",
    ),
]


# Typer may bundle its own copy of click; find its exception classes through a public name.
_UsageError = typer.BadParameter.__mro__[1]


_ClickException = typer.BadParameter.__mro__[2]


def main() -> None:
    """Entry point of the `halgate` script; usage errors exit 4 (click's default is 2)."""
    try:
        code = app(standalone_mode=False)
    except _UsageError as exc:
        exc.show()
        code = 0 if type(exc).__name__ == "NoArgsIsHelpError" else EXIT_BAD_INPUT
    except _ClickException as exc:
        exc.show()
        code = EXIT_BAD_INPUT
    except (KeyboardInterrupt, typer.Abort):
        err.print("interrupted")
        code = 130
    sys.exit(code if isinstance(code, int) else 0)
