"""`halgate run`: evaluate a suite, save it for review, exit with the gate's code.

With ``--batch-api`` the LLM calls go through the provider's Batch API: the first run submits
them and exits 5 (pending); running the same command again, or ``halgate batches collect
ID`` (which reads the run's recorded ``RunInputs``), finishes the run once it has completed.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from ..database import mask_text, parse_target
from ..errors import HalgateError, StoreError, UsageError
from ..models import Mode, RunReport
from .app import app, err, fail, out
from .ingest import ImportOpt, MappingOpt, SourceOpt, import_for_run
from .llm_options import (
    ApiKeyFileOpt,
    ApiKeyOpt,
    BaseUrlOpt,
    BatchApiOpt,
    BatchTokensOpt,
    CascadeMarginOpt,
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
        help="Judge to use: offline (no network), llm (OpenAI-compatible endpoint) or cascade "
        "(offline first; only the answers it is unsure of go to the LLM). Default: llm "
        "when OPENAI_API_KEY / OPENAI_BASE_URL or the config file set an endpoint, else offline.",
    ),
]


@dataclass(frozen=True)
class RunInputs:
    """What `halgate run` was asked to do, never the API key: recorded with each Batch API
    batch so that `halgate batches collect` can finish the very same run later."""

    suite: Path
    mode: Mode = Mode.COMPARE
    baseline: str = "baseline"
    candidate: str = "candidate"
    system: str | None = None
    policy: Path | None = None
    judge: str | None = None
    out_path: Path | None = None
    quiet: bool = False
    db: str = "halgate.db"
    no_save: bool = False
    model: str | None = None
    base_url: str | None = None
    concurrency: int | None = None
    batch_tokens: int | None = None
    max_batch: int | None = None
    cascade_margin: float | None = None
    batch_api: bool = False

    def record(self) -> dict[str, Any]:
        """As JSON values, paths made absolute, the endpoint without credentials."""
        from ..judges.llm.config import public_url

        data = dataclasses.asdict(self)
        for name in ("suite", "policy", "out_path"):
            data[name] = str(Path(data[name]).resolve()) if data[name] is not None else None
        target = parse_target(self.db)  # never a server's password: the record is stored
        data["db"] = target.display if target.is_server else str(Path(self.db).resolve())
        data["mode"] = self.mode.value
        data["base_url"] = public_url(self.base_url)
        return data

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> RunInputs:
        """The inputs recorded by ``record`` (unknown keys, from another version, dropped)."""
        known = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        for name in ("suite", "policy", "out_path"):
            if values.get(name) is not None:
                values[name] = Path(values[name])
        if "mode" in values:
            values["mode"] = Mode(values["mode"])
        return cls(**values)


def check_run_options(
    mode: Mode,
    baseline: str,
    candidate: str,
    policy: Path | None,
    out_path: Path | None,
    db: str | None,
) -> None:
    """Refuse options that would fail only after judging (exit 4 before any work)."""
    from ..run.engine import check_two_systems
    from ..store import check_db_target, writable_target

    check_two_systems(mode, baseline, candidate, ("--baseline", "--candidate"))
    if policy is not None and policy.is_dir():
        raise UsageError(f"--policy {policy}: is a directory, not a policy TOML file")
    if out_path is not None:
        writable_target(out_path, "--out")
    if db is not None:
        check_db_target(db, "--db")


def _save(report: RunReport, db: str, out_path: Path | None) -> None:
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
            raise StoreError(f"--db {mask_text(db)}: cannot save the run: {exc}") from None
        raise


@app.command(short_help="Evaluate a suite, save it, exit with the gate's code.")
def run(
    suite: Annotated[
        Path,
        typer.Argument(
            help="Suite folder (cases.jsonl, documents, answers/), or the same folder zipped "
            "(as the dashboard's upload takes it; extracted with the same limits)."
        ),
    ],
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
        str,
        typer.Option(
            "--db",
            envvar="HALGATE_DB",
            help="Review database the run is saved to (and the LLM cache and Batch API batches "
            "are kept in): a SQLite file or postgresql://USER@HOST/DB. Default: $HALGATE_DB, "
            "else ./halgate.db.",
        ),
    ] = "halgate.db",
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
    cascade_margin: CascadeMarginOpt = None,
    batch_api: BatchApiOpt = False,
    dry_run: DryRunOpt = False,
    import_format: ImportOpt = None,
    source: SourceOpt = None,
    mapping: MappingOpt = None,
) -> None:
    """Evaluate a suite, save it for review, print the summary and exit with the gate's code
    (0 passed, 1 failed, 2 harness error, 3 needs review, 4 bad input or usage, 5 Batch API
    batch still pending: run the same command again later)."""
    from .llm_options import key_option

    inputs = RunInputs(
        suite=suite,
        mode=mode,
        baseline=baseline,
        candidate=candidate,
        system=system,
        policy=policy,
        judge=judge,
        out_path=out_path,
        quiet=quiet,
        db=db,
        no_save=no_save,
        model=model,
        base_url=base_url,
        concurrency=concurrency,
        batch_tokens=batch_tokens,
        max_batch=max_batch,
        cascade_margin=cascade_margin,
        batch_api=batch_api,
    )
    try:
        key = key_option(api_key, api_key_file)
        if import_format is not None or source:
            import_for_run(import_format, source or [], suite, mapping)
    except HalgateError as exc:
        raise fail(exc) from None
    perform_run(inputs, key, dry_run=dry_run)


def perform_run(inputs: RunInputs, api_key: str | None, dry_run: bool = False) -> None:
    """Run the suite as ``inputs`` say, print the summary and exit with the gate's code; a
    Batch API batch still being processed exits 5 with what to do next. Shared by `halgate
    run` and `halgate batches collect`."""
    from ..inputs.archive import suite_source
    from ..inputs.policy import resolve_policy
    from ..inputs.suite import load_suite
    from ..judges.build import build_judge, judge_name
    from ..judges.llm_batch import EXIT_BATCH_PENDING, BatchPending
    from ..reports.json_report import write_report
    from ..reports.pairwise_text import pairwise_summary
    from ..reports.summary import summary_text
    from ..run.engine import run_suite
    from ..run.progress import judge_progress
    from ..store import check_db_folder
    from .llm_options import dry_run_text

    i = inputs
    db, out_path = i.db, i.out_path
    try:
        check_run_options(
            i.mode, i.baseline, i.candidate, i.policy, out_path, None if i.no_save else db
        )
        with suite_source(i.suite) as folder:  # a zipped suite is extracted, bounded
            s = load_suite(folder)
            pol = resolve_policy(i.policy, folder)
        if folder != i.suite:  # the report names the zip the user gave, not a scratch folder
            s = s.model_copy(update={"path": str(i.suite.resolve())})
        if not i.no_save:  # after the suite's own problems, before any judging
            check_db_folder(db)
        name = judge_name(i.judge, model=i.model, base_url=i.base_url, api_key=api_key)
        recorded = dataclasses.replace(i, judge=name).record() if i.batch_api else None
        j = build_judge(
            name,
            pol,
            i.mode,
            db,
            model=i.model,
            base_url=i.base_url,
            api_key=api_key,
            concurrency=i.concurrency,
            batch_tokens=i.batch_tokens,
            max_batch=i.max_batch,
            cascade_margin=i.cascade_margin,
            batch_api=recorded,
        )
        if dry_run:
            text = dry_run_text(j, s, i.mode, i.baseline, i.candidate, i.system)
            if i.batch_api:
                text += "  via the Batch API: results within 24h, at about half the live price\n"
            out.print(text, markup=False, end="")
            raise typer.Exit(0)
        with judge_progress(len(s.cases), enabled=not i.quiet) as tick:
            report = run_suite(s, j, pol, i.mode, i.baseline, i.candidate, i.system, progress=tick)
        if out_path:
            write_report(report, out_path)
        if not i.no_save:
            _save(report, db, out_path)
    except BatchPending as exc:
        err.print(f"pending: {exc}", markup=False)
        raise typer.Exit(EXIT_BATCH_PENDING) from None
    except HalgateError as exc:
        raise fail(exc) from None
    out.print(summary_text(report), markup=False, end="")
    if report.pairwise is not None:
        out.print(pairwise_summary(report.pairwise), markup=False, end="")
    if out_path:
        out.print(f"report written to {out_path}", markup=False)
    if not i.no_save:
        out.print(f"run {report.run_id} saved to {parse_target(db)}", markup=False)
    raise typer.Exit(report.decision.exit_code)
