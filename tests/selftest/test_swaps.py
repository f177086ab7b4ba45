"""Swaps: a name for another of the same document, the actor for the other party."""

from __future__ import annotations

from .helpers import apply


def test_a_name_is_swapped_for_another_name_of_the_document():
    claim = apply(
        "name_swapped",
        "The form is signed by Dr Patel.",
        names=("Dr Patel", "Nurse Okafor"),
    )
    assert claim == "The form is signed by Nurse Okafor."


def test_a_name_swap_skips_a_document_with_one_name():
    assert apply("name_swapped", "The form is signed by Dr Patel.", names=("Dr Patel",)) is None


def test_the_actor_is_swapped_for_the_other_party():
    assert apply("actor_swapped", "The customer pays the return postage.") == (
        "The company pays the return postage."
    )
    assert apply("actor_swapped", "We cover the fee.") == "You cover the fee."


def test_an_actor_swap_skips_a_sentence_without_an_actor():
    assert apply("actor_swapped", "The fee is 20 euros.") is None
