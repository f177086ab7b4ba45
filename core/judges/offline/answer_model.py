"""From claim probabilities to the answer's verdict: the second stage of the learned model.

A claim model alone cannot say how its claims add up: in a long data-to-text answer one odd
claim is common either way, in a short QA answer the worst claim decides. Rather than a rule
per task, a small logistic regression over the claims' aggregates (worst, mean, noisy-or),
the input's shape and the answer's novelty learns how they combine; it is trained on
out-of-fold claim probabilities with each benchmark's classes weighed equally, so one
decision threshold serves every kind of input.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .claim_model import SHAPE_FEATURES, AnswerContext, InputShape

AGGREGATES: tuple[str, ...] = ("max", "mean", "noisy_or")
_KINDS = ("has_question", "structured_source")

ANSWER_FEATURES: tuple[str, ...] = (
    *(f"logit_{a}" for a in AGGREGATES),
    *SHAPE_FEATURES,
    *(f"logit_{a}*{k}" for k in _KINDS for a in AGGREGATES),
    "novelty",
    *(f"novelty*{k}" for k in _KINDS),
    "log_claims",
    *(f"log_claims*{k}" for k in _KINDS),
    # Long prose (a summary) and a single sentence (a claim to verify) differ in how
    # novelty and the claims add up.
    *(f"{f}*log_answer_words" for f in ("novelty", "logit_max", "logit_mean")),
)


def aggregates(probs: np.ndarray) -> list[float]:
    """The claims' probabilities combined three ways, in the order of AGGREGATES."""
    if len(probs) == 0:
        return [0.0, 0.0, 0.0]
    return [float(np.max(probs)), float(np.mean(probs)), float(1 - np.prod(1 - probs))]


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def answer_vector(probs: np.ndarray, ctx: AnswerContext, shape: InputShape) -> list[float]:
    """One answer's second-stage features, in the order of ANSWER_FEATURES."""
    logits = [_logit(a) for a in aggregates(probs)]
    sv = shape.vector()
    kinds = [sv[SHAPE_FEATURES.index(k)] for k in _KINDS]
    words = sv[SHAPE_FEATURES.index("log_answer_words")]
    log_claims = math.log1p(ctx.n_claims)
    return [
        *logits,
        *sv,
        *(lg * k for k in kinds for lg in logits),
        ctx.novelty,
        *(ctx.novelty * k for k in kinds),
        log_claims,
        *(log_claims * k for k in kinds),
        *(v * words for v in (ctx.novelty, logits[0], logits[1])),
    ]


def centre(score: float, threshold: float, at: float) -> float:
    """Map a score in [0, 1] monotonically so the decision threshold lands on `at`."""
    if score < threshold:
        return at * score / threshold
    return at + (1 - at) * (score - threshold) / (1 - threshold)


@dataclass(frozen=True)
class Logistic:
    """A standardised logistic regression (arrays in the order of its feature list)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The probability of each row of `x`."""
        z = ((x - self.mean) / self.scale) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


@dataclass(frozen=True)
class GeneralModel:
    """The claim model, the answer model over its claims, and where the answer decides
    (built from the calibration file by calibration_file.load_model)."""

    claim: Logistic
    answer: Logistic
    #: Answer probability from which the answer counts as hallucinated.
    threshold: float
    #: The claim score from which a claim counts as hallucinated (the threshold lands here).
    decision_score: float

    def many_claim_scores(
        self, answers: Sequence[tuple[np.ndarray, AnswerContext, InputShape]]
    ) -> list[np.ndarray]:
        """Each answer's claim scores, from its claim feature matrix, context and shape:
        their maximum is the answer's centred score (decision at ``decision_score``), in the
        order of the claims' probabilities, so the likeliest claim carries the verdict. One
        prediction per stage serves all the answers: an answer has a handful of claims, so
        per-answer predictions were mostly overhead."""
        sizes = [len(x) for x, _, _ in answers]
        if not any(sizes):
            return [np.zeros(0) for _ in answers]
        probs = np.split(
            self.claim.predict(np.vstack([x for x, _, _ in answers])), np.cumsum(sizes)[:-1]
        )
        rows = [
            answer_vector(p, ctx, shape)
            for p, (_, ctx, shape) in zip(probs, answers, strict=True)
            if len(p)
        ]
        answer_probs = iter(self.answer.predict(np.asarray(rows, dtype=float)))
        out = []
        for p in probs:
            if len(p) == 0:
                out.append(p)
                continue
            top = float(np.max(p))
            answer = centre(float(next(answer_probs)), self.threshold, self.decision_score)
            out.append(p * (answer / top) if top > 0 else p)
        return out
