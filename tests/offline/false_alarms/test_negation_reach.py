"""How far a negation reaches: "Wi-Fi is not available" denies the Wi-Fi (as "no Wi-Fi"
does); "it's not clear if they plan to testify" denies the clearness, not the plan; "not
just in our government" and "no other cars were involved" deny nothing a claim restating
the rest could contradict; "has yet to reach a verdict" denies as "has not reached" does;
"not located in a prime area" denies the prime area, not the locating."""

from __future__ import annotations

import json

import pytest
from halgate.models import Document, Verdict
from halgate.text.negation import negated_stems
from halgate.text.words import tokenize

from ...conftest import offline_claims
from .denials import assert_no_negation_found


def _denied(text: str) -> set[str]:
    return negated_stems(text, tokenize(text))


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Wi-Fi is not available at the cafe.", {"wi", "fi"}),
        ("Pets are not allowed in the rooms.", {"pet"}),
        ("Almond milk was no longer available.", {"almond", "milk"}),
        ("Parking isn't offered.", {"park"}),
    ],
)
def test_a_negated_availability_denies_what_it_is_of(text: str, subject: set[str]) -> None:
    assert subject <= _denied(text)


def test_other_negated_predicates_leave_their_subject_asserted() -> None:
    assert "room" not in _denied("The room is not heated.")
    assert "wi" not in _denied("Wi-Fi is not free.")


def test_a_negation_stops_at_if_and_whether() -> None:
    assert _denied("It's not clear if they plan to testify.") == {"clear"}
    assert _denied("Do not use the kettle if the seal is broken.") == {"us", "kettl"}
    assert _denied("We are not sure whether the pool opens.") == {"sur"}


def test_not_just_and_no_other_deny_nothing() -> None:
    assert not _denied("This is not just about our government.")
    assert not _denied("No other cars were involved in the crash.")


CAFE = Document(
    doc_id="cafe",
    text=json.dumps({"name": "Harbour Cafe", "attributes": {"WiFi": "no", "OutdoorSeating": True}}),
)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("WiFi is not available.", CAFE),
        (
            "Almond milk is no longer available.",
            Document(doc_id="review", text="No almond milk anymore??? Also the toast was cold."),
        ),
        (
            "It is unclear if his relatives plan to testify.",
            Document(
                doc_id="news",
                text="His relatives arrived in Boston on Thursday, but it's not clear if they "
                "plan to testify.",
            ),
        ),
        (
            # The embedded question is under the claim's negation, as under the source's.
            "It is not clear if the ice cream is the source of the infections.",
            Document(
                doc_id="outbreak",
                text="None of this means the ice cream is the source of either spate of the "
                "infections. The plant closed.",
            ),
        ),
        (
            "The case shows the need for a culture of respect in government offices.",
            Document(
                doc_id="op-ed",
                text="Let's foster a culture of respect and integrity, not just in our "
                "government offices but in our daily lives.",
            ),
        ),
    ],
)
def test_a_claim_that_denies_what_its_source_denies_is_not_contradicted(
    claim: str, source: Document
) -> None:
    assert_no_negation_found(claim, [source])


def test_a_negated_availability_contradicts_a_source_that_grants_it() -> None:
    hotel = Document(
        doc_id="hotel",
        text="Pets are welcome in every room of the hotel. Breakfast is served from 7 am.",
    )
    (judged,) = offline_claims("Pets are not allowed.", [hotel])
    assert judged.verdict is Verdict.CONTRADICTED
    assert judged.deciding_rule == "negation"


