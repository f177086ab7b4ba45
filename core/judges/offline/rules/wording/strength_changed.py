"""Strength changed: the claim restates a source sentence asserting more or less strongly
('must' for 'may', 'all' for 'some')."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class StrengthChanged(Rule):
    id = "strength_changed"
    detects = (
        "a claim that restates a source sentence with a modal or quantifier of another "
        "strength in the same place ('must' for 'may', 'all' for 'some')"
    )
    precedence = 18
    verdict = Verdict.UNSUPPORTED
    type = HallucinationType.DISTORTION
    signal = "strength_changed"
    restates = "strength"

    def fires(self, e: RuleInput) -> bool:
        return e.restatement.strength is not None

    def reason(self, e: RuleInput) -> str:
        found = e.restatement.strength
        assert found is not None  # called only when the rule fires
        return (
            f"Unsupported as stated: the sentence it restates ({found.doc_id}) says it with "
            f"another strength: {found.says}."
        )


RULE = StrengthChanged()
