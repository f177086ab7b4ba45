"""Partly covered: the evidence holds part of the claim's content words, not enough."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput, coverage

#: How many missing words a rationale names.
_NAMED = 4


class PartlyCovered(Rule):
    id = "partly_covered"
    detects = "evidence that holds part of the claim's content words (between the thresholds)"
    precedence = 110
    verdict = Verdict.PARTIALLY_SUPPORTED
    type = HallucinationType.DISTORTION

    def fires(self, e: RuleInput) -> bool:
        th = e.thresholds
        return th.partial_coverage <= coverage(e) < th.support_coverage

    def reason(self, e: RuleInput) -> str:
        return (
            f"Partly supported: {coverage(e):.0%} of the content words are in the "
            f"evidence{e.at}; missing: {', '.join(self.about(e))}."
        )

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(e.claim.word_for(s) for s in e.alignment.missing_stems[:_NAMED])


RULE = PartlyCovered()
