"""Bootstrap sums moved by a few rows' changes equal a fresh gather, to the last bit
(issue #31 item 3: an overturn updates the kept sums instead of gathering 20 million rows)."""

from __future__ import annotations

from typing import Any

import numpy as np
from halgate.scoring import resampled
from halgate.scoring.resampled import _resampled_sums, resample_draws, resampled_sums


def _gathered(x: np.ndarray, seed: int, resamples: int) -> list[np.ndarray]:
    chunks = [_resampled_sums(x, idx) for idx in resample_draws(seed, len(x), resamples, np.int32)]
    return [np.concatenate([c[j] for c in chunks]) for j in range(x.shape[1])]


def test_sums_moved_by_changed_rows_equal_a_fresh_gather(monkeypatch):
    monkeypatch.setattr(resampled, "_MIN_ROWS", 10)
    monkeypatch.setattr(resampled, "_KEPT", type(resampled._KEPT)())
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(400, 4)).astype(np.int64)
    first = resampled_sums({"m": x}, 11, 600, np.int32)["m"]
    assert all(np.array_equal(a, b) for a, b in zip(first, _gathered(x, 11, 600), strict=True))
    kept = resampled._KEPT[(11, 400, 600, np.dtype(np.int32).str)]
    calls: list[int] = []
    real = resampled._gather

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(resampled, "_gather", counted)
    for step in range(5):  # one row, then several, then the same counts again
        y = x.copy()
        y[rng.integers(0, 400, size=1 + step * 3)] = rng.integers(0, 5, size=4)
        moved = resampled_sums({"m": y, "same": x}, 11, 600, np.int32)
        assert calls == []  # moved, not gathered
        want = _gathered(y, 11, 600)
        assert all(np.array_equal(a, b) for a, b in zip(moved["m"], want, strict=True))
        assert all(np.array_equal(a, b) for a, b in zip(moved["same"], first, strict=True))
        x, first = y, moved["m"]
    assert kept.times.sum(axis=1).tolist() == [400] * 600  # each resample drew 400 rows
