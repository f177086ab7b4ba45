"""Values a source states under another wording than the claim's (evidence/named_values.py)."""

from __future__ import annotations

import json

import pytest
from halgate.evidence.index import evidence_index
from halgate.evidence.named_values import (
    age_stated,
    field_states,
    labelled,
    range_stated,
    value_context,
)
from halgate.models import Document, Verdict
from halgate.text.quantities import extract_quantities

from ..conftest import offline_claims

ARTICLE = Document(
    doc_id="article",
    text="That man, Louis Jordan, 37, had an amazing story. Big Brother 25 spoilers say "
    "that Jag won again. Repeat step 4 before you paint. The defense said Dzhokhar Tsarnaev, "
    "who was 19, was failing out of college.",
)
RECORD = Document(
    doc_id="record",
    text=json.dumps(
        {
            "business_stars": 3.5,
            "price_adult": 30,
            "price_child": 15,
            "review_info": [{"review_stars": 4.0}, {"review_stars": 1.0}],
        }
    ),
)


def _value(claim: str, shown: str):
    return next(q for q in extract_quantities(claim) if claim[q.start : q.end].startswith(shown))


@pytest.mark.parametrize(
    ("claim", "shown", "stated"),
    [
        ("The place is rated 3.5 stars.", "3.5", True),
        ("The place is rated 4 stars.", "4", False),  # a review's stars, not the record's
        ("The adult price is 30.", "30", False),  # the child's price is another 'price'
        ("The place has 3.5 parking spaces.", "3.5", False),  # no key word around it
    ],
)
def test_a_records_own_field_states_a_value_its_key_names(claim, shown, stated) -> None:
    q = _value(claim, shown)
    mine = value_context(claim, q, (40, 25))
    assert field_states(mine, q, evidence_index([RECORD])) is stated


@pytest.mark.parametrize(
    ("claim", "shown", "stated"),
    [
        ("Jag won the veto in Big Brother 25, his fifth win.", "25", True),
        ("Jag won the veto in Big Brother 26, his fifth win.", "26", False),
        ("Then repeat step 4.", "4", True),
        ("Use a thermometer (passage 3).", "3", False),  # no document is called that
        ("It was won in 25 days.", "25", False),  # 'in' labels nothing
    ],
)
def test_a_number_that_is_part_of_a_label_is_stated_by_the_label(claim, shown, stated) -> None:
    assert labelled(claim, _value(claim, shown), evidence_index([ARTICLE])) is stated


def test_a_number_naming_a_document_is_a_reference() -> None:
    claim = "Use a thermometer (passage 3)."
    docs = [Document(doc_id="passage_3", text="Check the roast with a thermometer.")]
    assert labelled(claim, _value(claim, "3"), evidence_index(docs))


@pytest.mark.parametrize(
    ("claim", "names", "stated"),
    [
        ("A 37-year-old man named Louis Jordan survived.", ["Louis Jordan"], True),
        ("Louis Jordan, 37 years old, survived.", ["Louis Jordan"], True),
        ("A 38-year-old man named Louis Jordan survived.", ["Louis Jordan"], False),
        ("A 37-year-old man named Kyle McCollum helped.", ["Kyle McCollum"], False),
        ("He sailed for 37 years.", ["Louis Jordan"], False),  # a period, not an age
        ("Tsarnaev was only 19 years old at the time.", ["Tsarnaev"], True),
        ("Tsarnaev was only 20 years old at the time.", ["Tsarnaev"], False),
        # a name opening the claim, which the name finder takes for a sentence's start
        ("Jordan, a 37-year-old sailor, survived.", [], True),
        ("Jordan, a 38-year-old sailor, survived.", [], False),
    ],
)
def test_an_age_is_stated_beside_the_persons_name(claim, names, stated) -> None:
    q = next(q for q in extract_quantities(claim) if q.unit == "year")
    assert age_stated(claim, q, names, evidence_index([ARTICLE])) is stated


RECIPE = Document(
    doc_id="recipe",
    text="Set the chicken on top of the vegetables. Cook on low for 6 - 8 hours or until done. "
    "You may cook it on high for 1 hour, then on low for about 5 hours. Best answer: you can "
    "cook chicken breasts for 4 hours on high, and they will still come out tender.",
)


@pytest.mark.parametrize(
    ("claim", "stated"),
    [("6-8 hours", True), ("6-9 hours", False), ("5-8 hours", False), ("8 hours", False)],
)
def test_an_end_of_a_range_is_stated_by_the_same_range(claim: str, stated: bool) -> None:
    passages = evidence_index([RECIPE]).docs[0].passages
    assert range_stated(claim, _value(claim, claim[-7:]), lambda: passages) is stated


@pytest.mark.parametrize(
    ("low", "verdict"), [("6-8", Verdict.PARTIALLY_SUPPORTED), ("6-9", Verdict.CONTRADICTED)]
)
def test_a_range_stated_next_to_the_best_evidence_backs_a_claim_that_joins_sentences(
    low: str, verdict: Verdict
) -> None:
    """The claim's best evidence is the '4 hours on high' sentence: its range, stated as a
    range in a neighbouring sentence, is found there, not contradicted by the 4 hours."""
    claim = (
        f"It takes approximately {low} hours on low or 1 hour on high followed by 5 hours on "
        "low to make chicken breasts come out tender."
    )
    (judged,) = offline_claims(claim, [RECIPE], "How long does it take to make chicken tender?")
    assert judged.verdict == verdict, judged.rationale


@pytest.mark.parametrize(("cited", "missing"), [("Passage 2", []), ("Dr Ortiz", ["Dr Ortiz"])])
def test_a_documents_id_is_no_name_the_sources_must_hold(cited: str, missing: list[str]) -> None:
    """An answer citing its source by the document's id ('Passage 2' for ``passage_2``)
    names no one the sources lack; another name they lack is still missing."""
    docs = [Document(doc_id="passage_2", text="Jalapenos are a good source of vitamin C.")]
    (judged,) = offline_claims(f"Jalapenos are a good source of vitamin C ({cited}).", docs)
    assert judged.signals.get("names_missing", []) == missing, judged.rationale


def test_the_judge_finds_an_age_a_relative_clause_gives() -> None:
    (judged,) = offline_claims("Dzhokhar Tsarnaev was only 19 years old.", [ARTICLE])
    assert not judged.signals.get("numbers_unmatched"), judged.rationale
