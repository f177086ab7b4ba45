"""Bootstrap resamples, and their sums kept from one derivation of a run to the next.

A bootstrap's cost is the gather: for each of R resamples, the sums of n rows drawn with
replacement. An overturn changes one answer, so one row of the counts, and each
resample's sum moves by (times that row was drawn) x (its change). ``resampled_sums``
keeps, per seed, size and resample count of a large bootstrap, how often each row was drawn
(a resamples x rows matrix of small counts, 40 MB at 10,000 cases, built from the same
draws the first time) and the last sums it gave; counts that differ from earlier ones in a
few rows get those sums moved by the rows' changes instead of gathered again. The sums are
integers, so the numbers are the same to the last bit (tested against the full gather).
A run's own first derivation keeps nothing (``draws_not_kept``): a review derives the run
again in the process that serves it, and that first gather keeps them; counting the draws
in every run was a tenth of a 2,000-case run's main process.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field

import numpy as np

_MIN_ROWS = 1000  # smaller bootstraps are gathered whole: a few milliseconds
_MAX_KEPT = 50_000_000  # resamples x rows kept at most (100 MB); larger ones are gathered
_MAX_CHANGED = 64  # rows an update may move; more and the gather is redone
_KEEP_SUMS = 12  # recent count arrays per draw (a compare run asks for about nine)
_KEEP_DRAWS = 4


@dataclass
class _Kept:
    times: np.ndarray  # resamples x rows: how often each resample drew each row
    recent: list[tuple[np.ndarray, list[np.ndarray]]] = field(default_factory=list)


_KEPT: OrderedDict[Hashable, _Kept] = OrderedDict()
_LOCK = threading.Lock()
_KEEPING: ContextVar[bool] = ContextVar("halgate_keep_draws", default=True)


@contextlib.contextmanager
def draws_not_kept() -> Iterator[None]:
    """Bootstraps in this block count no draws for later updates (a run's first
    derivation: nothing updates it in place; a review derives it again and keeps them)."""
    token = _KEEPING.set(False)
    try:
        yield
    finally:
        _KEEPING.reset(token)


_CHUNK = 250  # resamples drawn at once: memory stays O(chunk x cases), not O(resamples x cases)


def resample_draws(
    seed: int, n: int, resamples: int, dtype: type[np.integer]
) -> Iterator[np.ndarray]:
    """The rows each resample draws, `_CHUNK` resamples at a time, from one generator in
    order (so a seed gives the same draws as drawing them in the loop).

    The next block is drawn in a thread while the caller gathers with this one: numpy
    lets go of the interpreter lock for both, and drawing was half a bootstrap's time.
    """
    rng = np.random.default_rng(seed)
    sizes = [min(_CHUNK, resamples - start) for start in range(0, resamples, _CHUNK)]
    if len(sizes) <= 1:  # one block or none: nothing to draw ahead
        yield from (rng.integers(0, n, size=(size, n), dtype=dtype) for size in sizes)
        return
    with ThreadPoolExecutor(1, thread_name_prefix="halgate-draws") as pool:
        ahead = pool.submit(rng.integers, 0, n, size=(sizes[0], n), dtype=dtype)
        for size in sizes[1:]:
            idx = ahead.result()
            ahead = pool.submit(rng.integers, 0, n, size=(size, n), dtype=dtype)
            yield idx
        yield ahead.result()


def _resampled_sums(x: np.ndarray, idx: np.ndarray) -> list[np.ndarray]:
    """Each resample's sums of every count column of ``x``, the rows drawn by ``idx``.

    The random gather is the cost of a bootstrap. When no column's sum can reach its share
    of 64 bits (32 bits for two columns, 16 for four) the columns travel packed in one
    unsigned 64-bit word, gathered once instead of once each; the sums are exactly those of
    the columns gathered apart.
    """
    k = x.shape[1]
    bits = 64 // k
    fits = len(x) and x.min() >= 0 and len(x) * int(x.max()) < 2**bits
    if not fits and k > 2:  # four columns that do not fit 16 bits may fit 32 two by two
        return _resampled_sums(x[:, : k // 2], idx) + _resampled_sums(x[:, k // 2 :], idx)
    cols = [np.ascontiguousarray(x[:, j]) for j in range(k)]
    if fits:
        packed = np.zeros(len(x), dtype=np.uint64)
        for j, col in enumerate(cols):
            packed |= col.astype(np.uint64) << np.uint64(bits * (k - 1 - j))
        sums = packed[idx].sum(axis=1, dtype=np.uint64)
        mask = np.uint64(2**bits - 1)
        return [((sums >> np.uint64(bits * (k - 1 - j))) & mask).astype(np.int64) for j in range(k)]
    # One contiguous 1-D gather per column is several times faster than gathering rows.
    return [col[idx].sum(axis=1) for col in cols]


def resampled_sums(
    counts: Mapping[str, np.ndarray], seed: int, resamples: int, dtype: type[np.integer]
) -> dict[str, list[np.ndarray]]:
    """Each count array's per-resample column sums over the draws of (seed, rows,
    resamples): what summing ``_resampled_sums`` over ``resample_draws`` gives, the draws
    made once for all arrays that have to be gathered. Every array has the same rows."""
    n = len(next(iter(counts.values()))) if counts else 0
    key = (seed, n, resamples, np.dtype(dtype).str)
    with _LOCK:
        kept = _KEPT.get(key)
    out: dict[str, list[np.ndarray]] = {}
    if kept is not None:
        for m, x in counts.items():
            moved = _moved(kept, x)
            if moved is not None:
                out[m] = moved
    todo = {m: x for m, x in counts.items() if m not in out}
    if todo:
        keep = kept is None and _KEEPING.get()
        times = _gather(todo, out, seed, n, resamples, dtype, keep=keep)
        if times is not None:
            kept = _Kept(times)
            with _LOCK:
                _KEPT[key] = kept
                while len(_KEPT) > _KEEP_DRAWS:
                    _KEPT.popitem(last=False)
    if kept is not None:
        with _LOCK:
            kept.recent = [(counts[m], out[m]) for m in counts] + kept.recent
            del kept.recent[_KEEP_SUMS:]
    return out


def _moved(kept: _Kept, x: np.ndarray) -> list[np.ndarray] | None:
    """The sums of ``x`` from the kept arrays' sums closest to it, or None when none
    differs from it in few enough rows."""
    with _LOCK:
        recent = list(kept.recent)
    best: tuple[np.ndarray, list[np.ndarray], np.ndarray] | None = None
    for before, sums in recent:
        if before.shape != x.shape:
            continue
        rows = np.flatnonzero((before != x).any(axis=1))
        if len(rows) <= _MAX_CHANGED and (best is None or len(rows) < len(best[2])):
            best = (before, sums, rows)
    if best is None:
        return None
    before, sums, rows = best
    if not len(rows):
        return sums
    change = kept.times[:, rows].astype(np.int64) @ (x[rows] - before[rows])
    return [sums[j] + change[:, j] for j in range(x.shape[1])]


def _gather(
    todo: Mapping[str, np.ndarray],
    out: dict[str, list[np.ndarray]],
    seed: int,
    n: int,
    resamples: int,
    dtype: type[np.integer],
    keep: bool,
) -> np.ndarray | None:
    """Gather ``todo``'s sums into ``out``; with ``keep`` (and a large bootstrap) also
    count how often each resample drew each row, and return those counts."""
    parts: dict[str, list[list[np.ndarray]]] = {m: [] for m in todo}
    small = np.uint16 if n < 2**16 else np.uint32  # a row is drawn at most n times
    keep = keep and _MIN_ROWS <= n and n * resamples <= _MAX_KEPT
    times = np.zeros((resamples, n), dtype=small) if keep else None
    done = 0
    for idx in resample_draws(seed, n, resamples, dtype):
        for m, x in todo.items():
            parts[m].append(_resampled_sums(x, idx))
        if times is not None:
            times[done : done + len(idx)] = _times(idx, n)  # cast on assignment
        done += len(idx)
    for m, x in todo.items():
        chunks = parts[m]
        out[m] = [
            np.concatenate([c[j] for c in chunks]) if chunks else np.zeros(0, np.int64)
            for j in range(x.shape[1])
        ]
    return times


def _times(idx: np.ndarray, n: int) -> np.ndarray:
    """For each resample (row of ``idx``), how often it drew each of the ``n`` rows."""
    flat = (np.arange(len(idx), dtype=np.int64)[:, None] * n + idx).ravel()
    return np.bincount(flat, minlength=len(idx) * n).reshape(len(idx), n)
