"""`halgate eval-judge`: score a judge against a suite's labels or a benchmark file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import HalgateError, UsageError
from .app import app, fail, out

if TYPE_CHECKING:
    from ..judges.protocol import Judge


@app.command("eval-judge", short_help="Score a judge against labels (suite or benchmark).")
def eval_judge(
    suite: Annotated[Path | None, typer.Argument(help="Suite folder with labels.jsonl.")] = None,
    benchmark: Annotated[
        Path | None,
        typer.Option(
            help="Benchmark JSONL (id, task, documents, answer, label, spans) instead of a suite."
        ),
    ] = None,
    judge: Annotated[
        str,
        typer.Option(
            "--judge",
            "-j",
            help="Judge to score: offline (no network) or llm (the endpoint of "
            "OPENAI_BASE_URL / the config file).",
        ),
    ] = "offline",
    task: Annotated[
        str | None, typer.Option(help="Score only benchmark rows of this task (e.g. qa).")
    ] = None,
    part: Annotated[
        str, typer.Option(help="Benchmark rows: all, tune or holdout (a fixed split by id hash).")
    ] = "all",
    limit: Annotated[
        int | None, typer.Option(help="Score at most N benchmark rows, drawn at random.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random draw of --limit.")] = 0,
    no_task_hints: Annotated[
        bool,
        typer.Option(
            "--no-task-hints",
            help="Do not tell the judge each benchmark row's task (as a tag and domain): "
            "every row is judged as a user's own suite is. The figure to report.",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the scores as JSON instead of a table.")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Do not show the judging progress bar.")
    ] = False,
    by_rule: Annotated[
        bool,
        typer.Option(
            "--by-rule",
            help="Per rule of the judge: how often it fired and decided, and its precision "
            "against the labels (of the suite, the benchmark, or --db's reviewers).",
        ),
    ] = False,
    db: Annotated[
        str | None,
        typer.Option(
            help="With --by-rule, instead of a suite or benchmark: a review database whose "
            "run (--run) is scored on its reviewers' overrides and audit labels."
        ),
    ] = None,
    run: Annotated[
        str | None, typer.Option(help="With --db: the run id or a unique prefix.")
    ] = None,
    rule_packs: Annotated[
        list[str] | None,
        typer.Option(
            "--rule-packs",
            help="Offline judge: rule packs to turn on (repeat or comma-separate; default: "
            "a suite's policy rule_packs, else none).",
        ),
    ] = None,
    compare_packs: Annotated[
        bool,
        typer.Option(
            "--compare-packs",
            help="Figures without and with the rule packs, and every claim whose verdict "
            "they change (ids, verdicts, deciding rules).",
        ),
    ] = False,
) -> None:
    """Score a judge against labels: a suite's labels.jsonl or a benchmark file.

    A benchmark's figures come with 95 % intervals (AUROC: DeLong's; balanced accuracy:
    Agresti-Caffo's) and the judge's AUROC minus the novelty baseline's, paired.
    """
    from ..judges.registry import create_judge

    if sum(x is not None for x in (suite, benchmark, db)) != 1:
        raise fail(UsageError("give either a SUITE folder, --benchmark FILE or --db FILE"))
    if db is not None and not by_rule:
        raise fail(UsageError("--db scores a stored run's rules: it needs --by-rule"))
    if part not in {"all", "tune", "holdout"}:
        raise fail(UsageError(f"--part must be all, tune or holdout, not {part!r}"))
    if db is not None:
        text, data = _by_rule_store(db, run)
        _show(text, data, as_json)
        return
    try:
        packs = _packs(judge, rule_packs, suite)
        if compare_packs:
            text, data = _compare(judge, packs, suite, benchmark, task, part, limit, seed)
            _show(text, data, as_json)
            return
        j = create_judge(judge, **({"rule_packs": packs} if packs else {}))
        if by_rule:
            text, data = _by_rule(
                j, suite, benchmark, task, part, limit, seed, quiet, not no_task_hints
            )
        elif benchmark is not None:
            text, data = _eval_benchmark(
                j, benchmark, task, part, limit, seed, quiet, not no_task_hints
            )
        else:
            from ..evaluation.suite_labels import evaluate_judge_on_suite, scores_table
            from ..inputs.suite import load_suite

            assert suite is not None  # exactly one of suite and benchmark, checked above
            scores = evaluate_judge_on_suite(load_suite(suite), j)
            text, data = scores_table(scores), scores.model_dump(mode="json")
    except HalgateError as exc:
        raise fail(exc) from None
    _show(text, data, as_json)


def _show(text: str, data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        out.print_json(data=data)
    else:
        out.print(text, markup=False, end="")


def _by_rule(
    judge: Judge,
    suite: Path | None,
    benchmark: Path | None,
    task: str | None,
    part: str,
    limit: int | None,
    seed: int,
    quiet: bool,
    task_hints: bool,
) -> tuple[str, dict[str, Any]]:
    """Per-rule figures on a suite's labels or a benchmark's spans."""
    from ..evaluation.benchmark import load_benchmark
    from ..evaluation.by_rule import benchmark_claims, by_rule_result
    from ..evaluation.suite_labels import judge_labelled_suite, labelled_claims
    from ..inputs.suite import load_suite
    from ..run.progress import judge_progress

    if benchmark is not None:
        rows = load_benchmark(benchmark, task, part, limit, seed)
        with judge_progress(len(rows), enabled=not quiet) as tick:
            return by_rule_result(benchmark_claims(judge, rows, tick, task_hints))
    assert suite is not None  # exactly one source, checked by the command
    return by_rule_result(labelled_claims(*judge_labelled_suite(load_suite(suite), judge)))


def _by_rule_store(db: str, run: str | None) -> tuple[str, dict[str, Any]]:
    """Per-rule figures of a stored run on its reviewers' labels (the newest run without
    --run)."""
    from ..evaluation.by_rule import by_rule_result, store_claims
    from .store_commands import store_at

    with store_at(db) as store:
        try:
            if run is None:
                runs = store.list_runs()
                if not runs:
                    raise UsageError(f"{db}: no run stored yet")
                run = runs[0].run_id
            run_id = store.resolve(run)
            report = store.load_report(run_id)
            text, data = by_rule_result(store_claims(report, store.override_history(run_id)))
        except HalgateError as exc:
            raise fail(exc) from None
    return f"run {run_id}\n{text}", {"run_id": run_id, **data}


def _eval_benchmark(
    judge: Judge,
    path: Path,
    task: str | None,
    part: str,
    limit: int | None,
    seed: int,
    quiet: bool,
    task_hints: bool,
) -> tuple[str, dict[str, Any]]:
    from ..evaluation.benchmark import benchmark_table, evaluate_benchmark, load_benchmark
    from ..run.progress import judge_progress

    rows = load_benchmark(path, task, part, limit, seed)
    with judge_progress(len(rows), enabled=not quiet) as tick:
        result = evaluate_benchmark(judge, rows, progress=tick, task_hints=task_hints)
    return benchmark_table(result), result


def _packs(judge: str, given: list[str] | None, suite: Path | None) -> list[str]:
    """The rule packs to judge with: --rule-packs (comma lists split), else a suite's
    policy ``rule_packs``; a pack for a judge without rules, or an unknown one, is an error."""
    from ..inputs.policy import resolve_policy
    from ..judges.build import checked_rule_packs
    from ..judges.offline.rules.table import RuleTableError, rule_table

    if given:
        packs = [p.strip() for g in given for p in g.split(",") if p.strip()]
        if judge not in {"offline", "cascade"}:
            raise UsageError(f"--rule-packs applies to --judge offline or cascade, not {judge}")
        try:
            rule_table(packs)
        except RuleTableError as exc:
            raise UsageError(f"--rule-packs: {exc}") from None
        return packs
    if suite is None or judge not in {"offline", "cascade"}:
        return []
    return checked_rule_packs(resolve_policy(None, suite))


def _compare(
    judge: str,
    packs: list[str],
    suite: Path | None,
    benchmark: Path | None,
    task: str | None,
    part: str,
    limit: int | None,
    seed: int,
) -> tuple[str, dict[str, Any]]:
    """Figures without and with `packs` on the same labelled inputs, and the claims whose
    verdict differs (evaluation/pack_report.py)."""
    from ..evaluation.pack_report import pack_report, verdict_changes
    from ..judges.registry import create_judge

    if not packs:
        raise UsageError("--compare-packs needs rule packs (--rule-packs or the suite's policy)")
    judges = (create_judge(judge), create_judge(judge, rule_packs=packs))
    if benchmark is not None:
        runs = [_bench_run(j, benchmark, task, part, limit, seed) for j in judges]
    elif suite is not None:
        runs = [_suite_run(j, suite) for j in judges]
    else:
        raise UsageError("--compare-packs needs a SUITE folder or --benchmark FILE")
    (fig0, tab0, claims0), (fig1, tab1, claims1) = runs
    changes = verdict_changes(claims0, claims1)
    return pack_report(packs, (fig0, fig1), (tab0, tab1), changes)


def _bench_run(
    judge: Judge,
    path: Path,
    task: str | None,
    part: str,
    limit: int | None,
    seed: int,
) -> tuple[dict[str, Any], str, list[Any]]:
    """One judge's figures, table and claims on a benchmark's rows (no task hints: the
    figure to report)."""
    from ..evaluation.benchmark import (
        benchmark_figures,
        benchmark_table,
        judge_rows_with_claims,
        load_benchmark,
    )
    from ..inputs.policy import Policy

    rows = load_benchmark(path, task, part, limit, seed)
    preds, claims = judge_rows_with_claims(judge, rows, Policy(), None, False)
    figures = benchmark_figures(judge.spec.judge_id, rows, preds, False)
    return figures, benchmark_table(figures), [c for row in claims for c in row]


def _suite_run(judge: Judge, suite: Path) -> tuple[dict[str, Any], str, list[Any]]:
    """One judge's scores, table and claims on a suite's labels."""
    from ..evaluation.suite_labels import judge_labelled_suite, score_analyses, scores_table
    from ..inputs.suite import load_suite

    labels, analyses = judge_labelled_suite(load_suite(suite), judge)
    scores = score_analyses(labels, analyses, judge.spec.judge_id)
    claims = [c for a in analyses for c in a.claims]
    return scores.model_dump(mode="json"), scores_table(scores), claims
