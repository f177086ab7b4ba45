"""Score a judge on a human-labelled benchmark file (the format of ``shared/benchmarks``).

Each line holds ``id, task, question, documents, answer, label, spans``; the judge sees only
the task, question, documents and answer. Figures are response level (precision, recall, F1,
balanced accuracy at the judge's own decision, AUROC of its answer score, the last two with
95 % intervals), span level (character overlap with the labelled hallucinated spans) and a
confusion matrix, beside the same figures for the trivial *novelty* baseline: the share of
the answer's content words that never occur in the documents; and the judge's AUROC minus
the baseline's with its paired interval, since both read the same answers.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError
from ..inputs.policy import Policy
from ..judges.protocol import Judge, JudgeTask, ProgressCallback
from ..models import HALLUCINATED, AnswerAnalysis, Case, ClaimJudgement, Document
from ..run.guard import guarded_judge
from ..scoring.metrics import f1_score, ratio
from ..scoring.rescore import analysis_of
from ..text.words import is_content, tokenize
from .roc import auroc, auroc_difference, auroc_interval, balanced_accuracy_interval

NOVELTY_THRESHOLD = 0.15  # novelty baseline's fixed default decision threshold
HOLDOUT_SHARE = 0.3  # share of rows (by id hash) kept aside for honest numbers


@dataclass(frozen=True)
class BenchRow:
    """One labelled answer of a benchmark file."""

    id: str
    task: str
    question: str | None
    documents: list[Document]
    answer: str
    hallucinated: bool
    spans: list[tuple[int, int]]


@dataclass(frozen=True)
class Prediction:
    """What a scorer said about one row."""

    hallucinated: bool
    score: float
    spans: list[tuple[int, int]]


def part_of(row_id: str) -> str:
    """'holdout' or 'tune', fixed by a hash of the id (same split for everyone, every run)."""
    h = int(hashlib.sha256(row_id.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "holdout" if h < HOLDOUT_SHARE else "tune"


def load_benchmark(
    path: Path,
    task: str | None = None,
    part: str = "all",
    limit: int | None = None,
    seed: int = 0,
) -> list[BenchRow]:
    """Read a benchmark JSONL; filter by task and part; shuffle with `seed` before `limit`."""
    if not path.exists():
        raise UsageError(f"{path}: benchmark file not found")
    rows = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            row = BenchRow(
                id=str(r["id"]),
                task=r["task"],
                question=r.get("question"),
                documents=[Document(doc_id=d["doc_id"], text=d["text"]) for d in r["documents"]],
                answer=r["answer"],
                hallucinated=r["label"] == "hallucinated",
                spans=[(s["start"], s["end"]) for s in r.get("spans") or []],
            )
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise UsageError(f"{path}:{lineno}: bad benchmark row: {exc}") from None
        if (task is None or row.task == task) and (part == "all" or part_of(row.id) == part):
            rows.append(row)
    if limit is not None:
        random.Random(seed).shuffle(rows)
        rows = rows[:limit]
    return rows


def novelty_score(answer: str, documents: Sequence[Document]) -> float:
    """Share of the answer's content words absent from every document."""
    source = {t for d in documents for t in tokenize(d.text.lower())}
    words = [t for t in tokenize(answer.lower()) if is_content(t)]
    return 0.0 if not words else sum(1 for w in words if w not in source) / len(words)


def predict_novelty(row: BenchRow) -> Prediction:
    """The trivial baseline's prediction."""
    s = novelty_score(row.answer, row.documents)
    return Prediction(hallucinated=s > NOVELTY_THRESHOLD, score=s, spans=[])


def prediction_of(analysis: AnswerAnalysis) -> Prediction:
    """A judge's answer-level decision, score and hallucinated spans."""
    bad = [c for c in analysis.claims if c.verdict in HALLUCINATED]
    return Prediction(
        hallucinated=bool(bad), score=analysis.answer_score, spans=[(c.start, c.end) for c in bad]
    )


