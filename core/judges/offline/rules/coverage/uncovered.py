"""Uncovered: too few of the claim's content words are in any evidence passage."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput, coverage


class Uncovered(Rule):
    id = "uncovered"
    detects = "evidence that holds less than the partial share of the claim's content words"
    precedence = 120
    verdict = Verdict.UNSUPPORTED
    type = HallucinationType.FABRICATION

    def fires(self, e: RuleInput) -> bool:
        return coverage(e) < e.thresholds.partial_coverage

    def reason(self, e: RuleInput) -> str:
        return (
            f"Unsupported: only {coverage(e):.0%} of the "
            "claim's content words are in any evidence passage."
        )


RULE = Uncovered()
