"""Record conflict: a structured record's field says otherwise (a flag turned around,
opening hours misstated)."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput, coverage


class RecordConflict(Rule):
    id = "record_conflict"
    detects = "a record field the claim turns around (a yes/no flag, opening hours)"
    precedence = 30
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "record_conflicts"

    def fires(self, e: RuleInput) -> bool:
        return bool(e.alignment.record_conflicts) and coverage(e) >= e.thresholds.partial_coverage

    def reason(self, e: RuleInput) -> str:
        return f"Contradicted: the record gives {e.alignment.record_conflicts[0].field}."

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(c.field for c in e.alignment.record_conflicts)


RULE = RecordConflict()
