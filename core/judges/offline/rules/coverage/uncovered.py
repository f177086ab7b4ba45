"""Uncovered: too few of the claim's content words are in its evidence (the best passage,
or a few passages together)."""

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
        # The share is of the evidence, not of the sources: words spread over unrelated
        # passages do not support a claim, and the reviewer is told where they are.
        held, anywhere = coverage(e), e.alignment.doc_coverage
        elsewhere = f" ({anywhere:.0%} are somewhere in the sources)" if anywhere > held else ""
        return (
            f"Unsupported: only {held:.0%} of the claim's content words are in its "
            f"evidence{elsewhere}."
        )


RULE = Uncovered()
