"""`halgate run`: evaluate a suite, save it for review, exit with the gate's code."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from ..errors import HalgateError, StoreError, UsageError
from ..models import Mode, RunReport
from .app import SuiteArg, app, fail, out
from .llm_options import (
    ApiKeyFileOpt,
    ApiKeyOpt,
    BaseUrlOpt,
    BatchTokensOpt,
    ConcurrencyOpt,
    DryRunOpt,
    MaxBatchOpt,
    ModelOpt,
)

JudgeOpt = Annotated[
    str | None,
    typer.Option(
        "--judge",
        "-j",
        help="Judge to use: offline (no network) or llm (OpenAI-compatible endpoint). Default: llm "
        "when OPENAI_API_KEY / OPENAI_BASE_URL or the config file set an endpoint, else offline.",
    ),
]


def check_run_options(
    mode: Mode,
    baseline: str,
    candidate: str,
    policy: Path | None,
    out_path: Path | None,
    db: Path | None,
) -> None:
    """Refuse options that would fail only after judging (exit 4 before any work)."""
    from ..store import check_db_target, writable_target

    if mode in (Mode.COMPARE, Mode.PAIRWISE) and baseline == candidate:
        raise UsageError(
            f"--baseline and --candidate are both {baseline!r}: compare two different systems"
        )
    if policy is not None and policy.is_dir():
        raise UsageError(f"--policy {policy}: is a directory, not a policy TOML file")
    if out_path is not None:
        writable_target(out_path, "--out")
    if db is not None:
        check_db_target(db, "--db")


def _save(report: RunReport, db: Path, out_path: Path | None) -> None:
    """Save the run; a database that fails now is one clear error, and a report file
    written for this run is removed again so that nothing is left behind."""
    from ..store import Store

    try:
        with Store(db) as store:
            store.save_run(report)
    except (HalgateError, sqlite3.Error) as exc:
        if out_path is not None:
            out_path.unlink(missing_ok=True)
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"--db {db}: cannot save the run: {exc}") from None
        raise


@app.command(short_help="Evaluate a suite, save it, exit with the gate's code.")
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
        typer.Option(
            "--out", "-o", help="Also write the JSON report to this file (schema-validated)."
        ),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Do not show the judging progress bar.")
    ] = False,
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
    api_key_file: ApiKeyFileOpt = None,
    concurrency: ConcurrencyOpt = None,
    batch_tokens: BatchTokensOpt = None,
    max_batch: MaxBatchOpt = None,
    dry_run: DryRunOpt = False,
) -> None:
    """Evaluate a suite, save it for review, print the summary and exit with the gate's code."""
    from ..inputs.policy import resolve_policy
    from ..inputs.suite import load_suite
    from ..judges.build import build_judge, judge_name
    from ..reports.json_report import write_report
    from ..reports.pairwise_text import pairwise_summary
    from ..reports.summary import summary_text
    from ..run.engine import run_suite
    from ..run.progress import judge_progress
    from .llm_options import dry_run_text, key_option

    try:
        check_run_options(mode, baseline, candidate, policy, out_path, None if no_save else db)
        api_key = key_option(api_key, api_key_file)
        s = load_suite(suite)
        pol = resolve_policy(policy, suite)
        j = build_judge(
            judge_name(judge, model=model, base_url=base_url, api_key=api_key),
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
            _save(report, db, out_path)
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
