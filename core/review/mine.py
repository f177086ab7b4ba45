"""A reviewer's own reviews across runs: what the dashboard's "My reviews" page and
``halgate reviews`` list.

"My reviews" are the overrides recorded under the reviewer's identity exactly as it was
recorded (the logged-in user, or the typed name, surrounding spaces ignored: "Ana" is not
"ana"), in every run of the database, newest first by the store's sequence number (the order
they were written in, whatever clocks the writers had). Each says what it did in one phrase
(``override_change``) and whether it is still the review in force of its item (no later
override of the same claim, pair or audited answer, by anyone).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import Field

from ..models import Record
from ..models.review import Override
from ..scoring.corrected import AUDIT_PREFIX
from ..scoring.pairwise_gate import review_id

ReviewKind = Literal["claim", "pair", "audit"]
_PAIR_PREFIX = review_id("")


class OwnReview(Record):
    """One override a reviewer recorded, as their own list of reviews shows it."""

    override: Override
    suite_name: str = Field(description="The suite of the run the override belongs to.")
    kind: ReviewKind = Field(
        description="claim, pair (pairwise:CASE) or audit (an audited answer, audit:CASE:SYSTEM)."
    )
    change: str = Field(description="What it did: 'confirmed', 'verdict=SUPPORTED', 'label=...'.")
    in_force: bool = Field(
        description="No later override of the same item, by anyone: this review decides it."
    )


def review_kind(item_id: str) -> ReviewKind:
    """Whether an override's id names a claim, a pairwise case or an audited answer."""
    if item_id.startswith(_PAIR_PREFIX):
        return "pair"
    if item_id.startswith(AUDIT_PREFIX):
        return "audit"
    return "claim"


def override_change(o: Override) -> str:
    """'verdict=SUPPORTED severity=LOW', 'preference=B', 'label=FAITHFUL' or 'confirmed'."""
    changes = [
        f"{k}={v.value}"
        for k, v in (
            ("verdict", o.verdict),
            ("type", o.hallucination_type),
            ("severity", o.severity),
            ("preference", o.preference),
            ("label", o.label),
        )
        if v is not None
    ]
    return " ".join(changes) or "confirmed"


def is_reviewer(recorded: str, who: str) -> bool:
    """The identity an override was recorded under is ``who`` (spaces around either ignored)."""
    return bool(who.strip()) and recorded.strip() == who.strip()


def own_reviews(
    reviewer: str,
    overrides: Iterable[Override],
    suites: Mapping[str, str],
    latest: Mapping[tuple[str, str], int],
) -> list[OwnReview]:
    """``reviewer``'s overrides among ``overrides``, newest first.

    ``suites`` maps a run id to its suite name; ``latest`` maps (run id, item id) to the id of
    the newest override of that item, which is the one in force.
    """
    mine = sorted((o for o in overrides if is_reviewer(o.reviewer, reviewer)), key=lambda o: -o.id)
    return [
        OwnReview(
            override=o,
            suite_name=suites.get(o.run_id, ""),
            kind=review_kind(o.claim_id),
            change=override_change(o),
            in_force=latest.get((o.run_id, o.claim_id), o.id) == o.id,
        )
        for o in mine
    ]
