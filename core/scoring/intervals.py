"""Closed-form intervals of a share or a pooled rate (the bootstrap ones live in
``metrics``, beside the resampling they share), and the spread behind the corrected
figures' (``PPISpread``, read by ``corrected``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np

from ..models import Interval


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> Interval | None:
    """Wilson score interval of a share successes / n; None when n is 0."""
    if n == 0:
        return None
    low, high = _wilson_ends(successes, n, confidence)
    return Interval(low=low, high=high, confidence=confidence, method="wilson")


def cluster_interval(
    pairs: Sequence[tuple[float, int]], confidence: float = 0.95
) -> Interval | None:
    """Normal interval of the pooled rate sum(numerators) / sum(denominators) with answers as
    clusters (claims of one answer are not independent): the ratio estimator's delta-method
    variance. It measures the sampling of cases only, like the judge's other intervals.
    Its floor is the Wilson interval of the claims pooled: at a rate near 0 (or 1) the
    cluster variance vanishes (0 fabrications in 40 claims is not proof of none), the
    Wilson one does not, so the interval never has zero width."""
    x = np.asarray(pairs, dtype=float).reshape(-1, 2)
    m = len(x)
    if m == 0 or x[:, 1].sum() == 0:
        return None
    rate = x[:, 0].sum() / x[:, 1].sum()
    resid = x[:, 0] - rate * x[:, 1]
    se = math.sqrt((resid**2).sum() / (m * max(m - 1, 1))) / x[:, 1].mean()
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    cluster = Interval(
        low=max(0.0, rate - z * se),
        high=min(1.0, rate + z * se),
        confidence=confidence,
        method="cluster",
    )
    return with_pooled_floor(cluster, pairs, confidence)


def with_pooled_floor(
    interval: Interval | None, pairs: Sequence[tuple[float, int]], confidence: float = 0.95
) -> Interval | None:
    """``interval`` of a pooled rate widened to the Wilson interval of the pooled counts
    where that is wider: at a rate near 0 or 1 the cluster and bootstrap intervals shrink to
    a point (every resample has 0 of its claims hallucinated), the Wilson one does not."""
    x = np.asarray(pairs, dtype=float).reshape(-1, 2)
    floor = wilson_interval(round(x[:, 0].sum()), round(x[:, 1].sum()), confidence)
    if interval is None or floor is None:
        return interval
    low, high = float(min(interval.low, floor.low)), float(max(interval.high, floor.high))
    return Interval(low=low, high=high, confidence=interval.confidence, method=interval.method)


def t_quantile(confidence: float, df: int) -> float:
    """The two-sided Student-t quantile: exact for 1 and 2 degrees of freedom, else the
    Cornish-Fisher expansion around the normal one (within 1% from 3, 0.1% from 5 on)."""
    p = 1 - (1 - confidence) / 2
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = NormalDist().inv_cdf(p)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
    )
    return z + sum(t / df ** (k + 1) for k, t in enumerate(terms))


def paired_share_change(
    baseline: Sequence[tuple[int, int]],
    candidate: Sequence[tuple[int, int]],
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Newcombe's interval (1998, method 10) of candidate − baseline share over the cases
    both count (denominator 1 on both sides; per case (yes, counted) 0/1 pairs): Wilson
    intervals of the two shares combined with the pairs' correlation. Honest where the
    paired bootstrap is not: no case differing gives it zero width, this one keeps the
    uncertainty of a share of n (0 of 5 abstentions each is not proof of no change).
    None when no case counts on both sides."""
    cells = share_cells(baseline, candidate)
    return newcombe_interval(cells, confidence) if sum(cells) else None


def share_cells(
    baseline: Sequence[tuple[int, int]], candidate: Sequence[tuple[int, int]]
) -> tuple[int, int, int, int]:
    """The paired 2×2 table of the cases both count: (yes on both, baseline only, candidate
    only, neither)."""
    both = [(b[0], c[0]) for b, c in zip(baseline, candidate, strict=True) if b[1] and c[1]]
    yy = sum(1 for b, c in both if b and c)
    yn = sum(1 for b, c in both if b and not c)
    ny = sum(1 for b, c in both if c and not b)
    return yy, yn, ny, len(both) - yy - yn - ny


