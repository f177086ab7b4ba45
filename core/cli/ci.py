"""`halgate ci comment`: the gate's Markdown report as a pull-request comment kept up to date.

The GitHub Action's comment step runs this command. The repository, pull request and API
address come from options or the variables a GitHub runner sets; the token only from an
environment variable, never from the command line (where ``ps`` would show it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from ..errors import HalgateError, UsageError
from ..models import EXIT_CODES, GateStatus
from .app import app, err, fail, out

ci_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="What a CI job does after the gate: `halgate ci comment REPORT.md` posts the report "
    "as a pull-request comment, updated in place on every run.",
)
app.add_typer(ci_app, name="ci", short_help="CI helpers: the pull-request comment.")


@ci_app.command()
def comment(
    report: Annotated[
        Path, typer.Argument(help="The Markdown report (halgate export --format markdown).")
    ],
    pr: Annotated[
        int,
        typer.Option(
            "--pr",
            envvar="HALGATE_PR_NUMBER",
            help="Pull request number (default: $HALGATE_PR_NUMBER).",
        ),
    ],
    repository: Annotated[
        str,
        typer.Option(envvar="GITHUB_REPOSITORY", help="owner/name (default: $GITHUB_REPOSITORY)."),
    ],
    api_url: Annotated[
        str,
        typer.Option(envvar="GITHUB_API_URL", help="GitHub's REST API (default: $GITHUB_API_URL)."),
    ] = "https://api.github.com",
    token_env: Annotated[
        str,
        typer.Option(help="Environment variable holding the token that may write comments."),
    ] = "GITHUB_TOKEN",
) -> None:
    """Post REPORT as the pull request's halgate comment, or update the one already there
    (found by its hidden <!-- halgate-report --> marker). GitHub's refusal exits 2."""
    from ..ci import GitHubError, PullRequest, upsert_comment

    try:
        markdown = _read(report)
        pull = PullRequest(api_url=api_url, repository=repository, number=pr)
        done = upsert_comment(pull, os.environ.get(token_env, ""), markdown)
    except GitHubError as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(EXIT_CODES[GateStatus.HARNESS_ERROR]) from None
    except HalgateError as exc:
        raise fail(exc) from None
    out.print(f"{done.action} comment {done.comment_id} {done.html_url}".rstrip(), markup=False)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the report: {exc}") from None
