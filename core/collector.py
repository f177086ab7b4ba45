"""When the cyclic garbage collector runs while halgate builds large sets of records.

A run makes millions of small acyclic objects (claims, signals, citations) that live to
its end, and writing a report makes as many short-lived dicts. At CPython's default
thresholds the collector walks them again and again: a quarter of the judging time, and
half of validating a 10,000-case report. Reference counting still frees them.

What a run's judging built is kept to the run's end; when the collector comes back after
it, it would walk all of it once more (a tenth of a 2,000-case run's main process). Inside
a run those objects are frozen instead (``gc.freeze``: out of the collector's sight, still
freed by reference counting) and handed back to it when the run ends.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

#: Allocations between young collections during a run (CPython's default is 700).
RUN_GC_THRESHOLD = 100_000

_runs = 0  # runs (relaxed_collector) in progress in this process (a server's threads)
_thaw = False  # whether the last of them unfreezes: no freeze was made before the first
_runs_lock = threading.Lock()


@contextlib.contextmanager
def relaxed_collector() -> Iterator[None]:
    """Collect young cycles rarely while a run builds its records; cycles wait for a
    later, rarer collection. The old thresholds come back afterwards, and what the run
    kept frozen goes back to the collector when the last run in progress ends (a freeze
    the caller made before is left alone)."""
    global _runs, _thaw
    old = relax_collector()
    with _runs_lock:
        if not _runs:
            _thaw = gc.get_freeze_count() == 0
        _runs += 1
    try:
        yield
    finally:
        with _runs_lock:
            _runs -= 1
            if not _runs and _thaw:
                gc.unfreeze()  # into the oldest generation, walked only by a full collection
        gc.set_threshold(*old)


def relax_collector() -> tuple[int, ...]:
    """Raise the young-generation threshold to RUN_GC_THRESHOLD; the thresholds before
    (for a worker process, which keeps the setting for its life)."""
    old = gc.get_threshold()
    gc.set_threshold(RUN_GC_THRESHOLD, *old[1:])
    return old


@contextlib.contextmanager
def collector_paused(keep: bool = False) -> Iterator[None]:
    """No cyclic collection at all, for bounded work that makes no cycles (indexing one
    document, serialising one report): each full collection would walk all it built.

    With `keep`, inside a run (relaxed_collector), what was built is frozen when the pause
    ends rather than walked by the next collection: the run keeps it to its end."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if keep and _runs:
                gc.freeze()
            gc.enable()
