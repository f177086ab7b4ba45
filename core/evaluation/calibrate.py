"""Train the offline judge's learned claim model on a labelled benchmark (``halgate calibrate``).

Why a model at all: each alignment signal alone separates hallucinated claims poorly, and
hand-set weights do not transfer between QA answers, summaries and data-to-text. A small
L2-regularised logistic regression per task type, fitted with Newton's method in numpy,
is deterministic, inspectable (one weight per named feature) and cheap at inference.

Honesty: train only on the ``tune`` part; the regularisation strength and the decision
threshold are chosen from out-of-fold predictions (folds shuffled with ``seed``), never from
the rows the figures are reported on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np

from ..errors import UsageError
from ..evidence.index import evidence_index
from ..judges.offline.calibration_file import (
    Calibration,
    LearnedModel,
    Provenance,
    TaskModelParams,
    TaskTraining,
    TrainedWith,
)
from ..judges.offline.claim_model import (
    FEATURES,
    aggregate,
    answer_context,
    answer_novelty,
    claim_matrix,
    is_refusal,
    platt,
)
from ..judges.offline.judge import OfflineJudge
from ..judges.protocol import JudgeTask
from ..models import Case
from .benchmark import BenchRow, auroc

L2_GRID = (0.1, 1.0, 10.0, 100.0, 300.0, 1000.0)
FOLDS = 5
REPEATS = 3  # draws of the folds that model selection averages over
AGGREGATES = ("max", "noisy_or", "mean")
Aggregate = Literal["max", "noisy_or", "mean"]


@dataclass(frozen=True)
class AnswerSample:
    """One labelled answer: its claims' features and labels, and the answer's label."""

    task: str
    x: np.ndarray
    y: np.ndarray
    label: bool


def collect(rows: Sequence[BenchRow], judge: OfflineJudge) -> list[AnswerSample]:
    """Rule-judge every row (model off) and label each claim by overlap with a gold span."""
    out = []
    for r in rows:
        case = Case(case_id=r.id, question=r.question or "", tags=[r.task], domain=r.task)
        task = JudgeTask(case=case, documents=r.documents, answers={"system": r.answer})
        claims = judge.judge_task(task).claims["system"]
        index = evidence_index(r.documents, judge.cal.retrieval.bm25_weight)
        ctx = answer_context(
            claims, answer_novelty(r.answer, index.vocabulary), is_refusal(r.answer)
        )
        y = [_claim_label(c.start, c.end, r) for c in claims]
        x = claim_matrix(claims, ctx)
        out.append(AnswerSample(r.task, x, np.asarray(y, float), r.hallucinated))
    return out


def _claim_label(start: int, end: int, row: BenchRow) -> bool:
    # A hallucinated answer without span labels (WiCE) marks all its claims.
    if row.hallucinated and not row.spans:
        return True
    return any(a < end and start < b for a, b in row.spans)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """Weights and bias of an L2-penalised logistic regression (the intercept not shrunk).

    Minimises sum(log loss) + l2/2 * |w|^2, i.e. scikit-learn's C = 1 / l2. Training only:
    the judge itself applies the weights with numpy and never imports scikit-learn.
    """
    model = _logistic(l2).fit(x, y.astype(int))
    return model.coef_[0].astype(float), float(model.intercept_[0])


def _logistic(l2: float):
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError:  # pragma: no cover - depends on the environment
        raise UsageError(
            "halgate calibrate needs scikit-learn: pip install 'halgate[train]'"
        ) from None
    if l2 <= 0:
        return LogisticRegression(penalty=None, solver="lbfgs", max_iter=5000, tol=1e-10)
    return LogisticRegression(C=1.0 / l2, solver="lbfgs", max_iter=5000, tol=1e-10)


def _standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    return mean, np.where(scale > 1e-9, scale, 1.0)


def _claim_probs(s: AnswerSample, model: dict[str, Any]) -> np.ndarray:
    z = ((s.x - model["mean"]) / model["scale"]) @ model["weights"] + model["bias"]
    return 1 / (1 + np.exp(-np.clip(z, -30, 30)))


def _fit(samples: Sequence[AnswerSample], l2: float) -> dict[str, Any]:
    x = np.vstack([s.x for s in samples if len(s.x)])
    y = np.concatenate([s.y for s in samples if len(s.x)])
    mean, scale = _standardise(x)
    w, b = fit_logistic((x - mean) / scale, y, l2)
    return {"mean": mean, "scale": scale, "weights": w, "bias": b}


def _out_of_fold(samples: Sequence[AnswerSample], l2: float, seed: int) -> list[np.ndarray]:
    """Claim probabilities of each answer from a model that never saw that answer."""
    order = list(range(len(samples)))
    random.Random(seed).shuffle(order)
    probs: list[np.ndarray] = [np.zeros(0)] * len(samples)
    for k in range(FOLDS):
        held = set(order[k::FOLDS])
        model = _fit([s for i, s in enumerate(samples) if i not in held], l2)
        for i in held:
            probs[i] = _claim_probs(samples[i], model)
    return probs


def fit_platt(scores: Sequence[float], labels: Sequence[bool]) -> tuple[float, float]:
    """Slope and intercept mapping logit(score) to the probability that the answer is
    hallucinated (a lightly ridged 1-D logistic regression on out-of-fold scores).

    Probabilities keep each task's share of hallucinated answers, so answers of different
    tasks rank on one scale (the pooled AUROC); the decision cut is then set per task.
    """
    s = np.clip(np.asarray(scores, float), 1e-6, 1 - 1e-6)
    y = np.asarray(labels, float)
    logit = np.log(s / (1 - s))
    mu, sd = float(logit.mean()), float(logit.std())
    if y.min() == y.max() or sd < 1e-9:
        return (1.0, 0.0)
    # Shrink the (standardised) slope lightly, never the intercept.
    slope_std, intercept = fit_logistic(((logit - mu) / sd)[:, None], y, l2=1.0)
    w = (float(slope_std[0]), intercept)
    slope = float(w[0] / sd)
    return (slope, float(w[1] - slope * mu))


def best_threshold(labels: Sequence[bool], scores: Sequence[float]) -> tuple[float, float]:
    """The score cut with the best balanced accuracy, midway between neighbouring scores."""
    y = np.asarray(labels, bool)
    s = np.asarray(scores, float)
    cuts = np.unique(s)
    mids: np.ndarray | list[float] = (
        np.concatenate([(cuts[:-1] + cuts[1:]) / 2, [cuts[-1] + 1e-6]]) if len(cuts) else []
    )
    best = (0.5, -1.0)
    for t in mids:
        pred = s >= t
        tpr = (pred & y).sum() / max(y.sum(), 1)
        tnr = (~pred & ~y).sum() / max((~y).sum(), 1)
        if (tpr + tnr) / 2 > best[1] + 1e-12:
            best = (float(t), float((tpr + tnr) / 2))
    return best


def train_task(samples: Sequence[AnswerSample], seed: int) -> tuple[TaskModelParams, TaskTraining]:
    """One task's model: L2 strength and answer aggregate by out-of-fold AUROC, then the
    threshold with the best out-of-fold balanced accuracy; with the training's figures.

    The folds are drawn REPEATS times (seeds seed, seed+1, ...) and the figures averaged or
    pooled over them: with a few hundred answers per task, one draw of folds alone moves the
    AUROC by a few hundredths, enough to pick a setting by luck.
    """
    labels = [s.label for s in samples]
    tried: dict[tuple[float, str], list[list[float]]] = {}
    for l2 in L2_GRID:
        for r in range(REPEATS):
            probs = _out_of_fold(samples, l2, seed + r)
            for how in AGGREGATES:
                tried.setdefault((l2, how), []).append([aggregate(p, how) for p in probs])

    def mean_auroc(key: tuple[float, str]) -> float:
        return float(np.mean([auroc(labels, scores) or 0.0 for scores in tried[key]]))

    l2, how = max(tried, key=lambda k: (round(mean_auroc(k), 6), k[0]))
    pooled = [a for scores in tried[(l2, how)] for a in scores]
    coef = fit_platt(pooled, labels * REPEATS)
    threshold, bal = best_threshold(labels * REPEATS, [platt(a, coef) for a in pooled])
    model = _fit(samples, l2)
    params = TaskModelParams(
        features=list(FEATURES),
        mean=_round(model["mean"]),
        scale=_round(model["scale"]),
        weights=_round(model["weights"]),
        bias=round(model["bias"], 6),
        aggregate=cast(Aggregate, how),
        platt=(round(coef[0], 6), round(coef[1], 6)),
        threshold=round(min(max(threshold, 1e-4), 1 - 1e-4), 6),
    )
    figures = TaskTraining(
        l2=l2,
        n_answers=len(samples),
        n_claims=int(sum(len(s.x) for s in samples)),
        oof_auroc=round(mean_auroc((l2, how)), 4),
        oof_balanced_accuracy=round(bal, 4),
    )
    return params, figures


def _round(a: np.ndarray) -> list[float]:
    return [round(float(v), 6) for v in a]


def calibrate(
    rows: Sequence[BenchRow],
    seed: int = 0,
    base: str | None = None,
    benchmarks: Sequence[str] = (),
    part: str = "tune",
) -> Calibration:
    """A calibration file: the base's version, rules and score settings (and hard signals)
    plus one newly trained model per task type, and how it was trained (`benchmarks`, `part`)."""
    judge = OfflineJudge(calibration=base, use_model=False)
    samples = collect(rows, judge)
    tasks = sorted({s.task for s in samples})
    trained = {t: train_task([s for s in samples if s.task == t], seed) for t in tasks}
    return judge.cal.model_copy(
        update={
            "model": LearnedModel(
                hard_signals=judge.cal.model.hard_signals if judge.cal.model else [],
                tasks={t: params for t, (params, _) in trained.items()},
            ),
            "provenance": Provenance(
                trained_with=TrainedWith(
                    rows=len(rows), seed=seed, part=part, benchmarks=list(benchmarks)
                ),
                tasks={t: figures for t, (_, figures) in trained.items()},
            ),
        }
    )
