"""Sequential audit looks: a fixed look schedule with alpha spending, so the corrected
figures stay valid however often one looks while labels accrue.

Labelling on continues the audit sample in draw order (``review.audit``), and the gate is
re-made after each label. A fixed-size interval re-computed after every label would be
wrong more often than its 1 − confidence (peeking: with looks after each of 30 to 300
labels, a 95% t interval missed the truth in 19-31% of simulated audits). So the
interval in force changes only at fixed looks, at k, 2k, 4k, ... labels (k: the policy's
audit size), and the error rate α = 1 − confidence is spent across them:

- the first look (k labels) gets ``FIRST_LOOK_SHARE`` of α (0.8: a 95% interval is read
  at 96% there, about 5% wider than a single-look one);
- every later look (k·2^j labels) gets one common level, the widest that keeps the chance
  that some look misses at most α: found for the correlated looks (they share labels) by a
  fixed-seed simulation, the way group-sequential designs (Pocock) set their boundaries;
- the last look is every eligible answer; an audit whose first look is already all of them
  has no later look and spends all of α there.

So the whole sequence of intervals holds the truth with probability at
least the confidence, whenever the audit stops (``tests/scoring/test_sequential_audit.py``
looks after every label). Between looks the interval of the last look reached stays in
force: labels past it count toward the next look. "Label N more" names the labels to the
first look that would decide at the current variance.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache
from itertools import accumulate
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ..models import AuditInput
from .intervals import t_quantile

FIRST_LOOK_SHARE = 0.8


def look_sizes(first: int, total: int) -> list[int]:
    """The looks: k, 2k, 4k, ... below ``total`` (every eligible answer), then ``total``."""
    if first < 1 or first >= total:
        return [max(first, total)]
    sizes = []
    size = first
    while size < total:
        sizes.append(size)
        size *= 2
    return sizes + [total]


def look_index(first: int, total: int, n: int) -> int:
    """Which look ``n`` labels have reached (0 before and at the first)."""
    return max(0, sum(1 for s in look_sizes(first, total) if s <= n) - 1)


def look_size(first: int, total: int, n: int) -> int:
    """The labels the interval in force rests on: n itself before the first look, else the
    last look reached."""
    if n <= first:
        return n
    return look_sizes(first, total)[look_index(first, total, n)]


def look_confidence(confidence: float, index: int, sizes: Sequence[int]) -> float:
    """The single-look confidence of look ``index`` of the looks at ``sizes`` (module doc):
    a single look spends all of α."""
    if len(sizes) <= 1:
        return confidence
    if index == 0:
        return 1 - (1 - confidence) * FIRST_LOOK_SHARE
    return _later_level(tuple(sizes), confidence)


@lru_cache(maxsize=256)
def _later_level(sizes: tuple[int, ...], confidence: float) -> float:
    """The one confidence of every look after the first: the widest that keeps the chance
    that some look misses at most α, with the first look at its share. Found for the
    correlated looks themselves (a Brownian motion read at ``sizes``: look i and j share
    min/max of their labels), by bisection on a fixed-seed simulation, not the union bound,
    which would make later looks much wider."""
    alpha = 1 - confidence
    rng = np.random.default_rng(_SIM_SEED)
    steps = np.diff(np.asarray((0, *sizes), dtype=float))
    walks = np.cumsum(rng.standard_normal((_SIM_DRAWS, len(sizes))) * np.sqrt(steps), axis=1)
    z = np.abs(walks / np.sqrt(np.asarray(sizes, dtype=float)))
    first_miss = z[:, 0] > NormalDist().inv_cdf(1 - alpha * FIRST_LOOK_SHARE / 2)
    later = z[:, 1:].max(axis=1)
    budget = alpha - _SIM_MARGIN
    low, high = 0.0, 10.0
    for _ in range(50):
        c = (low + high) / 2
        low, high = (c, high) if np.mean(first_miss | (later > c)) > budget else (low, c)
    return 1 - 2 * (1 - NormalDist().cdf(high))


_SIM_SEED = 20261203
_SIM_DRAWS = 50_000
_SIM_MARGIN = 0.003  # the simulation's own error (its sd is about 0.001 at α = 0.05)


def level_at(confidence: float, first: int, total: int, n: int) -> float:
    """The single-look confidence of the interval in force at ``n`` labels."""
    looks = look_sizes(first, total)
    return look_confidence(confidence, look_index(first, total, n), looks)


def labels_to_decide(
    first: int, total: int, n: int, std_error: float, gap: float, confidence: float,
    to_looks: Sequence[int] = (), at_looks: Sequence[float] = (),
) -> int | None:  # fmt: skip
    """Labels beyond ``n`` to the first later look whose interval, at the current variance
    (standard error ``std_error`` at n labels), would be narrower than ``gap`` (the
    estimate's distance to the limit); None when no look would (or none is left). With
    ``to_looks`` (``answers_to_looks``: the audit answers still to label to reach each look),
    that look's count instead of its size − n. ``at_looks``: the standard error the same
    shares would give at each look (``std_error_at_looks``), else std_error·√(n/size)."""
    if n < 2 or gap <= 0:
        return None
    sizes = look_sizes(first, total)
    known = len(at_looks) == len(sizes)
    for j, size in enumerate(sizes):
        if size <= n:
            continue
        q = t_quantile(look_confidence(confidence, j, sizes), size - 1)
        if q * (at_looks[j] if known else std_error * math.sqrt(n / size)) < gap:
            return to_looks[j] if to_looks else size - n
    return None


def looks_reached(first: int, total: int, done: int) -> list[int]:
    """The looks ``done`` units (labelled, past the last look too) have reached."""
    return [s for s in look_sizes(first, total) if s <= done]


def answers_to_looks(
    first: int, total: int, waiting: Sequence[int], ahead: Sequence[int]
) -> list[int]:
    """Audit answers still to label to reach each look (``look_sizes``), when a unit the looks
    count (a case of a change's pairing) holds several answers: at look L, the unlabelled
    answers of the first L units of the draw order. ``waiting``: per unit drawn into the
    sample in force; ``ahead``: per unit after them (one answer a unit past both)."""
    per_unit = [*waiting, *ahead]
    done = list(accumulate(per_unit, initial=0))
    return [
        done[min(size, len(per_unit))] + max(0, size - len(per_unit))
        for size in look_sizes(first, total)
    ]


class Schedule(NamedTuple):
    """A figure's looks in its own units (a system's answers, a pairing's cases) and the audit
    answers still to label to reach each."""

    first: int
    total: int
    to_looks: list[int]


def schedule(
    counted: Collection[str], first_cases: int, drawn: Sequence[str], costs: Sequence[int]
) -> Schedule:
    """The looks of a figure over the cases ``counted`` (a system's rated cases, or the cases
    of a change's pairing), as labelling really proceeds: case by case in draw order
    (``drawn``, as far as known), every system's answers of a case (``costs``: those still
    to label). A case the figure does not count costs its answers all the same, toward the
    figure's next case, and no look lies past the figure's last case: the last look is every
    counted case. The first look: the counted cases among the policy's first
    ``first_cases`` drawn (all its first look's labels, whichever it skips)."""
    units, pending = [], 0
    for case, cost in zip(drawn, costs, strict=False):
        pending += cost
        if case in counted:
            units.append(pending)
            pending = 0
    total = len(counted)
    first = sum(1 for c in drawn[:first_cases] if c in counted) if drawn else first_cases
    first = min(total, max(1, first))
    return Schedule(first, total, answers_to_looks(first, total, units, []))


def draw_order(audit: AuditInput) -> list[str]:
    """The drawn cases in draw order (``audit.order``; a hand-made input without one: each
    system's sample in turn)."""
    return audit.order or list(dict.fromkeys(c for s in audit.sample.values() for c in s))


def audit_costs(audit: AuditInput, by_rule: Collection[str]) -> tuple[list[str], list[int]]:
    """The draw order as far as known (the sample in force, then the cases after it) and,
    per case, the audit answers still to label there, every system's (an answer to a
    should-abstain case, ``by_rule``, is labelled by rule)."""
    order = draw_order(audit)
    drawn = {s: set(cases) for s, cases in audit.sample.items()}
    waiting = [
        0
        if c in by_rule
        else sum(c in cases and c not in audit.labels.get(s, {}) for s, cases in drawn.items())
        for c in order
    ]
    known = len(audit.ahead_cases)
    return [*order, *audit.ahead_cases], [*waiting, *audit.ahead[:known]]


class PairSample(NamedTuple):
    """A change's pairing's own sample: its labelled cases and its looks, in cases of U."""

    labelled: list[str]  # up to the last look reached, labelled on every side that rates them
    first_look: int
    eligible: int
    beyond_look: int  # labelled cases past the last look reached
    answers_to_looks: list[int]  # audit answers still to label to reach each look


def pair_sample(
    audit: AuditInput,
    sides: Sequence[tuple[Collection[str], Collection[str]]],
    first_cases: int,
    by_rule: Collection[str],
) -> PairSample:
    """The drawn cases of U (the cases either side rates) in draw order, cut to the last look
    reached of the pairing's own schedule (``schedule``, in cases of U). ``sides``: per
    system, its rated cases and its labelled drawn ones (by rule too)."""
    union = {c for rated, _ in sides for c in rated}
    looks = schedule(union, first_cases, *audit_costs(audit, by_rule))
    seq = [c for c in draw_order(audit) if c in union]
    cut = look_size(looks.first, looks.total, len(seq))
    waiting = [any(c in rated and c not in done for rated, done in sides) for c in seq]
    return PairSample(
        [c for c, w in zip(seq[:cut], waiting, strict=False) if not w],
        looks.first,
        looks.total,
        sum(not w for w in waiting[cut:]),
        looks.to_looks,
    )
