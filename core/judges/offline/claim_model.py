"""The offline judge's learned combination of alignment signals (numpy only, no training).

The rules of ``judges/offline/judge.py`` name one deciding signal per claim, but on real answers no
single signal separates hallucinated from faithful claims well; a logistic regression over
all of them (and over the answer they sit in) ranks claims far better. Its weights are data
(``data/calibration/offline_v2.json``, written by ``halgate calibrate``), one model per task
type, so a summary is not judged with the habits of a QA answer.

Feature definitions live here only: training (evaluation/calibrate.py) and inference call the
same ``claim_matrix``, so the two cannot drift apart. The caps and windows inside them (at
most 3 unmatched numbers, the first 400 characters for a refusal) are part of what a feature
means, so they stay with its definition; the numbers that decide (each task's threshold and
the decision score) are calibration data.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...models import ClaimJudgement, Verdict
from ...text.words import is_content, tokenize

FEATURES: tuple[str, ...] = (
    "uncovered",  # 1 - support coverage of the best evidence
    "uncovered_best",  # 1 - coverage of the single best passage
    "uncovered_informative",  # like uncovered, framing words ("reviewers say") aside
    "log_missing_informative",  # how many such content stems no evidence holds
    "novel_stems",  # share of claim stems found nowhere in the documents
    "question_overlap",  # share of claim stems in the question
    "retrieval",  # blended BM25/overlap score of the best passage
    "log_stems",  # claim length in content stems
    "numbers_unmatched",
    "number_conflict",
    "names_missing",
    "negation_mismatch",
    "hedge_mismatch",
    "claim_hedged",
    "citation_mismatch",
    "null_field",  # the claim is about a record field that is null (unknown)
    "record_conflict",  # the claim turns a record flag around or misstates opening hours
    "rule_unsupported",
    "rule_contradicted",
    "rule_partial",
    "rule_out_of_scope",
    "position",  # where in the answer the claim sits (0 first .. 1 last)
    "answer_novelty",  # share of the answer's content words absent from the documents
    "answer_log_claims",
    "answer_max_uncovered",
    "answer_mean_uncovered",
    "answer_refusal",  # the answer declines ("unable to answer")
)


@dataclass(frozen=True)
class AnswerContext:
    """Answer-wide facts every claim's score may depend on."""

    novelty: float
    n_claims: int
    max_uncovered: float
    mean_uncovered: float
    refusal: bool


def answer_context(
    claims: Sequence[ClaimJudgement], novelty: float, refusal: bool
) -> AnswerContext:
    """The context of one answer from its rule-judged claims."""
    unc = [1 - float(c.signals.get("support_coverage", 1.0)) for c in claims]
    return AnswerContext(
        novelty=novelty,
        n_claims=len(claims),
        max_uncovered=max(unc, default=0.0),
        mean_uncovered=sum(unc) / len(unc) if unc else 0.0,
        refusal=refusal,
    )


def claim_vector(c: ClaimJudgement, ctx: AnswerContext) -> list[float]:
    """One claim's features, in the order of FEATURES."""
    s = c.signals
    n = int(s.get("n_stems", 0))
    return [
        1 - float(s.get("support_coverage", 1.0)),
        1 - float(s.get("coverage", 1.0)),
        float(s.get("informative_uncovered", 0.0)),
        math.log1p(int(s.get("informative_missing", 0))),
        1 - float(s.get("doc_coverage", 1.0)),
        float(s.get("question_coverage", 0.0)),
        float(s.get("retrieval_score", 0.0)),
        math.log1p(n),
        min(len(s.get("numbers_unmatched", [])), 3),
        float(bool(s.get("number_conflict"))),
        min(len(s.get("names_missing", [])), 3),
        float(bool(s.get("negation_mismatch"))),
        float(bool(s.get("hedge_mismatch"))),
        float(bool(s.get("claim_hedged"))),
        float(bool(s.get("citation_mismatch"))),
        float(bool(s.get("null_fields"))),
        min(len(s.get("record_conflicts", [])), 3),
        float(c.verdict == Verdict.UNSUPPORTED),
        float(c.verdict == Verdict.CONTRADICTED),
        float(c.verdict == Verdict.PARTIALLY_SUPPORTED),
        float(c.verdict == Verdict.OUT_OF_SCOPE),
        c.index / max(ctx.n_claims - 1, 1),
        ctx.novelty,
        math.log1p(ctx.n_claims),
        ctx.max_uncovered,
        ctx.mean_uncovered,
        float(ctx.refusal),
    ]


