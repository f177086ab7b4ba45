"""Swaps: a name for another of the same document, the actor for the other party."""

from __future__ import annotations

from .helpers import apply

CLINIC = (
    "The form is signed by Dr Patel. On the ward the drugs are checked by Nurse Okafor "
    "every morning. My advice is simple, said the nurse. There is a queue at the desk. "
    "The clinic works with Illinois State University and the staff at ISU on trials, and "
    "Mike Vereb runs the desk. Patients Praise New Clinic Hours\n"
)


def test_a_name_is_swapped_for_another_name_of_the_document():
    claim = apply(
        "name_swapped",
        "The form is signed by Dr Patel.",
        CLINIC,
        names=("Dr Patel", "Nurse Okafor"),
    )
    assert claim == "The form is signed by Nurse Okafor."


def test_only_clear_names_are_swapped_and_never_for_the_same_name():
    """Generator faults, not judge misses: a capital that only starts a sentence ('My',
    'There'), an acronym for its own expansion, a part of the same name, a Title Case
    headline's words."""
    names = ("My", "There", "ISU", "Patients Praise", "Illinois State University")
    assert apply("name_swapped", "My advice is simple, said the nurse.", CLINIC, names) is None
    assert apply("name_swapped", "There is a queue at the desk.", CLINIC, names) is None
    swapped = apply(
        "name_swapped", "The clinic works with Illinois State University.", CLINIC, names
    )
    assert swapped is None  # ISU is its initials; the other candidates are no names
    vereb = apply("name_swapped", "Mike Vereb runs the desk.", CLINIC, ("Vereb", "Dr Patel"))
    assert vereb == "Dr Patel runs the desk."


def test_a_name_swap_skips_a_document_with_one_name():
    assert apply("name_swapped", "The form is signed by Dr Patel.", names=("Dr Patel",)) is None


def test_the_actor_is_swapped_for_the_other_party():
    assert apply("actor_swapped", "The customer pays the return postage.") == (
        "The company pays the return postage."
    )
    assert apply("actor_swapped", "We cover the fee.") == "You cover the fee."


def test_an_actor_swap_skips_a_sentence_without_an_actor():
    assert apply("actor_swapped", "The fee is 20 euros.") is None


RACE = (
    "Storey is Britain's most decorated female Paralympian. She trained for many years in "
    "the town of Nottwil with her old coach. She rides in Saturday's road race in Britain."
)


def test_a_possessive_name_keeps_its_possessive_and_a_weekday_is_no_name():
    names = ("Storey", "Britain's", "Nottwil", "Saturday's")
    swapped = apply("name_swapped", "Storey is Britain's most decorated rider.", RACE, names)
    assert swapped == "Storey is Nottwil's most decorated rider."  # 'Storey' opens it: kept
    race = apply("name_swapped", "She rides in Saturday's road race in Britain.", RACE, names)
    assert race == "She rides in Saturday's road race in Nottwil."