def newcombe_interval(
    cells: Sequence[float], confidence: float = 0.95, scale: float = 1.0
) -> tuple[float, float]:
    """Newcombe's method 10 on the paired table ``cells`` (``share_cells``), each multiplied
    by ``scale`` (the interval the same shares would give over ``scale`` times the cases:
    the gate's projection). The pairs' correlation φ carries Newcombe's own continuity
    correction (AD − BC less n/2 when AD − BC > n/2, 0 up to it): uncorrected, cases that
    all agree (no case differing) give φ = 1 and, at a share of one half, zero width."""
    yy, yn, ny, nn = (scale * c for c in cells)
    n = yy + yn + ny + nn
    p1, p2 = (yy + yn) / n, (yy + ny) / n
    w1, w2 = _wilson_ends(yy + yn, n, confidence), _wilson_ends(yy + ny, n, confidence)
    denom = (yy + yn) * (ny + nn) * (yy + ny) * (yn + nn)
    ad_bc = yy * nn - yn * ny
    corrected = ad_bc - n / 2 if ad_bc > n / 2 else min(ad_bc, 0.0)
    phi = corrected / math.sqrt(denom) if denom else 0.0
    d = p2 - p1
    down = (p2 - w2[0]) ** 2 - 2 * phi * (p2 - w2[0]) * (w1[1] - p1) + (w1[1] - p1) ** 2
    up = (w2[1] - p2) ** 2 - 2 * phi * (w2[1] - p2) * (p1 - w1[0]) + (p1 - w1[0]) ** 2
    return max(-1.0, d - math.sqrt(max(0.0, down))), min(1.0, d + math.sqrt(max(0.0, up)))


def share_interval_at(
    successes: int, n: int, more: int, confidence: float = 0.95
) -> tuple[float, float] | None:
    """The Wilson interval the same share successes / n would have over ``more`` further
    cases (the gate's projection for a share whose width shrinks like 1/n near 0 or 1)."""
    if n + more == 0:
        return None
    return _wilson_ends(successes * (n + more) / n if n else 0.0, n + more, confidence)


def _wilson_ends(successes: float, n: float, confidence: float) -> tuple[float, float]:
    """The Wilson interval's ends of a share successes / n (counts may be scaled: floats)."""
    if n == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    p = successes / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, center - half)
    return low, 1.0 if successes == n else min(1.0, center + half)


def with_pseudo_labels(
    fl: np.ndarray, yl: np.ndarray, each_way: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """The labelled pairs plus pseudo-pairs, ``each_way`` disagreements each way (the judge
    missed one, and raised one false alarm), for the variance and λ only, never the
    estimate: the Agresti-Coull idea for a mean of few labels. Reviewers who agree with the
    judge on every audited answer (or see no hallucination at all) leave the disagreement
    rate uncertain (0 of 30 does not prove 0), so the interval never has zero width, and λ is
    not tuned on noise. In simulation at 30 labels one each way lifts coverage from 0.85 to
    0.95 (rates, changes); a change of two rates gets ``corrected.CHANGE_PSEUDO`` each way
    (Agresti-Caffo; why two, measured: docs/gate.md, "The corrected figures")."""
    return (
        np.concatenate([fl, [0, 1] * each_way]),
        np.concatenate([yl, [1, 0] * each_way]),
    )


class PPISpread:
    """The labelled pairs' spread behind PPI's variance (the pseudo-labels in it), at the n
    labels there are or projected to m labels of the same shares: each labelled pair then
    weighs m/n and the pseudo-labels stay as many. So a projection keeps what does not shrink
    like 1/√m: the pseudo-labels' share of the rectifier fades like 1/m, and the cases' own
    sampling (Var(f)/N) not at all. σ·√(n/m) would promise decisions no audit can give."""

    def __init__(
        self, fl: np.ndarray, yl: np.ndarray, var_f: float, big_n: int, pseudo: int, noise: float
    ) -> None:
        self.fp, self.yp = with_pseudo_labels(fl, yl, pseudo)
        self.n, self.var_f, self.big_n, self.noise = len(fl), var_f, big_n, noise

    def _cov(self, a: np.ndarray, b: np.ndarray, m: int) -> float:
        w = np.concatenate([np.full(self.n, m / self.n), np.ones(len(a) - self.n)])
        da, db = a - np.average(a, weights=w), b - np.average(b, weights=w)
        return float((w * da * db).sum() / (w.sum() - 1))

    def tuned(self, m: int) -> float:
        """PPI++'s λ at m labels: Cov(f, y) / Var(f), cut to [0, 1]."""
        if self.var_f <= 0:
            return 0.0
        return min(1.0, max(0.0, self._cov(self.fp, self.yp, m) / self.var_f))

    def variance(self, m: int, lam: float) -> float:
        """Var(θ̂) at m labels (module doc)."""
        cov, r = self._cov(self.fp, self.yp, m), self.yp - lam * self.fp
        judged = max(0.0, 2 * lam * cov - lam**2 * self.var_f) + lam**2 * self.noise
        return self._cov(r, r, m) / m + judged / self.big_n
