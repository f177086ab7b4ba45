"""Claims that fill a gap of their sources: a source of content the sources never name
("4.0 stars on Google"), a record field or an opening day the record leaves unknown, and
what a claim itself says is unknown (issue #28's six-system rates)."""

from __future__ import annotations

import json

import pytest
from halgate.judges.offline.attribution import find_reference, spelled_out, unnamed_sources
from halgate.judges.offline.judge import load_calibration
from halgate.judges.offline.opening_hours import unlisted_days
from halgate.judges.offline.source_rules import unknown_said
from halgate.models import HALLUCINATED, Document, Verdict
from halgate.text.words import content_stems, tokenize

from ...conftest import offline_claims

LISTING = Document(
    doc_id="biz",
    text=json.dumps(
        {
            "name": "American Ale",
            "city": "Santa Barbara",
            "hours": {d: "10:0-20:0" for d in ("Monday", "Tuesday", "Wednesday", "Thursday")}
            | {"Friday": "10:0-22:0", "Saturday": "10:0-22:0"},
            "attributes": {"WiFi": None, "Music": None, "OutdoorSeating": True},
            "business_stars": 4.0,
            "review_info": [{"review_stars": 4.0, "review_text": "Great burgers, dirty bathroom."}],
        }
    ),
)
ARTICLE = Document(
    doc_id="article",
    text="The United Nations said on Thursday that at least 519 people have been killed. "
    "The Centers for Disease Control reported 100 cases on the ship.",
)


def _unnamed(text: str, known: frozenset[str] = frozenset()) -> list[str]:
    return unnamed_sources(text, find_reference(text), lambda name: name in known)


@pytest.mark.parametrize(
    ("claim", "sources"),
    [
        ("American Ale has a rating of 4.0 stars on Google.", ["Google"]),
        ("According to reviews on Google, customers praised the burgers.", ["Google"]),
        ("It is rated 3.5 stars based on reviews from Yelp users.", ["Yelp"]),
        ("Customers praised the burgers (source: Zagat).", ["Zagat"]),
        ("100 people fell ill, according to the CDC.", ["CDC"]),
        ("According to customer reviews, the burgers are great.", []),  # no name
        ("The restaurant is open on Sundays.", []),  # no source, a day
        ("A review from November 22 praises the patio.", []),  # a date, no source
    ],
)
def test_the_sources_a_claim_pins_its_content_on_are_read(claim: str, sources) -> None:
    assert _unnamed(claim) == sources


def test_a_source_the_documents_name_in_any_of_the_claims_ways_is_named() -> None:
    claim = "According to the Bureau of Labor Statistics (BLS), pay rose."
    assert _unnamed(claim) == ["Bureau", "Labor Statistics", "BLS"]
    assert _unnamed(claim, frozenset({"BLS"})) == []
    assert _unnamed("It has 4 stars on Google.", frozenset({"Google"})) == []


def test_initials_name_a_source_the_documents_spell_out() -> None:
    from halgate.evidence.index import evidence_index

    docs = evidence_index([ARTICLE], 0.5).docs
    assert spelled_out("UN", docs) and spelled_out("CDC", docs)
    assert not spelled_out("WHO", docs) and not spelled_out("Google", docs)


def test_a_claim_on_a_source_no_document_names_is_unsupported_and_the_model_keeps_it() -> None:
    (rules,) = offline_claims("American Ale has a rating of 4.0 stars on Google.", [LISTING])
    assert rules.deciding_rule == "source_unnamed", rules.rationale
    assert rules.verdict == Verdict.UNSUPPORTED and "Google" in rules.rationale
    assert rules.signals["sources_unnamed"] == ["Google"]
    (judged,) = offline_claims(
        "American Ale has a rating of 4.0 stars on Google.", [LISTING], model=True
    )
    assert judged.verdict in HALLUCINATED and not judged.model_changed, judged.rationale
    (named,) = offline_claims("The UN said at least 519 people have been killed.", [ARTICLE])
    assert not named.signals["sources_unnamed"], named.rationale


