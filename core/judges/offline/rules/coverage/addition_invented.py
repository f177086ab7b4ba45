"""Addition invented: a source sentence copied word for word with a clause joined to it
that the evidence does not hold ("..., and we cover the fee")."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ...restating.extended import invented_addition
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
        return invented_addition(e.claim, e.alignment) is not None

    def reason(self, e: RuleInput) -> str:
        added = invented_addition(e.claim, e.alignment)
        return (
            f"Unsupported: the claim copies the source{e.at} and adds what no evidence "
            f"says: '{added}'."
        )


RULE = AdditionInvented()
