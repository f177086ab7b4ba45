"""When the cyclic garbage collector runs while halgate builds large sets of records.

A run makes millions of small acyclic objects (claims, signals, citations) that live to
its end, and writing a report makes as many short-lived dicts. At CPython's default
thresholds the collector walks them again and again: a quarter of the judging time, and
half of validating a 10,000-case report. Reference counting still frees them.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

#: Allocations between young collections during a run (CPython's default is 700).
RUN_GC_THRESHOLD = 100_000


@contextlib.contextmanager
def relaxed_collector() -> Iterator[None]:
    """Collect young cycles rarely while a run builds its records; cycles wait for a
    later, rarer collection. The old thresholds come back afterwards."""
    old = relax_collector()
    try:
        yield
    finally:
        gc.set_threshold(*old)


def relax_collector() -> tuple[int, ...]:
    """Raise the young-generation threshold to RUN_GC_THRESHOLD; the thresholds before
    (for a worker process, which keeps the setting for its life)."""
    old = gc.get_threshold()
    gc.set_threshold(RUN_GC_THRESHOLD, *old[1:])
    return old


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection at all, for bounded work that makes no cycles (indexing one
    document, serialising one report): each full collection would walk all it built."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
