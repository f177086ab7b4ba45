"""A record states how many items its list holds: "based on three customer reviews" where
`review_info` lists three is no invented number (and "six reviews" is still unmatched); a
number joined to capitals by a hyphen is part of a name ("COVID-19", "F-16", "AES-256"),
not a value the sources must state, while "mid-2020" and "under-12" stay values."""

from __future__ import annotations

import json

import pytest
from halgate.models import Document
from halgate.text.quantities import extract_quantities

from ...conftest import offline_claims

RECORD = Document(
    doc_id="listing",
    text=json.dumps(
        {
            "name": "Sublime",
            "business_stars": 2.5,
            "review_info": [
                {"review_stars": 4.0, "review_text": "Food was pretty good, although pricy."},
                {"review_stars": 5.0, "review_text": "Awesome coffee and a nice cafe."},
                {"review_stars": 2.0, "review_text": "The service was slow and sterile."},
            ],
        }
    ),
)


def _unmatched(claim: str) -> list[str]:
    (judged,) = offline_claims(claim, [RECORD])
    return judged.signals["numbers_unmatched"]


@pytest.mark.parametrize("count", ["three", "3"])
def test_a_list_s_length_backs_the_count_of_its_items(count: str) -> None:
    claim = f"Sublime has a rating of 2.5 stars based on {count} customer reviews."
    assert _unmatched(claim) == []


@pytest.mark.parametrize(
    "claim",
    [
        "Sublime has a rating of 2.5 stars based on six customer reviews.",
        # three of something the list does not hold
        "Sublime has a rating of 2.5 stars and three coffee machines.",
    ],
)
def test_another_count_is_still_unmatched(claim: str) -> None:
    assert _unmatched(claim) != []


@pytest.mark.parametrize(
    "text", ["during the COVID-19 pandemic", "the F-16 jet", "encrypted with AES-256"]
)
def test_a_number_joined_to_capitals_is_part_of_a_name(text: str) -> None:
    assert list(extract_quantities(text)) == []


@pytest.mark.parametrize(("text", "value"), [("in mid-2020", 2020.0), ("kids under-12", 12.0)])
def test_a_number_joined_to_a_lower_case_word_is_a_value(text: str, value: float) -> None:
    assert [q.value for q in extract_quantities(text)] == [value]
