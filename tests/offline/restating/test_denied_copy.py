"""A run of a source sentence copied without the negation before it says the opposite:
"Take more than 6 tablets in 24 hours" stands word for word in "Do not take more than 6
tablets in 24 hours", and was SUPPORTED as a copy. A negation of a bound ("do not take more
than 6") says what "take no more than 6" says."""

from __future__ import annotations

import pytest
from halgate.evidence.index import evidence_index
from halgate.models import Document, Verdict
from halgate.text.values import value_words

from ...conftest import offline_claims
from ..test_offline_general import LEAFLET


@pytest.mark.parametrize(
    ("answer", "verdict", "rule"),
    [
        ("Take more than 6 tablets in 24 hours.", Verdict.CONTRADICTED, "number_conflict"),
        ("You can take more than 6 tablets in 24 hours.", Verdict.CONTRADICTED, "number_conflict"),
        ("Give to children under 12 years.", Verdict.CONTRADICTED, "polarity_flip"),
        ("Do not take more than 6 tablets in 24 hours.", Verdict.SUPPORTED, "source_copy"),
        ("Take no more than 6 tablets in 24 hours.", Verdict.SUPPORTED, "supported"),
        ("Don't take more than 6 tablets in 24 hours.", Verdict.SUPPORTED, "supported"),
    ],
)
def test_a_run_copied_without_its_negation_is_no_copy(
    answer: str, verdict: Verdict, rule: str
) -> None:
    (claim,) = offline_claims(answer, [LEAFLET])
    assert (claim.verdict, claim.deciding_rule) == (verdict, rule), claim.rationale


def test_the_turned_bound_is_shown_with_its_negation() -> None:
    (claim,) = offline_claims("Take more than 6 tablets in 24 hours.", [LEAFLET])
    assert "says 'not take more than 6' where the claim says 'more than 6'" in claim.rationale


def test_nothing_but_says_only_and_a_run_after_it_is_a_copy() -> None:
    doc = Document(
        doc_id="recipe",
        text="Season it with nothing else but a little salt and fresh ground black pepper.",
    )
    (claim,) = offline_claims("A little salt and fresh ground black pepper.", [doc])
    assert claim.deciding_rule == "source_copy", claim.rationale


def test_a_run_after_the_negation_of_another_sentence_is_a_copy() -> None:
    doc = Document(doc_id="d", text="Do not. Take the boat out after 8 am with a life jacket.")
    (claim,) = offline_claims("Take the boat out after 8 am with a life jacket.", [doc])
    assert claim.deciding_rule == "source_copy", claim.rationale


def test_search_breaks_ties_by_the_claims_values() -> None:
    doc = Document(
        doc_id="plans",
        text=(
            "The Basic plan allows 40 requests in region 3. "
            "The Basic plan allows 90 requests in region 7. "
            "The Basic plan allows 15 requests in region 9."
        ),
    )
    index = evidence_index([doc])
    stems = ["basic", "plan", "allow", "request", "region"]
    plain = index.search(stems, k=1)
    valued = index.search(stems, k=1, values=value_words(("90", "region", "7")))
    assert plain[0].passage.text.startswith("The Basic plan allows 40")  # ties: text order
    assert valued[0].passage.text == "The Basic plan allows 90 requests in region 7."
    assert valued[0].score == plain[0].score


def test_a_negation_of_a_condition_dropped_with_it_is_a_dropped_condition() -> None:
    doc = Document(
        doc_id="guide",
        text="If the tenant does not agree, either side can refer the dispute to the free "
        "adjudication service.",
    )
    dropped = "Either side can refer the dispute to the free adjudication service."
    (claim,) = offline_claims(dropped, [doc])
    assert (claim.verdict, claim.deciding_rule) == (Verdict.UNSUPPORTED, "restriction_dropped")
    assert "'If the tenant does not agree'" in claim.rationale
    turned = "If the tenant does agree, either side can refer the dispute to the free "
    (claim,) = offline_claims(turned + "adjudication service.", [doc])
    assert (claim.verdict, claim.deciding_rule) == (Verdict.CONTRADICTED, "polarity_flip")
