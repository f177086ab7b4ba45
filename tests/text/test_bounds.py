"""Which way a number bounds what it counts, read beside the number."""

from __future__ import annotations

import pytest
from halgate.models import Document
from halgate.text.bounds import bound, range_of
from halgate.text.quantities import extract_quantities

from ..conftest import offline_claims


def bound_of(text: str) -> str | None:
    q = extract_quantities(text)[0]
    found = bound(text, q)
    return found.direction if found else None


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        ("Children under 12 must not take it.", "at most"),
        ("Adults and children over 12 years: take 1 tablet.", "at least"),
        ("Do not take more than 6 tablets.", "at most"),
        ("Don't take more than 6 tablets.", "at most"),
        ("Take no more than 6 tablets.", "at most"),
        ("Take at least 6 tablets.", "at least"),
        ("People aged 65 and over travel free.", "at least"),
        ("Children 12 years old or younger travel free.", "at most"),
        ("Suitable for ages 12+.", "at least"),
        ("Store below 25°C.", "at most"),
        ("Up to 28 weeks of statutory pay apply.", "at most"),
        ("Groups of 3 or fewer are seated at once.", "at most"),
        # the negation is the action's, not the bound's
        ("Do not give to children under 12.", "at most"),
        # a value stated as such
        ("Take 2 tablets with water.", None),
        ("Over the past 5 years sales grew.", None),
    ],
)
def test_the_bound_a_text_puts_on_its_number(text: str, direction: str | None) -> None:
    assert bound_of(text) == direction


def test_the_phrase_shown_is_the_texts_own() -> None:
    text = "Adults and children over  12 years: take 1 tablet."
    found = bound(text, extract_quantities(text)[0])
    assert found is not None and found.phrase == "over 12 years"


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("Cook on low for 6 - 8 hours.", ["6", "8 hours"]),
        ("It takes 6-8 hours.", ["6", "8 hours"]),
        ("Open 10 to 12 days a year.", ["10", "12 days"]),
        ("It takes 6 hours, then 8 hours more.", []),  # two values, no range
    ],
)
def test_a_range_gives_its_two_ends(text: str, ends: list[str]) -> None:
    quantities = extract_quantities(text)
    for q in quantities:
        assert [text[e.start : e.end] for e in range_of(text, q, quantities)] == ends


def test_24_7_says_how_often_and_is_no_value_to_find() -> None:
    """'24/7' is read as '24 hours a day / 7 days a week', not as a ratio no source holds;
    another ratio still is one."""
    docs = [
        Document(doc_id="faq", text="The helpline is available 24 hours a day / 7 days a week.")
    ]
    (always,) = offline_claims("The helpline is available 24/7.", docs)
    assert not always.signals.get("numbers_unmatched"), always.rationale
    (half,) = offline_claims("The helpline is available 12/7.", docs)
    assert half.signals.get("numbers_unmatched") == ["12/7"], half.rationale