def test_the_shipped_calibration_lists_null_fields_and_unnamed_sources_as_hard() -> None:
    hard = load_calibration().verdicts.hard_signals
    assert "null_fields" in hard and "sources_unnamed" in hard


def test_a_claim_about_a_null_field_stands_against_the_model() -> None:
    (judged,) = offline_claims("American Ale offers free WiFi.", [LISTING], model=True)
    assert judged.verdict in HALLUCINATED, judged.rationale
    assert judged.signals["null_fields"], judged.signals


def _said(text: str) -> set[str]:
    return unknown_said(text)


def test_a_list_said_to_be_unknown_is_unknown_item_by_item() -> None:
    said = _said("The ambience, music, Wi-Fi, and parking details are not specified.")
    assert set(content_stems(tokenize("ambience music park"))) <= said
    # One clause before an 'and' is no list: what it asserts stays asserted.
    assert "wifi" not in _said("They offer WiFi, and reservations are not mentioned.")


def test_what_a_claim_calls_unclear_is_said_to_be_unknown() -> None:
    said = _said("It is unclear if the change has taken place.")
    assert set(content_stems(tokenize("change taken place"))) <= said
    (judged,) = offline_claims("It is unclear whether they have WiFi.", [LISTING])
    assert not judged.signals["null_fields"], judged.rationale


def test_opening_times_for_a_day_the_listing_leaves_out_fill_a_gap() -> None:
    week = {d: (600, 1200) for d in range(6)}  # Monday to Saturday, no Sunday
    assert unlisted_days("Open every day from 10 AM to 8 PM.", week) == [6]
    assert unlisted_days("Open Monday to Saturday from 10 AM to 8 PM.", week) == []
    assert unlisted_days("Closed on Sundays.", week) == []
    assert unlisted_days("Great burgers every day of the week.", week) == []  # no hours
    (judged,) = offline_claims("American Ale opens at 10 AM every day of the week.", [LISTING])
    assert judged.verdict == Verdict.UNSUPPORTED, judged.rationale
    assert judged.signals["null_fields"] == ["hours.Sunday"]
    (listed,) = offline_claims("American Ale opens at 10 AM from Monday to Saturday.", [LISTING])
    assert not listed.signals["null_fields"], listed.rationale


def test_a_day_excepted_with_an_exception_is_read_apart_from_the_hours() -> None:
    """'… from Tuesday to Sunday, with an exception on Monday when it remains closed':
    the 'closed' is Monday's, not the whole claim's, so Tuesday's hours are checked."""
    shop = Document(
        doc_id="shop",
        text=json.dumps(
            {
                "name": "Rusty's",
                "hours": {"Monday": "0:0-0:0", "Tuesday": "11:0-20:0"}
                | {d: "11:0-0:0" for d in ("Wednesday", "Thursday", "Friday", "Saturday")}
                | {"Sunday": "11:0-0:0"},
            }
        ),
    )
    answer = (
        "It operates from 11 am till midnight from Tuesday to Sunday, with an exception on "
        "Monday when it remains closed."
    )
    (judged,) = offline_claims(answer, [shop])
    assert judged.signals["record_conflicts"], judged.rationale


def test_an_everyday_word_that_spells_a_source_does_not_name_it() -> None:
    """'go' in a review spells 'Google' letter by letter, as 'CA' spells California; a
    source is named only by a code the documents write in capitals."""
    record = {
        "name": "Thai Place",
        "business_stars": 4.5,
        "review_info": [{"review_text": "We go here for the red curry."}],
    }
    docs = [Document(doc_id="r", text=json.dumps(record))]
    (judged,) = offline_claims("It has 4.5 stars on Google.", docs)
    assert judged.signals["sources_unnamed"] == ["Google"], judged.rationale
    cdc = Document(doc_id="a", text="The CDC counted 100 cases.")
    (named,) = offline_claims("There were 100 cases, according to the CDC.", [cdc])
    assert not named.signals["sources_unnamed"], named.rationale
