"""A list item's number ends what stands before a sentence's first word: the capital of
'1  Make a list' says the item starts, not that 'Make' is a name, so "Create a list ..."
restates the item in other words and swaps no name."""

from __future__ import annotations

import pytest
from halgate.models import Document, Verdict
from halgate.text.words import proper_names

from ...conftest import offline_claims

GUIDE = Document(
    doc_id="guide",
    text=(
        "Here is how to join the rowing club: 1  Make a list of all your crew members and "
        "the boats they can row. 2  Pay the fee of 40 euros at the boathouse."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "Create a list of all crew members and the boats they can row.",
        "Write a list of all your crew members and the boats they can row.",
    ],
)
def test_a_verb_that_opens_a_numbered_item_is_no_name(claim: str) -> None:
    (judged,) = offline_claims(claim, [GUIDE])
    assert judged.signals["name_swapped"] is False
    assert judged.verdict is Verdict.SUPPORTED


def test_the_name_finder_reads_an_item_number_as_a_sentence_start() -> None:
    assert proper_names("Steps: 1  Make a list. 2) Hand the fee to Anna Berg.") == ["Anna Berg"]
    assert proper_names("Room 12 Hall") == ["Hall"]  # a number inside a sentence starts none
