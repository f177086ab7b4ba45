"""The `run` command's judge options (model, endpoint, key, concurrency, batching, cascade
margin, Batch API), dry run.

Kept beside ``run.py`` so the command stays a thin face: options are parsed there and handed
to ``halgate.judges.build_judge`` (the rule the dashboard uses too); a dry run plans and
renders every request and prints what it would cost.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import UsageError
from ..models import Mode

if TYPE_CHECKING:
    from ..judges.protocol import Judge
    from ..models import Suite

ModelOpt = Annotated[
    str | None,
    typer.Option("--model", help="LLM judge model (default: $HALGATE_MODEL, config, gpt-4o-mini)."),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)."),
]
ApiKeyOpt = Annotated[
    str | None,
    typer.Option(
        "--api-key",
        help="API key (default: $OPENAI_API_KEY); never written anywhere. A command line is "
        "visible to other users of the machine (ps): prefer $OPENAI_API_KEY or --api-key-file.",
        show_default=False,
    ),
]
ApiKeyFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--api-key-file",
        help="Read the API key from this file at start (default: api_key_file in the [llm] "
        "section of halgate.toml).",
        show_default=False,
    ),
]
ConcurrencyOpt = Annotated[
    int | None,
    typer.Option("--concurrency", min=1, help="Parallel LLM requests (default 8)."),
]
BatchTokensOpt = Annotated[
    int | None,
    typer.Option(
        "--batch-tokens",
        min=0,
        help="Pack small cases into one LLM request up to this many prompt tokens "
        "(default 3000; 0 turns batching off).",
    ),
]
MaxBatchOpt = Annotated[
    int | None,
    typer.Option(
        "--max-batch",
        min=0,
        max=64,
        help="At most this many cases per batched LLM request (default 8; 0 or 1: no batching).",
    ),
]
CascadeMarginOpt = Annotated[
    float | None,
    typer.Option(
        "--cascade-margin",
        min=0.0,
        max=1.0,
        help="--judge cascade: an answer goes to the LLM when one of its claims scores within "
        "this distance of the offline judge's decision score (0.5), unless a hard signal "
        "decided it (default 0.1; 0: nothing goes to the LLM).",
    ),
]
BatchApiOpt = Annotated[
    bool,
    typer.Option(
        "--batch-api",
        help="Send the LLM calls through the provider's Batch API (about half the price, "
        "results within 24h): the first run submits them and exits 5 (pending); run the same "
        "command again, or `halgate batches collect ID`, to finish. --judge llm or cascade.",
    ),
]
DryRunOpt = Annotated[
    bool,
    typer.Option(
        "--dry-run", help="Print the calls, tokens and cost a run would take; call nothing."
    ),
]


def key_option(api_key: str | None, api_key_file: Path | None) -> str | None:
    """The key given on the command line: ``--api-key`` or the content of ``--api-key-file``.

    A key given with ``--api-key`` is then blanked in the process's command line
    (``argv_secret``), so ``ps`` and ``/proc/PID/cmdline`` do not show it for the run.
    """
    if api_key_file is None:
        if api_key:
            from .argv_secret import hide_in_argv

            hide_in_argv(api_key)
        return api_key
    from ..judges.llm.config import read_key_file

    if api_key is not None:
        raise UsageError("give --api-key or --api-key-file, not both")
    return read_key_file(api_key_file)


def dry_run_text(
    judge: Judge, suite: Suite, mode: Mode, baseline: str, candidate: str, system: str | None
) -> str:
    """What the run would spend, from the judge's own request plan."""
    from ..run.engine import choose_systems, plan_tasks

    systems = choose_systems(suite, mode, baseline, candidate, system)
    tasks = plan_tasks(suite, mode, systems)
    estimate = getattr(judge, "estimate", None)
    if estimate is None:
        return f"dry run: judge {judge.spec.judge_id} makes no model calls ({len(tasks)} cases)\n"
    return estimate(tasks, mode, systems).text()
