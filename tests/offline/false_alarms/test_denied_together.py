"""A denial or a hedge speaks for the sentence it stands in, and a word both sides deny is
denied by both: a claim that repeats a source's ban ("not allowed to fish") while naming
the rule plainly ("the new fish-out rule") agrees with "anglers could not fish"; in a long
review, "the lack of service" in a sentence about something else denies nothing of "a bar
that offers restaurant services", and "around noon, possibly" hedges nothing of it; a
negation ends with its line ("Don't forget to add\\nParking valet is $53 a day")."""

from __future__ import annotations

import json

import pytest
from halgate.models import Document, Verdict
from halgate.text.negation import negated_stems
from halgate.text.words import tokenize

from ...conftest import offline_claims

HARBOUR = Document(
    doc_id="harbour",
    text=(
        "The harbour master explains the new fish-out rule. "
        "Anglers could not fish from the harbour wall after dusk. "
        "The car park opens at 6 am."
    ),
)


def _grill(review: str) -> Document:
    record = {
        "name": "Harbor Grill",
        "address": "12 Quay Street",
        "categories": "Seafood, Bars, Restaurants",
        "review_text": review,
    }
    return Document(doc_id="grill", text=json.dumps(record))


def test_a_ban_both_sides_state_is_no_contradiction() -> None:
    claim = (
        "The harbour master clarified the new fish-out rule, saying that anglers are not "
        "allowed to fish from the harbour wall after dusk."
    )
    (judged,) = offline_claims(claim, [HARBOUR])
    assert judged.deciding_rule != "negation"
    assert judged.verdict is not Verdict.CONTRADICTED


def test_the_ban_lifted_is_still_a_contradiction() -> None:
    claim = (
        "The harbour master clarified the new fish-out rule, saying that anglers are "
        "allowed to fish from the harbour wall after dusk."
    )
    (judged,) = offline_claims(claim, [HARBOUR])
    assert judged.deciding_rule == "negation"
    assert judged.verdict is Verdict.CONTRADICTED


REVIEW = (
    "What a pity!\n\nThis review is not about the fish here, rather about the lack of "
    "service and care.\n\nWe came to Portland for the day and stopped at Harbor Grill "
    "around noon, possibly the busiest hour."
)


def test_a_denial_in_a_review_sentence_about_something_else_denies_nothing() -> None:
    claim = "Harbor Grill, at 12 Quay Street, is a seafood bar that offers restaurant services."
    (judged,) = offline_claims(claim, [_grill(REVIEW)])
    assert judged.verdict is Verdict.SUPPORTED, judged.rationale


def test_a_review_sentence_that_denies_the_claims_words_still_does() -> None:
    (judged,) = offline_claims("Harbor Grill gives good service and care.", [_grill(REVIEW)])
    assert judged.deciding_rule == "negation"
    assert judged.verdict is Verdict.CONTRADICTED


@pytest.mark.parametrize(
    "review",
    [
        "Lovely evening!\n\nWe were in Portland for the day. Harbor Grill on Quay Street was "
        "our stop, a seafood bar with a restaurant. It was possibly the busiest hour.",
    ],
)
def test_a_hedge_in_a_review_sentence_about_something_else_hedges_nothing(review: str) -> None:
    claim = "Harbor Grill on Quay Street is a seafood bar and restaurant."
    (judged,) = offline_claims(claim, [_grill(review)])
    assert judged.deciding_rule != "hedge", judged.rationale
    assert judged.verdict is Verdict.SUPPORTED, judged.rationale


def test_a_negation_ends_with_its_line() -> None:
    text = "Don't forget to add\nParking valet is $53 a day"
    assert negated_stems(text, tokenize(text)) == {"forget", "add"}
