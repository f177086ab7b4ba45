"""Polarity flip: the claim restates a source sentence with its polarity turned round."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ...restating.restated import polarity_flip, restated_passage
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

    def fires(self, e: RuleInput) -> bool:
        p = restated_passage(e.claim, e.alignment)
        return p is not None and polarity_flip(e.claim, p) is not None

    def reason(self, e: RuleInput) -> str:
        p = restated_passage(e.claim, e.alignment)
        assert p is not None  # called only when the rule fires
        return (
            f"Contradicted: the sentence it restates ({p.doc_id}) says the opposite: "
            f"'{polarity_flip(e.claim, p)}'."
        )


RULE = PolarityFlip()
