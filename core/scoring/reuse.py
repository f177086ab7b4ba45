"""Derivations reused from one reviewed version of a run to the next.

An override changes one answer: the next derivation of the run shares every other answer
object with the previous one (reports are never changed in place: ``review_run_since``).
A system none of whose answers changed has the same rates, so they are taken from the last
derivation instead of recomputed (half of the rates' cost of an overturn, intervals
included); per-answer facts are remembered per answer object (``memo.remembered``). Each
value is the one the computation gives, looked up only when every input is the same object.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from ..models import AnswerAnalysis, Case, SystemRates
from .metrics import should_abstain_ids, system_rates

_KEEP = 8  # systems of the runs a server has open (two per compare run)
# The answers are held weakly: a finished run's records go when its report does, not at the
# interpreter's exit (whose last collections walked every claim of the run three times).
_RATES: OrderedDict[Hashable, tuple[list[weakref.ref[AnswerAnalysis]], SystemRates]] = OrderedDict()
_LOCK = threading.Lock()


def reused_system_rates(
    analyses: Sequence[AnswerAnalysis],
    system: str,
    count_out_of_scope: bool,
    cases: Sequence[Case],
    resamples: int,
    seed: int,
    confidence: float,
) -> SystemRates:
    """``system_rates(...)``; the last value for the same answer objects and parameters."""
    mine = [a for a in analyses if a.system == system]
    abstain = frozenset(should_abstain_ids(cases))
    key = (system, count_out_of_scope, abstain, resamples, seed, confidence)
    with _LOCK:
        hit = _RATES.get(key)
    if hit is not None and len(hit[0]) == len(mine) and all(map(_same, hit[0], mine)):
        return hit[1]
    rates = system_rates(mine, system, count_out_of_scope, cases, resamples, seed, confidence)
    with _LOCK:
        _RATES[key] = ([weakref.ref(a) for a in mine], rates)
        _RATES.move_to_end(key)
        while len(_RATES) > _KEEP:
            _RATES.popitem(last=False)
    return rates


def _same(kept: weakref.ref[AnswerAnalysis], a: AnswerAnalysis) -> bool:
    return kept() is a
