"""Scope changes: an invented clause, a quantifier, a modal."""

from __future__ import annotations

from halgate.selftest.additions import INVENTED

from .helpers import apply


def test_an_invented_clause_is_one_whose_words_the_document_lacks():
    claim = apply("invented_clause", "Refunds take 5 days.")
    assert claim is not None and claim.startswith("Refunds take 5 days, and ")
    assert claim.removeprefix("Refunds take 5 days, ").rstrip(".") in INVENTED


def test_no_clause_is_invented_when_the_document_holds_every_one():
    document = " ".join(INVENTED)
    assert apply("invented_clause", "Refunds take 5 days.", document) is None


def test_a_quantifier_is_turned():
    assert apply("quantifier_changed", "All rooms have a safe.") == "No rooms have a safe."
    assert apply("quantifier_changed", "Some rooms have a safe.") == "All rooms have a safe."


def test_a_modal_is_turned():
    assert apply("modal_changed", "Guests must leave by noon.") == "Guests may leave by noon."
    assert apply("modal_changed", "Guests may leave by noon.") == "Guests must leave by noon."


def test_a_hedge_is_not_read_as_a_permission():
    assert apply("modal_changed", "The delay may be caused by snow.") is None
