"""Six LLMs' hallucination rates as the judge reads them and as humans do (issue #28).

RAGTruth's six systems answered the same sources; each system's answers, judged as a plain
user's suite (no task tags, ``task_hints=False``), give its answer-level rate (the share of
its answers the judge calls hallucinated). The acceptance point: the judge ranks the six
like the humans (Spearman >= 0.9) and reads GPT-4 within 0.05 of its human rate.

Printed for every row of the dev file and for its holdout part alone (the judge's model was
fitted on the tune part, so the holdout figure is the honest one). A measurement only: no
variant is chosen on it.

Run: ``nice .venv/bin/python tests/bench/bench_model_rates.py [--part tune]`` (needs
/work/shared; a few minutes for the judge). ``--part tune`` judges the tune part's rows only,
so a session choosing between variants never sees a holdout figure.

The tune part's figure above is read by a model fitted on those very rows: it flatters.
``--out-of-fold`` reads the tune part honestly: every answer flagged by claim and answer
models that never saw it (``calibrate.out_of_fold_flags``, trained as the shipped model is,
on the tune rows of its benchmarks), for each of ``--seeds`` fold draws, and for each class
balance of ``--balance`` (``calibrate.CLASS_BALANCE``): the figure to choose variants on.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

import numpy as np
from bench_real_pairs import DEV, load
from halgate.evaluation.benchmark import judge_rows, load_benchmark, part_of
from halgate.evaluation.calibrate import CLASS_BALANCE, collect, out_of_fold_flags
from halgate.inputs.policy import Policy
from halgate.judges.build import build_judge
from halgate.judges.offline.judge import OfflineJudge
from halgate.models import Mode
from scipy.stats import spearmanr

GPT4 = "gpt-4-0613"


def rates(labels: list[tuple[str, int, int]]) -> dict[str, tuple[int, float, float]]:
    """Per model: answers, the judge's rate and the humans' rate."""
    by_model: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for model, judged, human in labels:
        by_model[model].append((judged, human))
    return {
        m: (len(v), float(np.mean([j for j, _ in v])), float(np.mean([h for _, h in v])))
        for m, v in sorted(by_model.items())
    }


def report(title: str, labels: list[tuple[str, int, int]]) -> None:
    table = rates(labels)
    print(f"\n{title}")
    for m, (n, judged, human) in table.items():
        print(
            f"  {m:<26} n={n:>4}  judge {judged:.3f}  human {human:.3f}  gap {judged - human:+.3f}"
        )
    rho = spearmanr([v[1] for v in table.values()], [v[2] for v in table.values()]).statistic
    n, judged, human = table[GPT4]
    print(f"  Spearman {rho:.3f}; {GPT4} judge {judged:.3f} vs human {human:.3f} "
          f"(|gap| {abs(judged - human):.3f})")  # fmt: skip


def out_of_fold(seeds: list[int], balances: list[float]) -> None:
    """The tune part's six systems read out of fold (module doc)."""
    judge = OfflineJudge(use_model=False)
    made = judge.cal.provenance
    if made is None or made.trained_with.part != "tune":
        sys.exit("the shipped calibration records no tune-part training to repeat")
    trained = made.trained_with
    models = {row.id: meta["model"] for meta, row in load() if part_of(row.id) == "tune"}
    rows = [r for b in trained.benchmarks for r in load_benchmark(DEV.parents[1] / b, part="tune")]
    samples = collect(rows, judge)
    l2 = made.training.l2
    for balance in balances:
        for seed in seeds:
            flags = out_of_fold_flags(samples, l2, seed, balance=balance)
            report(
                f"tune part out of fold, seed {seed}, class balance {balance}",
                [
                    (models[r.id], int(f), int(r.hallucinated))
                    for r, f in zip(rows, flags, strict=True)
                    if r.id in models
                ],
            )


def main() -> None:
    if not DEV.exists():
        sys.exit(f"{DEV} not found")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part",
        choices=("every", "tune", "holdout"),
        default="every",
        help="'tune' judges and prints the tune part only (where variants are chosen), "
        "'holdout' the holdout part only; 'every' (the default) prints all rows, the "
        "holdout part and the tune part",
    )
    parser.add_argument(
        "--out-of-fold",
        action="store_true",
        help="read the tune part with models that never saw each answer (module doc)",
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--balance", type=float, nargs="+", default=[CLASS_BALANCE])
    args = parser.parse_args()
    if args.out_of_fold:
        out_of_fold(args.seeds, args.balance)
        return
    part = args.part
    rows = [(m, r) for m, r in load() if part == "every" or part_of(r.id) == part]
    policy = Policy()
    judge = build_judge("offline", policy, Mode.COMPARE, None)
    preds = judge_rows(judge, [r for _, r in rows], policy, task_hints=False)
    labels = [
        (meta["model"], int(p.hallucinated), int(row.hallucinated), part_of(row.id))
        for (meta, row), p in zip(rows, preds, strict=True)
    ]
    if part == "every":
        report("all rows of the dev file", [(m, j, h) for m, j, h, _ in labels])
    for name in ("holdout", "tune"):
        if part in ("every", name):
            report(f"{name} part", [(m, j, h) for m, j, h, p in labels if p == name])


if __name__ == "__main__":
    main()
