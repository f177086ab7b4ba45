"""`halgate selftest`: how well the judge reads a suite's own documents (claims of known
truth generated from the sources, judged as answers to the suite's cases)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import HalgateError, UsageError
from ..models import EXIT_CODES, GateStatus
from .app import app, fail, out

if TYPE_CHECKING:
    from ..judges.protocol import ProgressCallback


@app.command("selftest", short_help="Check the judge on claims generated from the documents.")
def selftest(
    suite: Annotated[Path | None, typer.Argument(help="Suite folder.")] = None,
    benchmark: Annotated[
        Path | None,
        typer.Option(help="Benchmark JSONL: use its rows' source documents instead of a suite."),
    ] = None,
    judge: Annotated[
        str, typer.Option("--judge", "-j", help="Judge to check (offline, llm, cascade).")
    ] = "offline",
    policy: Annotated[
        Path | None,
        typer.Option(help="Policy TOML (severity rules, review severities); default the suite's."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the sentence draw and the swaps.")] = 0,
    per_document: Annotated[
        int, typer.Option(min=1, help="Source sentences drawn per document.")
    ] = 6,
    max_documents: Annotated[
        int | None, typer.Option(min=1, help="Use at most N documents, drawn with the seed.")
    ] = None,
    transform: Annotated[
        list[str] | None,
        typer.Option("--transform", "-t", help="Run only this transform (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    out_path: Annotated[
        Path | None, typer.Option("--out", help="Also write the JSON report to this file.")
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Exit 1 when a target is not met (for CI).")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Generate claims of known truth from the documents (verbatim copies, rewrites,
    polarity flips, changed values, swapped names, dropped conditions...) and report how
    the judge reads them: per transform, per risk level, against the targets."""
    from ..inputs.policy import resolve_policy
    from ..inputs.suite import load_suite
    from ..judges.build import build_judge
    from ..models import Mode
    from ..run.progress import judge_progress
    from ..selftest import (
        benchmark_targets,
        run_selftest,
        sample_documents,
        select_transforms,
        selftest_table,
        suite_targets,
    )

    if (suite is None) == (benchmark is None):
        raise fail(UsageError("give either a SUITE folder or --benchmark FILE"))
    try:
        pol = resolve_policy(policy, suite)
        if suite is not None:
            targets, name = suite_targets(load_suite(suite)), str(suite)
        else:
            assert benchmark is not None  # exactly one, checked above
            targets, name = benchmark_targets(benchmark), str(benchmark)
        targets = sample_documents(targets, max_documents, seed)
        j = build_judge(judge, pol, Mode.COMPARE, None)
        chosen = select_transforms(transform)

        def bar(total: int) -> AbstractContextManager[ProgressCallback]:
            return judge_progress(total, enabled=not quiet and not as_json)

        report = run_selftest(name, targets, j, pol, chosen, seed, per_document, bar)
    except HalgateError as exc:
        raise fail(exc) from None
    if out_path is not None:
        out_path.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    if as_json:
        out.print_json(report.model_dump_json())
    else:
        out.print(selftest_table(report), markup=False, end="")
    if check and any(t.met is False for t in report.targets):
        raise typer.Exit(EXIT_CODES[GateStatus.FAILED])
