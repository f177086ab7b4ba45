"""A condition or exception dropped from the sentence."""

from __future__ import annotations

import pytest

from .helpers import apply


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        ("Refunds are given only if the item is returned.", "Refunds are given."),
        ("The fee is waived unless you cancel late.", "The fee is waived."),
        ("If you are over 65, the pass is free.", "The pass is free."),
        (
            "Unused tickets can be refunded within 14 days.",
            "Tickets can be refunded within 14 days.",
        ),
        ("Refunds go only to the original card.", "Refunds go to the original card."),
    ],
)
def test_the_condition_is_dropped(sentence, claim):
    assert apply("condition_dropped", sentence) == claim


def test_a_sentence_without_a_restriction_is_skipped():
    assert apply("condition_dropped", "The fee is 20 euros per night.") is None
