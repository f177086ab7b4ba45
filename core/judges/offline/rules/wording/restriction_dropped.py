"""Restriction dropped: the sentence the claim restates allows it only with a condition,
exception or qualifier the claim leaves out."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ...restating.restated import dropped_restriction, restated_passage
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

    def fires(self, e: RuleInput) -> bool:
        p = restated_passage(e.claim, e.alignment)
        return p is not None and dropped_restriction(e.claim, p) is not None

    def reason(self, e: RuleInput) -> str:
        p = restated_passage(e.claim, e.alignment)
        assert p is not None  # called only when the rule fires
        return (
            f"Unsupported as stated: the source ({p.doc_id}) restricts it: "
            f"'{dropped_restriction(e.claim, p)}'."
        )


RULE = RestrictionDropped()
