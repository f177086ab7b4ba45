"""Closed-form intervals of a share or a pooled rate (the bootstrap ones live in
``metrics``, beside the resampling they share)."""

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
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    p = successes / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(
        low=0.0 if successes == 0 else max(0.0, center - half),
        high=1.0 if successes == n else min(1.0, center + half),
        confidence=confidence,
        method="wilson",
    )


def cluster_interval(
    pairs: Sequence[tuple[float, int]], confidence: float = 0.95
) -> Interval | None:
    """Normal interval of the pooled rate sum(numerators) / sum(denominators) with answers as
    clusters (claims of one answer are not independent): the ratio estimator's delta-method
    variance. It measures the sampling of cases only, like the judge's other intervals."""
    x = np.asarray(pairs, dtype=float).reshape(-1, 2)
    m = len(x)
    if m == 0 or x[:, 1].sum() == 0:
        return None
    rate = x[:, 0].sum() / x[:, 1].sum()
    resid = x[:, 0] - rate * x[:, 1]
    se = math.sqrt((resid**2).sum() / (m * max(m - 1, 1))) / x[:, 1].mean()
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    return Interval(
        low=max(0.0, rate - z * se),
        high=min(1.0, rate + z * se),
        confidence=confidence,
        method="cluster",
    )


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
