"""Learn from the generator (issue #28, item 4): do the self-test's claims help the model?

FactCC-style: the self-test's transforms, run on the sources of the tune part's rows, give
claims of known truth (a copy or rewrite: faithful; a flipped polarity, a changed number,
a dropped condition ...: hallucinated, the changed words its span). They join the natural
tune answers (RAGTruth and WiCE, as ``halgate calibrate`` fits the shipped model) as one
more group, ``gen``, weighed W times. Printed per W and seed: the out-of-fold AUROC of every
natural group (what must hold) and the generated group's.

The holdout part is never read. Caveat: a generated claim and a natural answer may share a
source across folds (the features are lexical signals, not the source's words).

Run: ``nice .venv/bin/python tests/bench/bench_generated_training.py [W ...]`` (needs
/work/shared; about four minutes per weight and seed on a busy 2-core host).
"""

from __future__ import annotations

import hashlib
import sys
from difflib import SequenceMatcher
from pathlib import Path

from halgate.evaluation.benchmark import BenchRow, bench_case, load_benchmark
from halgate.evaluation.calibrate import collect, train_general
from halgate.judges.offline.judge import OfflineJudge
from halgate.models import Document
from halgate.selftest.catalogue import select_transforms
from halgate.selftest.generate import GeneratedClaim, Target, generate_claims

SHARED = Path("/work/shared/benchmarks")
FILES = ("ragtruth", "wice")
WEIGHTS = (0.0, 0.1, 0.25, 0.5)
SEEDS = (0, 1, 2)
PER_DOCUMENT = 3


def generated_rows(rows: list[BenchRow], seed: int = 0) -> list[BenchRow]:
    """The self-test's claims on the rows' distinct source documents, as labelled rows."""
    seen: dict[str, tuple[Document, list[Target]]] = {}
    for row in rows:
        target = Target(bench_case(row, task_hints=False), row.documents)
        for doc in row.documents:
            key = hashlib.sha256(doc.text.encode()).hexdigest()
            seen.setdefault(key, (doc, [target]))
    claims = generate_claims(list(seen.values()), select_transforms(None), seed, PER_DOCUMENT)
    return [_row(i, g) for i, g in enumerate(claims)]


def _row(i: int, g: GeneratedClaim) -> BenchRow:
    wrong = not g.transform.preserves_truth
    return BenchRow(
        id=f"gen-{i}",
        task="generated",
        question=g.target.case.question or None,
        documents=g.target.documents,
        answer=g.text,
        hallucinated=wrong,
        spans=[_changed(g.source, g.text)] if wrong else [],
    )


def _changed(source: str, claim: str) -> tuple[int, int]:
    """The stretch of the claim that differs from its source sentence (at least a
    character either side of a deletion)."""
    ops = [
        op
        for op in SequenceMatcher(None, claim, source, autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]
    if not ops:
        return (0, len(claim))
    start, end = ops[0][1], ops[-1][2]
    return (max(0, start - 1), min(len(claim), max(end, start + 1) + 1))


def main() -> None:
    if not SHARED.exists():
        sys.exit(f"{SHARED} not found")
    rows = [r for f in FILES for r in load_benchmark(SHARED / f / "dev.jsonl", part="tune")]
    extra = generated_rows(rows)
    print(f"{len(rows)} natural tune answers, {len(extra)} generated claims "
          f"({sum(r.hallucinated for r in extra)} hallucinated)", flush=True)  # fmt: skip
    judge = OfflineJudge(use_model=False)
    natural, generated = collect(rows, judge), collect(extra, judge)
    weights = [float(a) for a in sys.argv[1:]] or WEIGHTS
    for w in weights:
        samples = natural + (generated if w else [])
        for seed in SEEDS:
            _, training = train_general(samples, seed, {"gen": w} if w else None)
            figures = "  ".join(f"{g} {m.oof_auroc:.4f}" for g, m in training.groups.items())
            print(f"gen weight {w:<4} seed {seed}  L2 {training.l2:g}  {figures}", flush=True)


if __name__ == "__main__":
    main()
