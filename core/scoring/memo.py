"""Derivations of a report remembered for as long as the report object lives.

A report is never changed once read (an override makes a new effective report, sharing
the answers it did not touch), so what is derived from one object stays true for it. The
judged report's review queue and audit sample are asked for again after every review; on a
10,000-case run each costs about a second to recompute.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

_T = TypeVar("_T")
_MEMO: dict[tuple[int, Hashable], tuple[weakref.ref[Any], Any]] = {}


def remembered(report: object, key: Hashable, compute: Callable[[], _T]) -> _T:
    """``compute()`` the first time it is asked for ``report`` under ``key``, then the same
    value (the caller must not change it) until the report is garbage collected."""
    slot = (id(report), key)
    hit = _MEMO.get(slot)
    if hit is not None and hit[0]() is report:
        return hit[1]
    value = compute()
    _MEMO[slot] = (weakref.ref(report, lambda _gone: _MEMO.pop(slot, None)), value)
    return value
