"""Negation: the source denies what the claim asserts, or asserts what it denies."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput, coverage


class Negation(Rule):
    id = "negation"
    detects = "the evidence states the opposite (negation) on the words the claim uses"
    precedence = 40
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "negation_mismatch"

    def fires(self, e: RuleInput) -> bool:
        return e.alignment.negation_mismatch and coverage(e) >= e.thresholds.contradiction_coverage

    def reason(self, e: RuleInput) -> str:
        return f"Contradicted: the source{e.at} states the opposite (negation) on the same words."


RULE = Negation()
