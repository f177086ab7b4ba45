"""Name swapped: the claim restates a source sentence with another name in one slot."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
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
    restates = "name"

    def fires(self, e: RuleInput) -> bool:
        return e.restatement.name is not None

    def reason(self, e: RuleInput) -> str:
        found = e.restatement.name
        assert found is not None  # called only when the rule fires
        return (
            f"Contradicted: the sentence it restates ({found.doc_id}) names someone else: "
            f"{found.says}."
        )


RULE = NameSwapped()
