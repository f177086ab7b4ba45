"""Out of scope: the claim shares almost nothing with the sources or the question."""

from __future__ import annotations

from .....models import Verdict
from ..rule import Rule, RuleInput


class OutOfScope(Rule):
    id = "out_of_scope"
    detects = "a claim without numbers that shares almost nothing with the sources or question"
    precedence = 10
    verdict = Verdict.OUT_OF_SCOPE
    type = None

    def fires(self, e: RuleInput) -> bool:
        al = e.alignment
        off_topic = (
            al.doc_coverage < e.thresholds.out_of_scope_doc_coverage and not al.question_coverage
        )
        return off_topic and not e.claim.quantities

    def reason(self, e: RuleInput) -> str:
        return "Out of scope: the claim shares almost nothing with the sources or the question."


RULE = OutOfScope()
