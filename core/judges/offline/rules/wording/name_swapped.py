"""Name swapped: the claim restates a source sentence with another name in one slot."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ...restating.swapped import name_restated, swapped_name
from ..rule import Rule, RuleInput


class NameSwapped(Rule):
    id = "name_swapped"
    detects = (
        "a claim that restates a source sentence with a proper name the sentence does not "
        "hold where the sentence names another one ('Anna signs' for 'Tom signs')"
    )
    precedence = 15
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "name_swapped"

    def fires(self, e: RuleInput) -> bool:
        p = name_restated(e.claim, e.alignment)
        return p is not None and swapped_name(e.claim, p) is not None

    def reason(self, e: RuleInput) -> str:
        p = name_restated(e.claim, e.alignment)
        assert p is not None  # called only when the rule fires
        return (
            f"Contradicted: the sentence it restates ({p.doc_id}) names someone else: "
            f"{swapped_name(e.claim, p)}."
        )


RULE = NameSwapped()
