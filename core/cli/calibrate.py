"""`halgate calibrate`: retrain the offline judge's learned claim model from labelled data.

A thin face over ``evaluation.calibrate``: read the benchmark's tune part, train with a fixed
seed, write the calibration JSON the judge loads (its form: judges/offline/calibration_file.py).
Re-running it with the same inputs writes the same file, so the shipped weights can be checked
by anyone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import HalgateError, UsageError
from .app import app, fail, out


@app.command("calibrate", short_help="Fit the offline judge's claim model to labels.")
def calibrate_command(
    benchmark: Annotated[
        list[Path], typer.Option(help="Benchmark JSONL with labels (repeat to pool several).")
    ],
    out_file: Annotated[Path, typer.Option("--out", help="Calibration JSON to write.")],
    part: Annotated[str, typer.Option(help="Rows to train on: tune (default) or all.")] = "tune",
    seed: Annotated[int, typer.Option(help="Seed of the cross-validation folds.")] = 0,
    base: Annotated[
        Path | None,
        typer.Option(help="Calibration whose rule thresholds to keep (default: the shipped one)."),
    ] = None,
    weight: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=W: weigh the rows of benchmark NAME (its ids' prefix, e.g. "
            "faithbench=0.5) W times in every fit (repeatable; default 1)."
        ),
    ] = None,
    rule_packs: Annotated[
        list[str] | None,
        typer.Option(
            "--rule-packs",
            help="Rule packs the rules and signals run with while fitting (repeat or "
            "comma-separate; default none: the core, what a suite gets by default).",
        ),
    ] = None,
) -> None:
    """Fit the offline judge's one learned model (all benchmarks pooled) and write its
    calibration file."""
    from ..evaluation.benchmark import load_benchmark
    from ..evaluation.calibrate import calibrate
    from ..judges.offline.calibration_file import calibration_json

    if part not in {"tune", "all"}:
        raise fail(UsageError(f"--part must be tune or all, not {part!r} (never the holdout)"))
    try:
        weights = _weights(weight or [])
        rows = [r for b in benchmark for r in load_benchmark(b, part=part)]
        if not rows:
            raise UsageError(f"{benchmark[0]}: no rows in part {part!r}")
        names = [f"{b.parent.name}/{b.name}" for b in benchmark]
        packs = [p.strip() for g in rule_packs or [] for p in g.split(",") if p.strip()]
        cal = calibrate(rows, seed, str(base) if base else None, names, part, weights, packs)
    except HalgateError as exc:
        raise fail(exc) from None
    out_file.write_text(calibration_json(cal), encoding="utf-8")
    if cal.provenance is not None:
        t = cal.provenance.training
        out.print(f"answers {t.n_answers}  claims {t.n_claims}  L2 {t.l2:g}", markup=False)
        for group, m in t.groups.items():
            out.print(
                f"{group:<28} answers {m.n_answers:>5}  out-of-fold AUROC {m.oof_auroc:.3f}  "
                f"bal.acc {m.oof_balanced_accuracy:.3f}",
                markup=False,
            )
    out.print(f"wrote {out_file}", markup=False)


def _weights(specs: list[str]) -> dict[str, float]:
    """`--weight NAME=W` options as {NAME: W}; a malformed one is a usage error."""
    weights = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        try:
            w = float(value)
        except ValueError:
            w = -1.0
        if not sep or not name.strip() or not 0 <= w < float("inf"):
            raise UsageError(f"--weight {spec!r}: expected NAME=W with W a number >= 0")
        weights[name.strip()] = w
    return weights
