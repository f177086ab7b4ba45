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
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

import numpy as np
from bench_real_pairs import DEV, load
from halgate.evaluation.benchmark import judge_rows, part_of
from halgate.inputs.policy import Policy
from halgate.judges.build import build_judge
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
    part = parser.parse_args().part
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
