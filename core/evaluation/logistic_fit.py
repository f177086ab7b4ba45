"""The logistic fits behind the offline judge's learned model (training only).

scikit-learn fits; the judge applies the fitted weights with numpy (answer_model.Logistic)
and never imports scikit-learn, so it is needed only to calibrate.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import UsageError


def fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float, weights: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """Weights and bias of an L2-penalised logistic regression (the intercept not shrunk),
    each row weighed by `weights` (default 1).

    Minimises sum(log loss) + l2/2 * |w|^2, i.e. scikit-learn's C = 1 / l2. Training only:
    the judge itself applies the weights with numpy and never imports scikit-learn.
    """
    model = _logistic(l2).fit(x, y.astype(int), sample_weight=weights)
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


def fit_standardised(
    x: np.ndarray, y: np.ndarray, l2: float, weights: np.ndarray | None = None
) -> dict[str, Any]:
    """A standardised fit, as the fields of answer_model.Logistic."""
    mean, scale = _standardise(x)
    w, b = fit_logistic((x - mean) / scale, y, l2, weights)
    return {"mean": mean, "scale": scale, "weights": w, "bias": b}
