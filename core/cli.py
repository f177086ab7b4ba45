"""The `halgate` command: a thin face over the library.

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

from .cli_llm import (
    ApiKeyOpt,
    BaseUrlOpt,
    BatchTokensOpt,
    ConcurrencyOpt,
    DryRunOpt,
    MaxBatchOpt,
    ModelOpt,
)
from .errors import HalgateError, SuiteError, UsageError
from .models import EXIT_BAD_INPUT, Mode

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


@app.command()
def run(
    suite: SuiteArg,
    mode: Annotated[
        Mode,
        typer.Option(
            help="compare: candidate vs baseline; gate: one system "
            "vs the documents; consistency: one system vs the "
            "reference answers; pairwise: which of baseline/candidate is more factual."
        ),
    ] = Mode.COMPARE,
    baseline: Annotated[
        str, typer.Option(help="Baseline system name (answers/NAME.jsonl).")
    ] = "baseline",
    candidate: Annotated[
        str, typer.Option(help="Candidate system name (answers/NAME.jsonl).")
    ] = "candidate",
    system: Annotated[
        str | None,
        typer.Option(help="System judged in gate/consistency mode (default: the candidate)."),
    ] = None,
    policy: Annotated[
        Path | None,
        typer.Option(
            help="Policy TOML (default: the suite's policy.toml, else built-in defaults)."
        ),
    ] = None,
    judge: JudgeOpt = None,
    out_path: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Write the JSON report here (schema-validated)."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    db: Annotated[
        Path,
        typer.Option(
            "--db",
            envvar="HALGATE_DB",
            help="Review database the run is saved to. Default: $HALGATE_DB, else ./halgate.db.",
        ),
    ] = Path("halgate.db"),
    no_save: Annotated[
        bool, typer.Option("--no-save", help="Do not save the run to the review database.")
    ] = False,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    api_key: ApiKeyOpt = None,
    concurrency: ConcurrencyOpt = None,
    batch_tokens: BatchTokensOpt = None,
    max_batch: MaxBatchOpt = None,
    dry_run: DryRunOpt = False,
) -> None:
    """Evaluate a suite, save it for review, print the summary and exit with the gate's code."""
    from .cli_llm import build_judge, dry_run_text
    from .engine import run_suite
    from .judges.llm_config import default_judge_name
    from .pairwise import pairwise_summary
    from .policy import load_policy
    from .progress import judge_progress
    from .reports.json_report import write_report
    from .reports.summary import summary_text
    from .suite import load_suite

    try:
        s = load_suite(suite)
        pol_path = policy or ((suite / "policy.toml") if (suite / "policy.toml").exists() else None)
        pol = load_policy(pol_path)
        if judge is None:
            judge = "llm" if (model or base_url or api_key) else default_judge_name()
        j = build_judge(
            judge,
            pol,
            mode,
            db,
            model=model,
            base_url=base_url,
            api_key=api_key,
            concurrency=concurrency,
            batch_tokens=batch_tokens,
            max_batch=max_batch,
        )
        if dry_run:
            out.print(dry_run_text(j, s, mode, baseline, candidate, system), markup=False, end="")
            raise typer.Exit(0)
        with judge_progress(len(s.cases), enabled=not quiet) as tick:
            report = run_suite(s, j, pol, mode, baseline, candidate, system, progress=tick)
        if out_path:
            write_report(report, out_path)
        if not no_save:
            from .store import Store

            with Store(db) as store:
                store.save_run(report)
    except HalgateError as exc:
        raise fail(exc) from None
    out.print(summary_text(report), markup=False, end="")
    if report.pairwise is not None:
        out.print(pairwise_summary(report.pairwise), markup=False, end="")
    if out_path:
        out.print(f"report written to {out_path}", markup=False)
    if not no_save:
        out.print(f"run {report.run_id} saved to {db}", markup=False)
    raise typer.Exit(report.decision.exit_code)


@app.command("eval-judge")
def eval_judge(
    suite: Annotated[Path | None, typer.Argument(help="Suite folder with labels.jsonl.")] = None,
    benchmark: Annotated[
        Path | None,
        typer.Option(
            help="Benchmark JSONL (id, task, documents, answer, label, spans) instead of a suite."
        ),
    ] = None,
    judge: JudgeOpt = "offline",
    task: Annotated[str | None, typer.Option(help="Only rows of this task (e.g. qa).")] = None,
    part: Annotated[
        str, typer.Option(help="Benchmark rows: all, tune or holdout (a fixed split by id hash).")
    ] = "all",
    limit: Annotated[int | None, typer.Option(help="Score at most N rows (shuffled).")] = None,
    seed: Annotated[int, typer.Option(help="Shuffle seed used with --limit.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Score a judge against labels: a suite's labels.jsonl or a benchmark file."""
    from .judges.base import create_judge

    if (suite is None) == (benchmark is None):
        raise fail(UsageError("give either a SUITE folder or --benchmark FILE"))
    if part not in {"all", "tune", "holdout"}:
        raise fail(UsageError(f"--part must be all, tune or holdout, not {part!r}"))
    try:
        j = create_judge(judge)
        if benchmark is not None:
            text, data = _eval_benchmark(j, benchmark, task, part, limit, seed, quiet)
        else:
            from .evaluation import evaluate_judge_on_suite, scores_table
            from .suite import load_suite

            scores = evaluate_judge_on_suite(load_suite(suite), j)
            text, data = scores_table(scores), scores.model_dump(mode="json")
    except HalgateError as exc:
        raise fail(exc) from None
    if as_json:
        out.print_json(data=data)
    else:
        out.print(text, markup=False, end="")


def _eval_benchmark(judge, path, task, part, limit, seed, quiet):
    from .benchmark import benchmark_table, evaluate_benchmark, load_benchmark
    from .progress import judge_progress

    rows = load_benchmark(path, task, part, limit, seed)
    with judge_progress(len(rows), enabled=not quiet) as tick:
        result = evaluate_benchmark(judge, rows, progress=tick)
    return benchmark_table(result), result


@app.command()
def schemas(
    write: Annotated[bool, typer.Option(help="Regenerate data/schemas/ from the models.")] = False,
    check: Annotated[bool, typer.Option(help="Exit 1 if committed schemas drift.")] = False,
) -> None:
    """Show, check or regenerate the published JSON Schemas."""
    from .schemas import PUBLISHED, schema_path, schema_text, write_schemas

    if write:
        for p in write_schemas():
            out.print(f"wrote {p}", markup=False)
        return
    drift = [
        n
        for n in PUBLISHED
        if not schema_path(n).exists()
        or schema_path(n).read_text(encoding="utf-8") != schema_text(n)
    ]
    for n in PUBLISHED:
        state = "DRIFT" if n in drift else "ok"
        out.print(f"{state:6} {schema_path(n)}", markup=False)
    if check and drift:
        raise typer.Exit(1)


from . import cli_calibrate, cli_dashboard, cli_store  # noqa: E402,F401  (register their commands)

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


if __name__ == "__main__":
    # Run the package module's app: the store commands register on `halgate.cli.app`, not
    # on this `__main__` copy of the module.
    from .cli import main as package_main

    package_main()
