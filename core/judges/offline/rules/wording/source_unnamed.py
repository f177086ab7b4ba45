"""Source unnamed: the claim pins its content on a source no document names."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class SourceUnnamed(Rule):
    id = "source_unnamed"
    detects = (
        "a claim that says where its content comes from ('4.0 stars on Google', 'according "
        "to Yelp reviews') naming a source no document names"
    )
    precedence = 75
    verdict = Verdict.UNSUPPORTED
    type = HallucinationType.CITATION_ERROR
    signal = "sources_unnamed"

    def fires(self, e: RuleInput) -> bool:
        return bool(e.alignment.sources_unnamed)

    def reason(self, e: RuleInput) -> str:
        names = ", ".join(e.alignment.sources_unnamed)
        return f"Unsupported: the claim attributes its content to {names}, which no source names."

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(e.alignment.sources_unnamed)


RULE = SourceUnnamed()
