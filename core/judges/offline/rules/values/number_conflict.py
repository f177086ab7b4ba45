"""Number conflict: the evidence the claim restates gives a different value."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class NumberConflict(Rule):
    id = "number_conflict"
    detects = "a number, date or quantity the evidence it restates gives differently"
    precedence = 50
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "number_conflict"

    def fires(self, e: RuleInput) -> bool:
        al = e.alignment
        return al.number_conflict is not None and al.coverage >= e.thresholds.contradiction_coverage

    def reason(self, e: RuleInput) -> str:
        al = e.alignment
        numbers = ", ".join(al.numbers_unmatched)
        gives = (
            al.values_misread[0]
            if al.values_misread
            else f"gives a different value where the claim says {numbers}"
        )
        return f"Contradicted: the source{e.at} {gives}."

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(e.alignment.numbers_unmatched)


RULE = NumberConflict()