def claim_matrix(claims: Sequence[ClaimJudgement], ctx: AnswerContext) -> np.ndarray:
    """The feature matrix of an answer's claims (one row per claim)."""
    rows = [claim_vector(c, ctx) for c in claims]
    return np.asarray(rows, dtype=float).reshape(len(rows), len(FEATURES))


def aggregate(probs: np.ndarray, how: str) -> float:
    """An answer's hallucination score from its claims' probabilities.

    'max' trusts the worst claim; 'noisy_or' lets several doubtful claims add up;
    'mean' suits long answers (data-to-text) where one odd claim is common either way.
    """
    if len(probs) == 0:
        return 0.0
    if how == "noisy_or":
        return float(1 - np.prod(1 - probs))
    if how == "mean":
        return float(np.mean(probs))
    return float(np.max(probs))


def platt(score: float, coef: tuple[float, float]) -> float:
    """The Platt-scaled probability of an answer aggregate (identity for (1, 0))."""
    if coef == (1.0, 0.0):
        return score
    s = min(max(score, 1e-6), 1 - 1e-6)
    z = coef[0] * math.log(s / (1 - s)) + coef[1]
    return 1 / (1 + math.exp(-min(max(z, -30.0), 30.0)))


def centre(score: float, threshold: float, at: float) -> float:
    """Map a score in [0, 1] monotonically so the decision threshold lands on `at`."""
    if score < threshold:
        return at * score / threshold
    return at + (1 - at) * (score - threshold) / (1 - threshold)


@dataclass(frozen=True)
class TaskModel:
    """A standardised logistic regression over claims, its answer aggregate and threshold
    (built from the calibration file by calibration_file.load_models; arrays in the order
    of FEATURES)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    how: str
    threshold: float
    #: Platt scaling (slope, intercept on the logit) of the answer aggregate: makes the
    #: scores of different tasks comparable probabilities. (1, 0) leaves them as they are.
    platt: tuple[float, float]
    #: The claim score from which a claim counts as hallucinated (the threshold lands here).
    decision_score: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Hallucination probability of each claim (row of `x`)."""
        z = ((x - self.mean) / self.scale) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def claim_scores(self, x: np.ndarray) -> np.ndarray:
        """Claim scores whose maximum is the answer's centred score (decision at
        ``decision_score``), in the order of the claims' probabilities, so the likeliest
        claim carries the verdict."""
        p = self.predict(x)
        if len(p) == 0:
            return p
        top = float(np.max(p))
        score = platt(aggregate(p, self.how), self.platt)
        answer = centre(score, self.threshold, self.decision_score)
        return p * (answer / top) if top > 0 else p


def model_for(models: dict[str, TaskModel], labels: Sequence[str]) -> TaskModel | None:
    """The model of the first label naming a trained task (None: the rules decide alone).

    Only tasks the model was trained on get it: on other material (a helpdesk suite) the
    hand-set rules, checked against the example suite, are the better judge.
    """
    for label in labels:
        if label and label in models:
            return models[label]
    return None


_REFUSAL = re.compile(
    r"\bunable to (?:answer|determine|provide)\b|\bcannot be (?:answered|determined)\b"
    r"|\b(?:do|does) not (?:provide|contain|include|mention|specify) (?:any |enough |specific )?"
    r"(?:information|details?|answer)\b",
    re.I,
)


def is_refusal(answer: str) -> bool:
    """The answer declines to answer from the passages (RAGTruth's instructed abstention)."""
    return _REFUSAL.search(answer[:400]) is not None


def answer_novelty(answer: str, vocabulary: frozenset[str]) -> float:
    """Share of the answer's content words absent from the documents' vocabulary."""
    words = [t for t in tokenize(answer) if is_content(t)]
    return 0.0 if not words else sum(w not in vocabulary for w in words) / len(words)
