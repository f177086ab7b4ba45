"""Values a text gives as former ones, and claims that speak of the past."""

from __future__ import annotations

import pytest
from halgate.text.former import is_former, speaks_of_the_past
from halgate.text.quantities import extract_quantities


@pytest.mark.parametrize(
    ("text", "former"),
    [
        ("The timeout is now 30 seconds (it was 10 seconds).", [False, True]),
        ("The monthly fee was raised from £50 to £75.", [True, False]),
        ("Storage was previously 5 GB per user; it is now 20 GB.", [True, False]),
        ("The limit changed from 3 to 5 devices.", [True, False]),
        ("Support hours are from 9am to 5pm.", [False, False]),
        ("Refunds are paid within 14 days.", [False]),
    ],
)
def test_a_value_given_as_a_former_one(text: str, former: list[bool]) -> None:
    assert [is_former(text, q) for q in extract_quantities(text)] == former


@pytest.mark.parametrize(
    ("claim", "past"),
    [
        ("The monthly fee used to be £50.", True),
        ("The fee went up from £50 to £75.", True),
        ("Before April the fee was £50.", True),
        ("The monthly fee is £50.", False),
        ("Each user gets 5 GB of storage.", False),
    ],
)
def test_a_claim_that_speaks_of_the_past(claim: str, past: bool) -> None:
    assert speaks_of_the_past(claim) == past
