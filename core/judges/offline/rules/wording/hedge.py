"""Hedge: the claim states as fact what its evidence only suggests."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput, coverage


class Hedge(Rule):
    id = "hedge"
    detects = "a flat claim whose evidence only hedges it ('may', 'in some patients')"
    precedence = 90
    verdict = Verdict.UNSUPPORTED
    verdict_setting = "omission_as_fact"
    type = HallucinationType.OMISSION_AS_FACT
    signal = "hedge_mismatch"

    def fires(self, e: RuleInput) -> bool:
        al = e.alignment
        return (
            coverage(e) >= e.thresholds.partial_coverage
            and al.hedge_mismatch
            and al.best is not None
        )

    def reason(self, e: RuleInput) -> str:
        best = e.alignment.best
        hedges = ", ".join(best.hedges[:2]) if best else ""
        return f"Asserted as fact: the source{e.at} only hedges it ({hedges})."

    def about(self, e: RuleInput) -> tuple[str, ...]:
        best = e.alignment.best
        return tuple(best.hedges[:2]) if best else ()


RULE = Hedge()
