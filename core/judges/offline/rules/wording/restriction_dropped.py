"""Restriction dropped: the sentence the claim restates allows it only with a condition,
exception or qualifier the claim leaves out."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class RestrictionDropped(Rule):
    id = "restriction_dropped"
    detects = (
        "a claim that restates a source sentence without its condition or exception "
        "('unless ...', 'only if ...', 'unused')"
    )
    precedence = 85
    verdict = Verdict.UNSUPPORTED
    type = HallucinationType.DISTORTION
    signal = "restriction_dropped"
    restates = "restriction"

    def fires(self, e: RuleInput) -> bool:
        return e.restatement.restriction is not None

    def reason(self, e: RuleInput) -> str:
        found = e.restatement.restriction
        assert found is not None  # called only when the rule fires
        return f"Unsupported as stated: the source ({found.doc_id}) restricts it: '{found.says}'."


RULE = RestrictionDropped()
