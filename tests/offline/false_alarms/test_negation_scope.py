"""What a negation denies: every item of a list it opens ("does not offer Wi-Fi, outdoor
seating, or reservations"); what 'rather than' and 'instead of' put under a negation (up to
a comma, and never as a denial of their own); 'without' denies its object, up to a comma
("without aid, many more people will die" denies the aid); and a question in a source ("Can
UVA sue for defamation?") asserts nothing a claim could contradict."""

from __future__ import annotations

import json

import pytest
from halgate.models import Document, Verdict
from halgate.text.negation import negated_stems, negation_scope
from halgate.text.words import tokenize

from ...conftest import offline_claims
from .denials import assert_no_negation_found


def _denied(text: str) -> set[str]:
    return negated_stems(text, tokenize(text))


def test_a_negated_list_denies_its_last_item_too() -> None:
    denied = _denied("The room does not offer Wi-Fi, outdoor seating, or room reservations.")
    assert {"outdoor", "reservation"} <= denied
    # Without a list the scope still ends after its window.
    assert "garden" not in _denied("The room does not offer a view of the big old garden.")


def _scoped(text: str) -> set[str]:
    return negation_scope(text, tokenize(text))


def test_rather_than_and_instead_of_put_what_follows_under_a_negation() -> None:
    figures = "They are private individuals rather than public figures."
    assert {"public", "figur"} <= _scoped(figures)
    assert "oil" in _scoped("Fry the onions in butter instead of oil.")
    assert "butter" not in _scoped("Fry the onions in butter instead of oil.")
    # Up to a comma, and no denial of their own.
    assert _scoped("He argued for coexistence rather than fear, and died in May.") == {"fear"}
    assert not _denied("He argued for coexistence rather than fear, and died in May.")


LISTING = Document(
    doc_id="listing",
    text=json.dumps(
        {
            "name": "Harbour Pizza",
            "categories": "Salad, Sandwiches, Restaurants, Pizza",
            "attributes": {
                "BusinessParking": {
                    "garage": False,
                    "street": False,
                    "validated": False,
                    "lot": True,
                    "valet": False,
                },
                "RestaurantsReservations": False,
                "OutdoorSeating": False,
                "WiFi": "no",
                "RestaurantsTakeOut": True,
            },
        }
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "It does not offer Wi-Fi, outdoor seating, or reservations.",
        "Harbour Pizza has a parking lot but does not provide garage, street, valet, or "
        "validated parking.",
    ],
)
def test_a_claim_denying_a_list_of_fields_the_record_denies_is_not_contradicted(
    claim: str,
) -> None:
    assert_no_negation_found(claim, [LISTING])


PLAN = Document(
    doc_id="plan",
    text=(
        "The basic plan does not cover dental care, eye tests, or hearing aids. "
        "The basic plan covers hospital stays of up to ten days."
    ),
)


def test_the_last_item_of_a_denied_list_is_contradicted_when_a_claim_asserts_it() -> None:
    (judged,) = offline_claims("The basic plan covers hearing aids.", [PLAN])
    assert judged.verdict is Verdict.CONTRADICTED


LAW = Document(
    doc_id="law",
    text=(
        "Can the university sue the magazine for defamation? "
        "The Supreme Court has held that a public body has no claim in libel."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "The university cannot sue the magazine for defamation.",
        "The magazine was never sued for defamation by the university.",
    ],
)
def test_a_question_in_the_source_contradicts_nothing(claim: str) -> None:
    assert_no_negation_found(claim, [LAW])


FIGURES = Document(
    doc_id="figures",
    text="The members of the club will likely be seen as private individuals, and not "
    "public figures, in any libel case.",
)


def test_rather_than_restates_a_denial() -> None:
    assert_no_negation_found(
        "Club members will likely be seen as private individuals rather than public figures.",
        [FIGURES],
    )


SCHOOL = Document(
    doc_id="school",
    text=(
        "Although Lecque could have chosen to attend Teaneck High School, the local public "
        "school, he decided to make the commute to Scanlan every day. "
        "Russell argued for a view of bears based on coexistence rather than fear, and died "
        "on May 7 in Calgary."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "Instead of attending his local school Teaneck High School, Lecque decided to make "
        "the commute to Scanlan.",
        "Russell died on May 7 in Calgary.",
    ],
)
def test_instead_of_and_rather_than_contradict_nothing_on_their_own(claim: str) -> None:
    assert_no_negation_found(claim, [SCHOOL])


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        ("The Red Cross warned that without aid, many more people will die.", {"aid"}),
        ("He got life without parole, also being found guilty of possession.", {"parol"}),
        ("He left without paying the bill.", {"pay", "bill"}),
    ],
)
def test_without_denies_its_object_up_to_a_comma(text: str, denied: set[str]) -> None:
    assert negated_stems(text, tokenize(text)) == denied


def test_a_claim_beside_a_without_phrase_is_no_contradiction() -> None:
    source = Document(
        doc_id="news", text="Another Red Cross official said people are running out of food."
    )
    assert_no_negation_found(
        "The Red Cross warned that without aid, many more people will die.", [source]
    )
