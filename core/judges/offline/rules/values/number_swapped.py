"""Number swapped: the claim restates a source sentence with another number in the place
of one of its numbers."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ...restating.restated import restated_passage
from ...restating.swapped import swapped_number
from ..rule import Rule, RuleInput


class NumberSwapped(Rule):
    id = "number_swapped"
    detects = (
        "a claim that restates a source sentence with another number in the place of one "
        "of its numbers ('48 hours' for '24 hours'), even a number the document states elsewhere"
    )
    precedence = 65
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "number_swapped"

    def fires(self, e: RuleInput) -> bool:
        p = restated_passage(e.claim, e.alignment)
        return p is not None and swapped_number(e.claim, p) is not None

    def reason(self, e: RuleInput) -> str:
        p = restated_passage(e.claim, e.alignment)
        assert p is not None  # called only when the rule fires
        return (
            f"Contradicted: the sentence it restates ({p.doc_id}) gives another number there: "
            f"{swapped_number(e.claim, p)}."
        )


RULE = NumberSwapped()
