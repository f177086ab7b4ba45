"""Actor swapped: the claim restates a source sentence with another party acting."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ...restating.restated import restated_passage
from ...restating.swapped import swapped_actor
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

    def fires(self, e: RuleInput) -> bool:
        p = restated_passage(e.claim, e.alignment)
        return p is not None and swapped_actor(e.claim, p) is not None

    def reason(self, e: RuleInput) -> str:
        p = restated_passage(e.claim, e.alignment)
        assert p is not None  # called only when the rule fires
        return (
            f"Contradicted: in the sentence it restates ({p.doc_id}) another party acts: "
            f"{swapped_actor(e.claim, p)}."
        )


RULE = ActorSwapped()
