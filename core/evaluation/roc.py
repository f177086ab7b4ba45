"""How well a judge's scores separate hallucinated from faithful answers, with the error of
that measurement: AUROC, its interval, the paired difference of two scorers, and the
balanced accuracy a threshold reaches.

A judge's quality is measured on a few hundred labelled answers (a holdout of 100 holds about
20 hallucinated ones), so a figure alone overstates what is known: 0.74 on 100 answers is
compatible with 0.65 and with 0.85. Every figure here comes with a 95 % interval whose
coverage is tested by simulation (tests/evaluation/test_roc.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist

import numpy as np

from ..scoring.metrics import wilson_interval


@dataclass(frozen=True)
class FigureInterval:
    """A confidence interval of a judge-quality figure, as eval-judge reports it."""

    low: float
    high: float
    confidence: float
    method: str

    def as_dict(self) -> dict[str, float | str]:
        """The interval as the JSON of eval-judge."""
        return asdict(self)


def auroc(
    labels: Sequence[bool] | np.ndarray, scores: Sequence[float] | np.ndarray
) -> float | None:
    """Area under the ROC curve (Mann-Whitney U with average ranks for ties)."""
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        return None
    return float((_midranks(s)[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def _midranks(x: np.ndarray) -> np.ndarray:
    """1-based ranks, equal values sharing the mean of their ranks."""
    _, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    return ((ends - counts + 1 + ends) / 2)[inverse]


def _placements(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's structural components: for each hallucinated answer the share of faithful
    ones it outscores (ties half), and for each faithful answer the share that outscore it."""
    ranks = _midranks(s)
    pos, neg = y, ~y
    v10 = (ranks[pos] - _midranks(s[pos])) / neg.sum()
    v01 = 1 - (ranks[neg] - _midranks(s[neg])) / pos.sum()
    return v10, v01


def _covariance(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> float:
    """DeLong's covariance of two AUROCs on the same answers (a variance when a is b)."""
    total = 0.0
    for x, w in ((a[0], b[0]), (a[1], b[1])):
        if len(x) > 1:
            total += float(np.cov(x, w, ddof=1)[0, 1]) / len(x)
    return total


def _checked(labels: Sequence[bool] | np.ndarray, scores: Sequence[float] | np.ndarray):
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    if len(y) != len(s):
        raise ValueError(f"{len(y)} labels but {len(s)} scores")
    return y, s


def auroc_interval(
    labels: Sequence[bool] | np.ndarray,
    scores: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
) -> FigureInterval | None:
    """DeLong's interval of the AUROC, taken on the logit scale so it stays inside (0, 1)
    and is not too narrow near 1; None when a class is missing.

    Where the classes are perfectly separated DeLong's variance is 0, which would claim
    certainty from a few answers; the interval is then the Wilson interval of n successes
    in n trials, n the smaller class: as uncertain as a share seen on that many answers.
    """
    y, s = _checked(labels, scores)
    area = auroc(y, s)
    if area is None:
        return None
    comps = _placements(y, s)
    variance = _covariance(comps, comps)
    if variance <= 0 or area in (0.0, 1.0):
        n = min(int(y.sum()), int((~y).sum()))
        share = wilson_interval(n, n, confidence)
        assert share is not None  # n >= 1: both classes are present
        low, high = (share.low, 1.0) if area >= 0.5 else (0.0, 1 - share.low)
        return FigureInterval(low, high, confidence, "wilson-separated")
    centre = math.log(area / (1 - area))
    half = _z(confidence) * math.sqrt(variance) / (area * (1 - area))
    return FigureInterval(
        1 / (1 + math.exp(-(centre - half))),
        1 / (1 + math.exp(-(centre + half))),
        confidence,
        "delong-logit",
    )


@dataclass(frozen=True)
class AurocDifference:
    """AUROC of one scorer minus another's on the same answers, with DeLong's paired
    interval (the two are correlated: both read the same answers)."""

    difference: float
    interval: FigureInterval

    def as_dict(self) -> dict[str, object]:
        """The difference as the JSON of eval-judge."""
        return {"difference": self.difference, "interval": self.interval.as_dict()}


def auroc_difference(
    labels: Sequence[bool] | np.ndarray,
    scores: Sequence[float] | np.ndarray,
    other: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
) -> AurocDifference | None:
    """AUROC(scores) - AUROC(other) with DeLong's paired normal interval (clipped to
    [-1, 1]); None when a class is missing."""
    y, s = _checked(labels, scores)
    _, o = _checked(labels, other)
    a, b = auroc(y, s), auroc(y, o)
    if a is None or b is None:
        return None
    ca, cb = _placements(y, s), _placements(y, o)
    variance = max(_covariance(ca, ca) + _covariance(cb, cb) - 2 * _covariance(ca, cb), 0.0)
    half = _z(confidence) * math.sqrt(variance)
    d = a - b
    interval = FigureInterval(max(d - half, -1.0), min(d + half, 1.0), confidence, "delong-paired")
    return AurocDifference(d, interval)


def balanced_accuracy_interval(
    true_pos: int, false_neg: int, true_neg: int, false_pos: int, confidence: float = 0.95
) -> FigureInterval | None:
    """Interval of the balanced accuracy (recall + specificity) / 2 at a fixed threshold.

    Recall and specificity are independent shares of the two classes; each gets the
    Agresti-Caffo adjustment (one success and one failure added), which keeps a normal
    interval honest on the 20 hallucinated answers a small holdout has, even at 0 % or 100 %.
    None when a class is missing.
    """
    n_pos, n_neg = true_pos + false_neg, true_neg + false_pos
    if n_pos == 0 or n_neg == 0:
        return None
    p = (true_pos + 1) / (n_pos + 2)
    q = (true_neg + 1) / (n_neg + 2)
    centre = (p + q) / 2
    half = _z(confidence) * math.sqrt(p * (1 - p) / (n_pos + 2) + q * (1 - q) / (n_neg + 2)) / 2
    return FigureInterval(
        max(centre - half, 0.0), min(centre + half, 1.0), confidence, "agresti-caffo"
    )
