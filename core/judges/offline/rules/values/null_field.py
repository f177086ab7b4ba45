"""Null field: the claim states a value of a record field the record leaves empty."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class NullField(Rule):
    id = "null_field"
    detects = "a claim about a record field that is null (unknown) in the record"
    precedence = 70
    verdict = Verdict.UNSUPPORTED
    type = HallucinationType.FABRICATION
    signal = "null_fields"

    def fires(self, e: RuleInput) -> bool:
        return bool(e.alignment.null_fields)

    def reason(self, e: RuleInput) -> str:
        return f"Unsupported: the record leaves {e.alignment.null_fields[0]} empty (null)."

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(e.alignment.null_fields)


RULE = NullField()
