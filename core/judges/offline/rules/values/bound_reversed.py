"""Bound reversed: the claim restates a source sentence with a bound turned round."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class BoundReversed(Rule):
    id = "bound_reversed"
    detects = (
        "a claim that restates a source sentence with a bound turned round ('over' for "
        "'under', 'at most' for 'at least', 'after' for 'before')"
    )
    precedence = 17
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "bound_reversed"
    restates = "bound"

    def fires(self, e: RuleInput) -> bool:
        return e.restatement.bound is not None

    def reason(self, e: RuleInput) -> str:
        found = e.restatement.bound
        assert found is not None  # called only when the rule fires
        return (
            f"Contradicted: the sentence it restates ({found.doc_id}) bounds it the other way: "
            f"{found.says}."
        )


RULE = BoundReversed()
