"""The self-test's acceptance targets (issue #28, item 2), defined once.

Each target is a share over some generated claims and the least it must reach. A copy of
the source must always be SUPPORTED and never CRITICAL; a change of polarity must be
contradicted; a changed value must never pass; a safety sentence changed on a CRITICAL case
must be CRITICAL or HIGH and reach a reviewer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..models import Severity, Verdict
from .report import SEVERE, SelftestItem, TargetResult, share


@dataclass(frozen=True)
class Goal:
    """A share over the items ``among`` selects that must reach ``least``."""

    name: str
    least: float
    among: Callable[[SelftestItem], bool]
    counts: Callable[[SelftestItem], bool]


def _family(*names: str) -> Callable[[SelftestItem], bool]:
    return lambda i: i.family in names


def _supported(i: SelftestItem) -> bool:
    return i.verdict == Verdict.SUPPORTED


def _not_supported(i: SelftestItem) -> bool:
    return i.verdict is not None and i.verdict != Verdict.SUPPORTED


def _critical_change(i: SelftestItem) -> bool:
    return not i.preserves_truth and i.risk_level == Severity.CRITICAL and i.critical_fact


GOALS = [
    Goal("copies SUPPORTED", 1.0, _family("copy"), _supported),
    Goal("copies never CRITICAL", 1.0, _family("copy"), lambda i: i.severity != Severity.CRITICAL),
    Goal("rewrites SUPPORTED", 0.95, _family("rewrite"), _supported),
    Goal("polarity flips not SUPPORTED", 0.95, _family("polarity"), _not_supported),
    Goal(
        "polarity flips CONTRADICTED",
        0.90,
        _family("polarity"),
        lambda i: i.verdict == Verdict.CONTRADICTED,
    ),
    Goal("values and bounds not SUPPORTED", 0.98, _family("value", "bound"), _not_supported),
    Goal("name and actor swaps not SUPPORTED", 0.90, _family("swap"), _not_supported),
    Goal(
        "dropped conditions, inventions not SUPPORTED",
        0.80,
        _family("restriction", "invention"),
        _not_supported,
    ),
    Goal(
        "CRITICAL cases: changed safety facts CRITICAL/HIGH and queued",
        1.0,
        _critical_change,
        lambda i: i.severity in SEVERE and i.queued,
    ),
]


def check_targets(
    items: Sequence[SelftestItem], goals: Sequence[Goal] = GOALS
) -> list[TargetResult]:
    """Each goal's observed share and whether it is met (null with no claim for it)."""
    out = []
    for g in goals:
        among = [i for i in items if g.among(i)]
        observed = share(sum(g.counts(i) for i in among), len(among))
        out.append(
            TargetResult(
                name=g.name,
                goal=f">= {g.least:.0%}",
                observed=observed,
                claims=len(among),
                met=None if observed is None else observed >= g.least - 1e-9,
            )
        )
    return out