def test_just_for_not_just_is_still_a_flip() -> None:
    # 'not just' denies nothing ("not just in our government but ..."), yet "is just about
    # one case" says the opposite of "isn't just about one case".
    op_ed = Document(
        doc_id="op-ed",
        text="This isn't just about one case or person; it's about the culture within our "
        "government offices. The report came out on Monday.",
    )
    (judged,) = offline_claims("This is just about one case or person.", [op_ed])
    assert judged.verdict is Verdict.CONTRADICTED
    assert judged.deciding_rule == "polarity_flip"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # The denial is about the reason, not the story the claim tells.
        (
            "Coast Guard officials confirmed his incredible story.",
            "Coast Guard officials confirmed that he was found 200 miles out. Officials have "
            "said they have found no reason to doubt his incredible story.",
        ),
        # ... about the making, not the potatoes the claim boils.
        (
            "Boil the potatoes until they are tender, then transfer them to an ice bath.",
            "Boil the potatoes until tender, then transfer them to an ice bath. Waxy "
            "potatoes hold their shape without making a potato salad mushy.",
        ),
    ],
)
def test_a_denial_contradicts_only_a_claim_that_says_what_it_is_about(
    claim: str, source: str
) -> None:
    assert_no_negation_found(claim, [Document(doc_id="news", text=source)])


def test_a_denial_of_what_the_claim_says_is_still_a_contradiction() -> None:
    memoir = Document(
        doc_id="memoir",
        text="I joined a nonfiction writing group in my mid-20s. Even in college, I never "
        "actually took a nonfiction class, though I did take some poetry courses.",
    )
    judged = offline_claims("In college she took a nonfiction class.", [memoir])
    assert any(j.verdict is Verdict.CONTRADICTED for j in judged)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "He was not wearing a seatbelt at the time of the crash.",
            "He was not restrained at the time of the crash, the spokesman said.",
        ),
        (
            "The restaurant couldn't cater for her, as the order included dairy products.",
            "They did not check the order before it left, and it included dairy products.",
        ),
    ],
)
def test_two_denials_in_other_words_agree(claim: str, source: str) -> None:
    """Both sides deny, each in its own words: the words the passage's denial reaches
    beyond its head ("at the time of the crash") are no denial of the claim's."""
    assert_no_negation_found(claim, [Document(doc_id="news", text=source)])


def test_a_claim_that_denies_something_else_is_still_contradicted() -> None:
    source = Document(doc_id="news", text="He was not restrained at the time of the crash.")
    judged = offline_claims("He was restrained, and he did not speed.", [source])
    assert any(j.verdict is Verdict.CONTRADICTED for j in judged), [j.rationale for j in judged]


COURT = "The jury has yet to reach a verdict, the court said."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The jury has yet to reach a verdict.", "But the jurors haven't reached a verdict yet."),
        ("The jurors haven't reached a verdict.", COURT),
    ],
)
def test_yet_to_denies_as_not_yet_does(claim: str, source: str) -> None:
    assert_no_negation_found(claim, [Document(doc_id="court", text=source)])


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The jury has reached a verdict.", COURT),
        ("The jury has yet to reach a verdict.", "The jury reached a verdict on Monday."),
    ],
)
def test_yet_to_against_a_plain_statement_is_a_contradiction(claim: str, source: str) -> None:
    (judged,) = offline_claims(claim, [Document(doc_id="court", text=source)])
    assert judged.verdict is Verdict.CONTRADICTED, judged.rationale


RESORT = (
    "Bacara Resort is at 8301 Hollister Ave. Bacara Resort is not located in a prime area; "
    "it is a resort away from downtown."
)


def test_a_denied_place_denies_the_place_not_the_locating() -> None:
    assert _denied("The resort is not located in a prime area.") == {"prim", "area"}
    assert_no_negation_found(
        "Bacara Resort, located at 8301 Hollister Ave, is a resort away from downtown.",
        [Document(doc_id="review", text=RESORT)],
    )


def test_the_denied_place_itself_is_still_contradicted() -> None:
    judged = offline_claims(
        "Bacara Resort is located in a prime area.", [Document(doc_id="review", text=RESORT)]
    )
    assert any(j.verdict is Verdict.CONTRADICTED for j in judged), [j.rationale for j in judged]