def claim_label(start: int, end: int, row: BenchRow) -> bool:
    """Whether a claim at answer[start:end] is hallucinated by the row's labels: it overlaps
    a hallucinated span, or the answer is hallucinated and has no spans (WiCE), which marks
    all its claims."""
    if row.hallucinated and not row.spans:
        return True
    return any(a < end and start < b for a, b in row.spans)


def bench_case(row: BenchRow, task_hints: bool = True) -> Case:
    """The case a judge sees for a benchmark row (its task as tag and domain, or nothing)."""
    return Case(
        case_id=row.id,
        question=row.question or "",
        doc_ids=[d.doc_id for d in row.documents],
        tags=[row.task] if task_hints else [],
        domain=row.task if task_hints else None,
    )


def judge_rows(
    judge: Judge,
    rows: Sequence[BenchRow],
    policy: Policy,
    progress: ProgressCallback | None = None,
    task_hints: bool = True,
) -> list[Prediction]:
    """Run the judge on every row (one task each) and turn the analyses into predictions.

    With `task_hints` off the judge is not told the row's task (no tag, no domain), as for
    a user's own suite: the figure that says what users get.
    """
    return judge_rows_with_claims(judge, rows, policy, progress, task_hints)[0]


def judge_rows_with_claims(
    judge: Judge,
    rows: Sequence[BenchRow],
    policy: Policy,
    progress: ProgressCallback | None = None,
    task_hints: bool = True,
) -> tuple[list[Prediction], list[list[ClaimJudgement]]]:
    """:func:`judge_rows`'s predictions, and every row's judged claims beside them."""
    tasks = [
        JudgeTask(
            case=bench_case(r, task_hints),
            documents=r.documents,
            answers={"system": r.answer},
        )
        for r in rows
    ]
    results = guarded_judge(judge, tasks, progress)
    out, claims = [], []
    for r, res in zip(rows, results, strict=True):
        claims.append(res.claims.get("system", []))
        a = analysis_of(
            r.id,
            "system",
            res.claims.get("system", []),
            policy,
            harness_error=res.errors.get("system"),
        )
        out.append(prediction_of(a))
    return out, claims


def _chars(spans: Iterable[tuple[int, int]]) -> set[int]:
    return {i for a, b in spans for i in range(a, b)}


def response_metrics(rows: Sequence[BenchRow], preds: Sequence[Prediction]) -> dict:
    """Response- and span-level figures of one scorer on some rows."""
    tp = sum(r.hallucinated and p.hallucinated for r, p in zip(rows, preds, strict=True))
    fp = sum(not r.hallucinated and p.hallucinated for r, p in zip(rows, preds, strict=True))
    fn = sum(r.hallucinated and not p.hallucinated for r, p in zip(rows, preds, strict=True))
    tn = len(rows) - tp - fp - fn
    prec, rec = ratio(tp, tp + fp), ratio(tp, tp + fn)
    spec = ratio(tn, tn + fp)
    inter = pred_n = gold_n = 0
    for r, p in zip(rows, preds, strict=True):
        g, q = _chars(r.spans), _chars(p.spans)
        inter, pred_n, gold_n = inter + len(g & q), pred_n + len(q), gold_n + len(g)
    sp, sr = ratio(inter, pred_n), ratio(inter, gold_n)
    labels, scores = [r.hallucinated for r in rows], [p.score for p in preds]
    ba_interval = balanced_accuracy_interval(tp, fn, tn, fp)
    auc_interval = auroc_interval(labels, scores)
    return {
        "n": len(rows),
        "precision": prec,
        "recall": rec,
        "f1": f1_score(prec, rec),
        "balanced_accuracy": None if rec is None or spec is None else (rec + spec) / 2,
        "balanced_accuracy_interval": ba_interval.as_dict() if ba_interval else None,
        "auroc": auroc(labels, scores),
        "auroc_interval": auc_interval.as_dict() if auc_interval else None,
        "span_precision": sp,
        "span_recall": sr,
        "span_f1": f1_score(sp, sr),
        "confusion": {"tp": tp, "fp": fp, "fn": fn, "tn": tn},
    }


