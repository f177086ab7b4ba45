"""Listing conflict: a business listing's field says otherwise by that kind of data's own
conventions (its key words and values, a day its opening hours leave out being closed)."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ...conventions import LISTINGS_PACK
from ..rule import Rule, RuleInput, coverage


class ListingConflict(Rule):
    id = "listing_conflict"
    detects = (
        "a business-listing field the claim turns around by the listing's own conventions "
        "('full_bar' affirms alcohol, a day the opening hours leave out is closed)"
    )
    precedence = 31
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION
    signal = "listing_conflicts"
    pack = LISTINGS_PACK

    def fires(self, e: RuleInput) -> bool:
        conflicts = e.alignment.listing_conflicts
        return bool(conflicts) and coverage(e) >= e.thresholds.partial_coverage

    def reason(self, e: RuleInput) -> str:
        return f"Contradicted: the listing gives {e.alignment.listing_conflicts[0].field}."

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(c.field for c in e.alignment.listing_conflicts)


RULE = ListingConflict()
