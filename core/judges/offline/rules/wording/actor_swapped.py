"""Actor swapped: the claim restates a source sentence with another party acting."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class ActorSwapped(Rule):
    id = "actor_swapped"
    detects = (
        "a claim that restates a source sentence with another party acting ('we pay' for "
        "'you pay', 'the company pays' for 'the customer pays')"
    )
    precedence = 16
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "actor_swapped"
    restates = "actor"

    def fires(self, e: RuleInput) -> bool:
        return e.restatement.actor is not None

    def reason(self, e: RuleInput) -> str:
        found = e.restatement.actor
        assert found is not None  # called only when the rule fires
        return (
            f"Contradicted: in the sentence it restates ({found.doc_id}) another party acts: "
            f"{found.says}."
        )


RULE = ActorSwapped()
