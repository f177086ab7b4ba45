"""Number swapped: the claim restates a source sentence with another number in the place
of one of its numbers."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class NumberSwapped(Rule):
    id = "number_swapped"
    detects = (
        "a claim that restates a source sentence with another number in the place of one "
        "of its numbers ('48 hours' for '24 hours'), even a number the document states elsewhere"
    )
    precedence = 65
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "number_swapped"
    restates = "number"

    def fires(self, e: RuleInput) -> bool:
        return e.restatement.number is not None

    def reason(self, e: RuleInput) -> str:
        found = e.restatement.number
        assert found is not None  # called only when the rule fires
        return (
            f"Contradicted: the sentence it restates ({found.doc_id}) gives another number there: "
            f"{found.says}."
        )


RULE = NumberSwapped()
