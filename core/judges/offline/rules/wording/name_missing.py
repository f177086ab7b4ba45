"""Name missing: a proper name of the claim that no source document (nor the question)
holds."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput, coverage


class NameMissing(Rule):
    id = "name_missing"
    detects = "a proper name found in no source document nor the question"
    precedence = 80
    verdict = Verdict.UNSUPPORTED
    type = HallucinationType.FABRICATION
    signal = "names_missing"

    def fires(self, e: RuleInput) -> bool:
        return bool(e.alignment.names_missing) and coverage(e) < e.thresholds.missing_name_coverage

    def reason(self, e: RuleInput) -> str:
        names = ", ".join(e.alignment.names_missing)
        return f"Unsupported: {names} is named in no source document."

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(e.alignment.names_missing)


RULE = NameMissing()
