"""Values a claim need not find in the sentence it is aligned to: the top of a rating's
scale ("4.5 out of 5 stars"), and a specific value (a clock time, an amount with its unit)
that another sentence of the sources states, when the aligned sentence gives no value of
its kind. A count ("3 out of 5 rooms"), a changed value, and a value whose aligned sentence
gives another of its kind are still unmatched."""

from __future__ import annotations

import json

import pytest
from halgate.models import Document

from ...conftest import offline_claims

HOTEL = Document(doc_id="hotel", text=json.dumps({"name": "Dune Hotel", "rating": 4.5}))
NOTICE = Document(
    doc_id="notice",
    text=(
        "The harbour board will test the flood sirens across the whole town on Saturday 4 "
        "May. The test is routine and takes place every three years. Residents do not need "
        "to do anything, and no roads will be closed. Timing of the test: the sirens sound "
        "at 11:20 am for three minutes, and a text message follows."
    ),
)
RULES = Document(
    doc_id="rules",
    text="Members may leave the club by giving one month's written notice to the secretary.",
)
HISTORY = Document(
    doc_id="history",
    text="The club was founded one year after the harbour opened, and it owns two boathouses.",
)
SIRENS = "On Saturday 4 May, the harbour board will test the flood sirens across the whole town"


@pytest.mark.parametrize(
    ("claim", "docs", "unmatched"),
    [
        ("Dune Hotel is rated 4.5 out of 5 stars.", [HOTEL], []),
        ("Dune Hotel has a rating of 4.5 out of 5.", [HOTEL], []),
        ("3 out of 5 rooms at Dune Hotel have a sea view.", [HOTEL], ["3", "5"]),
        (f"{SIRENS} at 11:20 am.", [NOTICE], []),
        (f"{SIRENS} for three minutes.", [NOTICE], []),
        (f"{SIRENS} at 11:50 am.", [NOTICE], ["11:50 am"]),
        (
            "Members may leave the club by giving one year's written notice to the secretary.",
            [RULES, HISTORY],
            ["one year"],
        ),
    ],
)
def test_which_values_a_claim_must_find_beside_its_words(
    claim: str, docs: list[Document], unmatched: list[str]
) -> None:
    (judged,) = offline_claims(claim, docs)
    assert judged.signals["numbers_unmatched"] == unmatched
