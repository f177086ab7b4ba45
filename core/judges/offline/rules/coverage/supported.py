"""Supported: the evidence holds enough of the claim's content words."""

from __future__ import annotations

from .....models import Verdict
from ..rule import Rule, RuleInput, coverage


class Supported(Rule):
    id = "supported"
    detects = "evidence that holds at least the support share of the claim's content words"
    precedence = 100
    verdict = Verdict.SUPPORTED
    type = None

    def fires(self, e: RuleInput) -> bool:
        return coverage(e) >= e.thresholds.support_coverage

    def reason(self, e: RuleInput) -> str:
        return (
            f"Supported: {coverage(e):.0%} of the claim's content words are in the evidence{e.at}."
        )


RULE = Supported()
