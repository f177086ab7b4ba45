"""Polarity flips: a negation added or removed, a polar word turned round."""

from __future__ import annotations

import pytest

from .helpers import apply


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        ("Never use the heater below 5 degrees.", "Always use the heater below 5 degrees."),
        ("Pets are prohibited in the rooms.", "Pets are allowed in the rooms."),
        ("The ladder is safe for children.", "The ladder is unsafe for children."),
        ("Breakfast is included in the price.", "Breakfast is excluded in the price."),
        ("A helmet is optional on the trail.", "A helmet is required on the trail."),
    ],
)
def test_antonym_flip_turns_the_first_polar_word(sentence, claim):
    assert apply("antonym_flip", sentence) == claim


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        ("You cannot cancel after the trip starts.", "You can cancel after the trip starts."),
        ("You can cancel before the trip starts.", "You cannot cancel before the trip starts."),
        ("Staff must not lift the lid.", "Staff must lift the lid."),
        ("Staff must lift the lid.", "Staff must not lift the lid."),
        ("The fee is not refundable.", "The fee is refundable."),
        ("The fee is refundable.", "The fee is not refundable."),
        ("Do not take it with alcohol.", "Do take it with alcohol."),
    ],
)
def test_negation_flip_adds_or_removes_the_first_negation(sentence, claim):
    assert apply("negation_flip", sentence) == claim


def test_a_sentence_without_a_cue_is_skipped():
    assert apply("antonym_flip", "The office opens at nine.") is None
    assert apply("negation_flip", "Open daily from nine.") is None
