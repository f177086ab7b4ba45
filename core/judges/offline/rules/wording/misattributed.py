"""Misattributed: the claim names one document, and its evidence is in another."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput, coverage


class Misattributed(Rule):
    id = "misattributed"
    detects = "a claim pinned on a document whose evidence (or values) sit in another"
    precedence = 20
    verdict = Verdict.CONTRADICTED
    verdict_setting = "citation_error"
    type = HallucinationType.CITATION_ERROR
    signal = "citation_mismatch"

    def fires(self, e: RuleInput) -> bool:
        return e.alignment.citation_mismatch and coverage(e) >= e.thresholds.partial_coverage

    def reason(self, e: RuleInput) -> str:
        al = e.alignment
        return (
            f"Misattributed: the claim names {al.attributed_doc}, but the "
            f"evidence is in {al.evidence_elsewhere}."
        )

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(d for d in (e.alignment.attributed_doc, e.alignment.evidence_elsewhere) if d)


RULE = Misattributed()
