"""Truth-preserving transforms: each says what its sentence says, or skips."""

from __future__ import annotations

import pytest

from .helpers import apply


@pytest.mark.parametrize(
    ("name", "sentence", "claim"),
    [
        ("verbatim", "Refunds take 5 days.", "Refunds take 5 days."),
        (
            "clause",
            "The office opens at nine; the cafeteria serves lunch all afternoon.",
            "The cafeteria serves lunch all afternoon.",
        ),
        (
            "reorder",
            "If the seal is broken, return the bottle to the pharmacy.",
            "Return the bottle to the pharmacy if the seal is broken.",
        ),
        (
            "reorder",
            "Return the bottle to the pharmacy if the seal is broken.",
            "If the seal is broken, return the bottle to the pharmacy.",
        ),
        ("number_words", "Allow 3 days for delivery.", "Allow three days for delivery."),
        ("number_words", "Allow three days for delivery.", "Allow 3 days for delivery."),
        ("unit_converted", "Claims are paid within 2 weeks.", "Claims are paid within 14 days."),
        ("unit_converted", "Claims are paid within 14 days.", "Claims are paid within 2 weeks."),
        ("synonym", "You can purchase tickets online.", "You can buy tickets online."),
        (
            "must_not_paraphrase",
            "Children must not use the ladder.",
            "Children are not allowed to use the ladder.",
        ),
        (
            "must_not_paraphrase",
            "The pump must not run dry.",
            "The pump is not allowed to run dry.",
        ),
        ("must_not_paraphrase", "Guests are not allowed to smoke.", "Guests must not smoke."),
    ],
)
def test_a_preserving_transform_restates_the_sentence(name, sentence, claim):
    assert apply(name, sentence) == claim


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("clause", "Refunds are paid only if the item is unused, and the receipt is kept."),
        ("clause", "The office opens at nine."),
        ("reorder", "The office opens at nine."),
        # Put after 'Y2', the condition of 'Y1' would govern Y2 instead.
        ("reorder", "If the bag is late, Gold members can claim 150 euros; Silver members cannot."),
        ("reorder", "If the bag is late, Gold members claim 150 euros, and the desk pays it."),
        ("number_words", "The office opens at 9:30."),
        ("number_words", "The finals are played on December 2 and in Lyon."),  # a date's day
        ("number_words", "He was ninety-eight runs short of a century."),
        ("unit_converted", "Claims are paid within 10 days."),
        ("synonym", "The office opens at nine."),
        ("must_not_paraphrase", "The office opens at nine."),
    ],
)
def test_a_preserving_transform_skips_where_it_cannot_apply(name, sentence):
    assert apply(name, sentence) is None


def test_only_sentences_that_state_something_are_drawn():
    """A heading or title states nothing whole: the judge does not read it as evidence,
    so a copy of it has no known truth (a generator fault, not a judge miss)."""
    from halgate.selftest.generate import source_sentences

    text = (
        "### The Beatles in New Zealand\n"
        "The band played in Wellington in 1964. Did they play there twice?\n"
        "Major Facility Review (Title V)\n"
        'He said: "We loved playing every night here."\n'
        "# A heading that ends with a full stop.\n"
    )
    assert source_sentences(text) == [
        "The band played in Wellington in 1964.",
        'He said: "We loved playing every night here."',
    ]


def test_a_sentence_that_states_no_claim_is_not_drawn():
    """Advice ("Talk to a lawyer ...") gives no claim, so no verdict: a copy of it tests
    nothing (it was counted as a copy not read SUPPORTED)."""
    from halgate.selftest.generate import source_sentences

    text = "Talk to a lawyer about work laws. The band played in Wellington in 1964."
    assert source_sentences(text) == ["The band played in Wellington in 1964."]
