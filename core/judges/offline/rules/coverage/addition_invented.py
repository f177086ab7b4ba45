"""Addition invented: a source sentence copied word for word with a clause joined to it
that the evidence does not hold ("..., and we cover the fee")."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class AdditionInvented(Rule):
    id = "addition_invented"
    detects = (
        "a claim that copies a source sentence word for word and joins to it words the "
        "evidence does not hold"
    )
    precedence = 95
    verdict = Verdict.UNSUPPORTED
    type = HallucinationType.FABRICATION
    signal = "addition_invented"

    def fires(self, e: RuleInput) -> bool:
        return e.restatement.addition is not None

    def reason(self, e: RuleInput) -> str:
        added = e.restatement.addition
        assert added is not None  # called only when the rule fires
        return (
            f"Unsupported: the claim copies the source{e.at} and adds what no evidence "
            f"says: '{added}'."
        )


RULE = AdditionInvented()
