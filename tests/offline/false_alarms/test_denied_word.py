"""A negation turns round the words it denies, not the whole sentence it stands in: "Members
need not queue, as the desk will issue their keys" denies the queueing, and "members will
get their keys from the desk" restates the rest of it faithfully."""

from __future__ import annotations

import pytest
from halgate.models import Document, Verdict

from ...conftest import offline_claims

MARINA = Document(
    doc_id="marina",
    text=(
        "Berth holders who are booked on the summer pontoons need not queue as the harbour "
        "master will hand out their gate keys at the pontoon. "
        "Visitors may not moor on the fuel berth overnight. "
        "Showers are open to berth holders from 6 am to 10 pm."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        # The source's 'not' denies 'queue', a word the claim does not say.
        "Berth holders who are booked on the summer pontoons will get their gate keys at the "
        "pontoon.",
        # The claim's own 'not' denies 'listed', a word the source does not say.
        "Showers are open to berth holders (not listed).",
    ],
)
def test_a_negation_of_words_the_other_side_lacks_is_no_flip(claim: str) -> None:
    (judged,) = offline_claims(claim, [MARINA])
    assert judged.signals["polarity_flip"] is False
    assert judged.verdict is not Verdict.CONTRADICTED


def test_a_negation_of_the_words_both_say_is_still_a_flip() -> None:
    (judged,) = offline_claims("Visitors may moor on the fuel berth overnight.", [MARINA])
    assert judged.deciding_rule == "polarity_flip"
    assert judged.verdict is Verdict.CONTRADICTED