def evaluate_benchmark(
    judge: Judge,
    rows: Sequence[BenchRow],
    policy: Policy | None = None,
    progress: ProgressCallback | None = None,
    task_hints: bool = True,
) -> dict:
    """Judge figures overall and per task, each with the novelty baseline's beside them."""
    preds = judge_rows(judge, rows, policy or Policy(), progress, task_hints)
    return benchmark_figures(judge.spec.judge_id, rows, preds, task_hints)


def benchmark_figures(
    judge_id: str, rows: Sequence[BenchRow], preds: Sequence[Prediction], task_hints: bool
) -> dict:
    """The figures of :func:`evaluate_benchmark` from a judge's predictions on the rows."""
    base = [predict_novelty(r) for r in rows]

    def block(idx: list[int]) -> dict:
        rs = [rows[i] for i in idx]
        mine, theirs = [preds[i] for i in idx], [base[i] for i in idx]
        gain = auroc_difference(
            [r.hallucinated for r in rs], [p.score for p in mine], [p.score for p in theirs]
        )
        return {
            **response_metrics(rs, mine),
            "novelty_baseline": response_metrics(rs, theirs),
            "auroc_minus_baseline": gain.as_dict() if gain else None,
        }

    tasks = sorted({r.task for r in rows})
    out = {
        "judge_id": judge_id,
        "task_hints": task_hints,
        "overall": block(list(range(len(rows)))),
    }
    out["per_task"] = {t: block([i for i, r in enumerate(rows) if r.task == t]) for t in tasks}
    return out


_COLUMNS = [
    ("n", "n"),
    ("precision", "prec"),
    ("recall", "rec"),
    ("f1", "F1"),
    ("balanced_accuracy", "bal.acc"),
    ("balanced_accuracy_interval", "95%"),
    ("auroc", "AUROC"),
    ("auroc_interval", "95%"),
    ("span_f1", "span F1"),
]
_WIDE = 12  # an interval's cell: " 0.612-0.843"


def _cell(key: str, value: object) -> str:
    if key == "n":
        return f"{value:>8}"
    if key.endswith("_interval"):
        text = "n/a" if not isinstance(value, dict) else f"{value['low']:.3f}-{value['high']:.3f}"
        return f"{text:>{_WIDE}}"
    return "     n/a" if not isinstance(value, float) else f"{value:8.3f}"


def _row(label: str, m: dict, width: int) -> str:
    c = m["confusion"]
    return (
        f"  {label:<{width}}"
        + "".join(_cell(k, m[k]) for k, _ in _COLUMNS)
        + f"   tp {c['tp']} fp {c['fp']} fn {c['fn']} tn {c['tn']}"
    )


def _gain_line(name: str, gain: dict | None) -> str:
    if gain is None:
        return f"  {name}: judge AUROC minus baseline's: n/a (one class only)"
    iv = gain["interval"]
    return (
        f"  {name}: judge AUROC minus baseline's {gain['difference']:+.3f} "
        f"(95% {iv['low']:+.3f} to {iv['high']:+.3f}, paired)"
    )


def benchmark_table(result: dict) -> str:
    """A table for people: judge and novelty baseline per task and overall, each figure's
    95 % interval beside it, then how far the judge's AUROC is above the baseline's."""
    scopes = [*result["per_task"].items(), ("overall", result["overall"])]
    rows = [
        (f"{name}: {who}", metrics)
        for name, block in scopes
        for who, metrics in (("judge", block), ("novelty baseline", block["novelty_baseline"]))
    ]
    width = max(len("scope / scorer"), *(len(label) for label, _ in rows))
    head = f"  {'scope / scorer':<{width}}" + "".join(
        f"{h:>{_WIDE if k.endswith('_interval') else 8}}" for k, h in _COLUMNS
    )
    lines = [f"judge {result['judge_id']}", head]
    lines += [_row(label, metrics, width) for label, metrics in rows]
    lines += [_gain_line(name, block.get("auroc_minus_baseline")) for name, block in scopes]
    return "\n".join(lines) + "\n"
