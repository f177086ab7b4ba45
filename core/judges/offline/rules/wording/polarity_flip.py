"""Polarity flip: the claim restates a source sentence with its polarity turned round."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class PolarityFlip(Rule):
    id = "polarity_flip"
    detects = (
        "a claim that restates a source sentence with a negation added or dropped, or a "
        "polar word turned round ('allowed' for 'prohibited')"
    )
    precedence = 12
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "polarity_flip"
    restates = "polarity"

    def fires(self, e: RuleInput) -> bool:
        return e.restatement.polarity is not None

    def reason(self, e: RuleInput) -> str:
        found = e.restatement.polarity
        assert found is not None  # called only when the rule fires
        return (
            f"Contradicted: the sentence it restates ({found.doc_id}) says the opposite: "
            f"'{found.says}'."
        )


RULE = PolarityFlip()
