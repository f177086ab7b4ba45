"""A claim speaks of a null record field when it names what the field's key is about (its
last word: 'Rental' of 'ElectricBikeRental'), not when it only shares a word that qualifies
it ('electric' lights): such a claim fills no gap the record left open."""

from __future__ import annotations

import json

import pytest
from halgate.models import Document

from ...conftest import offline_claims

HIRE = Document(
    doc_id="hire",
    text=json.dumps(
        {
            "name": "Velo Hub",
            "city": "Ghent",
            "attributes": {"ElectricBikeRental": None, "HelmetIncluded": True},
            "rating": 4.5,
        }
    ),
)


@pytest.mark.parametrize(
    ("claim", "fills_a_gap"),
    [
        ("Velo Hub is known for its bright electric lights and friendly staff.", False),
        # 'rents' names the key's 'Rental'.
        ("Velo Hub rents out electric bikes.", True),
    ],
)
def test_a_null_field_is_spoken_of_by_what_its_key_is_about(claim: str, fills_a_gap: bool):
    (judged,) = offline_claims(claim, [HIRE])
    assert bool(judged.signals["null_fields"]) is fills_a_gap
    assert (judged.deciding_rule == "null_field") is fills_a_gap
