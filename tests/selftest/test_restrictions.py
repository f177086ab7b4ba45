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
        (
            "You can put the flag out only after you have removed the blue field.",
            "You can put the flag out.",
        ),
        ("The pass is free, provided you show an ID card.", "The pass is free."),
        (  # a list item's number goes with the condition that opens it
            "2  If you mail the form, you will wait 3 weeks.",
            "You will wait 3 weeks.",
        ),
    ],
)
def test_the_condition_is_dropped(sentence, claim):
    assert apply("condition_dropped", sentence) == claim


def test_a_sentence_without_a_restriction_is_skipped():
    assert apply("condition_dropped", "The fee is 20 euros per night.") is None


@pytest.mark.parametrize(
    "sentence",
    [
        # The 'if' opens a clause of its own: dropping it leaves a true clause, not a claim
        # that says more than the source.
        "You must declare all conditions; if you do not, a claim may be declined.",
        # A condition given as an example restricts nothing.
        "Some claims may take longer, for example if we need a medical report.",
        # A bare 'only' narrows the words it names: without it the claim says less, not
        # more ('Refunds go to the original card' still holds).
        "Refunds go only to the original card.",
        "The village has a population of only a few thousand people.",
        # An 'if' that asks, and a 'provided' that is a verb, are no conditions.
        "It is important to first identify if this oiliness is natural or due to hygiene.",
        "When a business has provided good service to its customers, they trust it.",
    ],
)
def test_what_restricts_nothing_is_not_dropped(sentence):
    assert apply("condition_dropped", sentence) is None


def test_a_decimal_point_does_not_end_the_condition():
    sentence = "The credit is 25% if uptime falls below 99.0% in a month."
    assert apply("condition_dropped", sentence) == "The credit is 25%."
