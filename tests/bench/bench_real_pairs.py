"""Real release pairs: the audit-corrected change on RAGTruth dev (issue #33 acceptance).

Six LLMs answered the same sources in RAGTruth; every pair of them is a release pair
(baseline = the first, candidate = the second) over the sources both answered, with the
humans' answer labels as the truth. The offline judge labels every answer once, without
task hints (a user's suite has no tags). For each pair and audit size n, ``AUDITS`` random
audits of n cases are "labelled" with the humans' labels and the product's estimator
(``scoring.corrected.ppi_mean`` at the first look's level, ``looks``) gives the corrected
change, decided by the product's rule (``scoring.decide.call``) against a 5-point limit.

Printed per audit size: mean interval width, coverage of the pair's true change (the
humans' labels on the same sources), and the share of audits in which the decision is the
right one (FAILED for a true change above the limit, PASSED at or below it) or undecided.
Without the audit: the judge's own decision (paired bootstrap interval, ``metrics``).

Parts: a source is in the tune or the holdout part by ``evaluation.benchmark.part_of`` of
its key (``task:source_id``), so both answers of a pair fall in one part. The figures are
printed for the tune part (where variants are chosen), then the holdout part, then all.

Predictors (``--predictor``): the judge label f in PPI is the answer's 0/1 label (``label``,
the product's), or its answer score (``score``: ``AnswerAnalysis.answer_score``, the largest
claim score). Beside the measured width each line prints the pair's correlation ρ between the
judge's per-case change g and the humans' d, and two bounds no audit of n labels can beat
with that judge: ``oracle`` = 2·t·√(Var(d)(1 − ρ²)/n), PPI with the best λ known in advance
and no small-sample floor; ``neyman`` = 2·t·(Σ_h W_h S_h)/√n, a post-stratified audit on the
judge's g with the ideal Neyman allocation (true within-stratum S_h).

Run: ``nice .venv/bin/python tests/bench/bench_real_pairs.py [--predictor label|score]``
(needs /work/shared; a few minutes for the judge). The dev file is read once, both parts;
choose variants on the tune lines only.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from halgate.evaluation.benchmark import BenchRow, judge_rows, part_of
from halgate.inputs.policy import Policy
from halgate.judges.build import build_judge
from halgate.models import Document, Mode
from halgate.scoring.corrected import CHANGE_PSEUDO, ppi_mean
from halgate.scoring.decide import Call, RuleEvidence, call
from halgate.scoring.intervals import t_quantile
from halgate.scoring.looks import level_at
from halgate.scoring.metrics import paired_bootstrap

DEV = Path("/work/shared/benchmarks/ragtruth/dev.jsonl")
LIMIT = 0.05
AUDITS = 200
SIZES = (30, 60, 100)


def load() -> list[tuple[dict, BenchRow]]:
    import json

    out = []
    for line in DEV.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        row = BenchRow(
            id=r["id"], task=r["task"], question=r.get("question"),
            documents=[Document(doc_id=d["doc_id"], text=d["text"]) for d in r["documents"]],
            answer=r["answer"], hallucinated=r["label"] == "hallucinated", spans=[],
        )  # fmt: skip
        out.append((r["meta"], row))
    return out


def judged(rows: list[tuple[dict, BenchRow]]) -> dict[str, dict[str, tuple[int, float, int]]]:
    """Model -> source key -> (judge label, answer score, human label), judged once."""
    policy = Policy(decide_on="interval")
    judge = build_judge("offline", policy, Mode.COMPARE, None)
    preds = judge_rows(judge, [r for _, r in rows], policy, task_hints=False)
    out: dict[str, dict[str, tuple[int, float, int]]] = defaultdict(dict)
    for (meta, row), p in zip(rows, preds, strict=True):
        key = f"{row.task}:{meta['source_id']}"
        out[meta["model"]][key] = (int(p.hallucinated), p.score, int(row.hallucinated))
    return out


def bounds_at(g: np.ndarray, d: np.ndarray, n: int, q: float) -> tuple[float, float, float]:
    """ρ(g, d), and the oracle-λ and ideal-Neyman widths at n labels (module doc)."""
    rho = float(np.corrcoef(g, d)[0, 1]) if g.std() > 0 and d.std() > 0 else 0.0
    oracle = 2 * q * math.sqrt(d.var() * (1 - rho**2) / n)
    values = np.unique(g)
    strata = np.digitize(g, np.quantile(g, [0.25, 0.5, 0.75])) if len(values) > 6 else g
    spread = sum((strata == h).mean() * d[strata == h].std() for h in np.unique(strata))
    return rho, oracle, 2 * q * spread / math.sqrt(n)


def audits_of(g: np.ndarray, d: np.ndarray, n: int, true: float, policy: Policy) -> tuple:
    """Mean width, coverage, right and undecided shares over ``AUDITS`` audits of n cases."""
    rng = np.random.default_rng([n, len(g), int(1000 * (true + 1))])
    level = level_at(policy.confidence, n, len(g), n)
    right_call = Call.ABOVE if true > LIMIT else Call.BELOW
    width = cover = right = undecided = 0.0
    for _ in range(AUDITS):
        idx = rng.choice(len(g), n, replace=False)
        e = ppi_mean(g, g[idx], d[idx], level, (-1.0, 1.0), pseudo=CHANGE_PSEUDO)
        assert e.low is not None and e.high is not None
        width += e.high - e.low
        cover += e.low <= true <= e.high
        verdict = call(RuleEvidence(e.estimate, e.low, e.high, n, True), LIMIT, policy)
        right += verdict == right_call
        undecided += verdict == Call.UNDECIDED
    q = t_quantile(level, n - 1)
    return (
        width / AUDITS,
        cover / AUDITS,
        right / AUDITS,
        undecided / AUDITS,
        *bounds_at(g, d, n, q),
    )


def part_figures(by_model: dict, part: str, use: int) -> None:
    """Every pair's figures on one part of the sources (``all``: both), and their means."""
    policy = Policy(decide_on="interval")
    totals: dict[int, list[tuple]] = defaultdict(list)
    judge_right = 0
    pairs = list(itertools.combinations(sorted(by_model), 2))  # each pair once, in name order
    for base, cand in pairs:
        common = sorted(
            k for k in set(by_model[base]) & set(by_model[cand]) if part in ("all", part_of(k))
        )
        b = np.array([by_model[base][k] for k in common], dtype=float)
        c = np.array([by_model[cand][k] for k in common], dtype=float)
        d, true = c[:, 2] - b[:, 2], float((c[:, 2] - b[:, 2]).mean())
        jb = paired_bootstrap(
            [(int(x), 1) for x in b[:, 0]], [(int(x), 1) for x in c[:, 0]], 2000, 1
        )
        jcall = call(RuleEvidence(jb.estimate, jb.ci_low, jb.ci_high, len(common)), LIMIT, policy)
        judge_right += jcall == (Call.ABOVE if true > LIMIT else Call.BELOW)
        for n in SIZES:
            if n < len(common):
                totals[n].append(audits_of(c[:, use] - b[:, use], d, n, true, policy))
    print(
        f"\n[{part}] judge alone (paired bootstrap, interval rule): {judge_right} of {len(pairs)}"
    )
    for n, st in totals.items():
        a = np.array(st)
        m = a.mean(axis=0)
        print(f"[{part}] audit {n:>3} over {len(st)} pairs: mean width {m[0]:.3f}, coverage "
              f"{m[1]:.3f} (worst pair {a[:, 1].min():.2f}), right {m[2]:.1%}, undecided "
              f"{m[3]:.1%}, wrong {max(0.0, 1 - m[2] - m[3]):.1%}; rho {m[4]:.2f}, oracle width "
              f"{m[5]:.3f}, neyman {m[6]:.3f}", flush=True)  # fmt: skip


def main() -> None:
    if not DEV.exists():
        sys.exit(f"{DEV} not found")
    use = {"label": 0, "score": 1}[sys.argv[2] if sys.argv[1:2] == ["--predictor"] else "label"]
    by_model = judged(load())
    for part in ("tune", "holdout", "all"):
        part_figures(by_model, part, use)


if __name__ == "__main__":
    main()
