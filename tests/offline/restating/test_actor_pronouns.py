"""The act moved to another party is caught where a pronoun follows 'that', where it is
contracted ("we've"), and in a sentence too short to find with one word swapped."""

from __future__ import annotations

import pytest
from halgate.models import Document, Verdict

from ...conftest import offline_claims

SOURCE = (
    "Open every parcel that you receive within two days of its delivery to the depot. "
    "We've listed our opening hours on the door of the depot for every visitor. "
    "The form is signed by the company."
)


@pytest.mark.parametrize(
    "claim",
    [
        "Open every parcel that we receive within two days of its delivery to the depot.",
        "You've listed our opening hours on the door of the depot for every visitor.",
        "The form is signed by the customer.",
    ],
)
def test_another_party_in_the_actors_place_is_contradicted(claim: str) -> None:
    (judged,) = offline_claims(claim, [Document(doc_id="d", text=SOURCE)], "What do I do?")
    assert (judged.verdict, judged.deciding_rule) == (Verdict.CONTRADICTED, "actor_swapped")


def test_the_same_party_is_supported() -> None:
    claim = "Open every parcel that you receive within two days of its delivery to the depot."
    (judged,) = offline_claims(claim, [Document(doc_id="d", text=SOURCE)], "What do I do?")
    assert judged.verdict == Verdict.SUPPORTED, judged.rationale
