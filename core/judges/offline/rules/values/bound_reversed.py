"""Bound reversed: the claim restates a source sentence with a bound turned round."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ...restating.restated import restated_passage
from ...restating.swapped import reversed_bound
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

    def fires(self, e: RuleInput) -> bool:
        p = restated_passage(e.claim, e.alignment)
        return p is not None and reversed_bound(e.claim, p) is not None

    def reason(self, e: RuleInput) -> str:
        p = restated_passage(e.claim, e.alignment)
        assert p is not None  # called only when the rule fires
        return (
            f"Contradicted: the sentence it restates ({p.doc_id}) bounds it the other way: "
            f"{reversed_bound(e.claim, p)}."
        )


RULE = BoundReversed()
