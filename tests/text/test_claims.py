"""Claim extraction: spans, clause splitting, abstentions and advice give no claims."""

from __future__ import annotations

import pytest
from halgate.models import Document
from halgate.text.claims import extract_claims

from ..conftest import offline_claims


def texts(answer: str) -> list[str]:
    claims = extract_claims(answer, "c1", "cand")
    for c in claims:
        assert answer[c.start : c.end] == c.text
    return [c.text for c in claims]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            "The usual dose is one 50 mg tablet twice a day. It can be taken with food.",
            ["The usual dose is one 50 mg tablet twice a day.", "It can be taken with food."],
        ),
        (
            "Refunds are issued within 14 days, and exchanges are processed within 30 days.",
            ["Refunds are issued within 14 days", "exchanges are processed within 30 days."],
        ),
        (
            "Silver excludes winter sports; Gold includes them.",
            ["Silver excludes winter sports", "Gold includes them."],
        ),
        (
            "Silver covers costs up to £2 million, which is typical for UK travel insurance.",
            ["Silver covers costs up to £2 million", "which is typical for UK travel insurance."],
        ),
        (
            "It covers fever, pain, and swelling.",  # a list, not two clauses
            ["It covers fever, pain, and swelling."],
        ),
        (  # the "and" closes a list of days the sentence goes on after
            "It opens 4-8 PM on Tuesdays, Wednesdays, and Thursdays, 4-9 PM on Fridays, and "
            "it is closed on Mondays.",
            [
                "It opens 4-8 PM on Tuesdays, Wednesdays, and Thursdays, 4-9 PM on Fridays",
                "it is closed on Mondays.",
            ],
        ),
        (  # short items, but each side a clause of its own: split as before
            "It has tea, coffee, and it is open late, on Sundays.",
            ["It has tea, coffee", "it is open late, on Sundays."],
        ),
        (  # days after the comma are the exception to the days before it
            "It opens 5-7 PM on weekdays, while on Wednesdays it opens at 11 AM.",
            ["It opens 5-7 PM on weekdays, while on Wednesdays it opens at 11 AM."],
        ),
        (  # what the clause before excludes: cut off, it reads as a bare denial
            "Staff were told to stream only the mayor's speech; not the rival's, despite "
            "complaints from the rival's staff.",
            [
                "Staff were told to stream only the mayor's speech; not the rival's, despite "
                "complaints from the rival's staff."
            ],
        ),
        (  # 'not all' opens a clause of its own
            "Refunds are issued within 14 days; not all items qualify for a refund.",
            ["Refunds are issued within 14 days", "not all items qualify for a refund."],
        ),
        ("Yes, refunds take 14 days.", ["refunds take 14 days."]),
        ("- Plan A costs $10.\n- Plan B costs $20.", ["Plan A costs $10.", "Plan B costs $20."]),
    ],
)
def test_claims_are_sentences_or_clauses(answer: str, expected: list[str]) -> None:
    assert texts(answer) == expected


@pytest.mark.parametrize(
    "answer",
    [
        "The documents do not say whether it is safe in pregnancy.",
        "I cannot find this in the documents.",
        "Unable to answer based on given passages.",
        "The leaflet does not mention alcohol.",
        "Neither leaflet says anything about grapefruit juice.",
        "There is no information about encryption.",
        "Ask your pharmacist.",
        "Please contact support.",
        "You should consult your doctor before use.",
        "Is it safe?",
        "Here is a summary of the policy:",
        "Yes.",
        "Sure!",  # an acknowledgement opening a reply
        "Certainly.",
        "Based on the provided passages, it is unable to answer the question with confidence.",
        "Therefore, I cannot say which is better, cycling or running, based on the passages.",
    ],
)
def test_abstentions_advice_and_meta_give_no_claims(answer: str) -> None:
    assert texts(answer) == []


def test_mixed_answer_keeps_only_facts() -> None:
    answer = (
        "Take 200 mg every 6 hours. Ask your pharmacist. "
        "The documents do not say whether it is safe with alcohol."
    )
    assert texts(answer) == ["Take 200 mg every 6 hours."]


def test_headings_give_no_claims_but_what_follows_them_does() -> None:
    answer = "**Returns:**\n\n1. You have 30 days to return an item.\n2. Key points: none."
    assert texts(answer) == ["You have 30 days to return an item.", "Key points: none."]
    assert texts("Summary of the refund rules:") == []
    # A colon inside a longer line is not a heading.
    assert texts("Refunds take 5 days for the following cards:") == [
        "Refunds take 5 days for the following cards"
    ]


def test_an_acknowledgement_word_inside_a_fact_keeps_it() -> None:
    assert texts("Sure! The store is sure to open at 9 am.") == [
        "The store is sure to open at 9 am."
    ]


def test_facts_that_look_like_denials_stay_claims() -> None:
    assert texts("The policy does not cover water damage.") == [
        "The policy does not cover water damage."
    ]


def test_claim_ids_and_indices() -> None:
    claims = extract_claims("A costs $5. B costs $6.", "case-9", "baseline")
    assert [(c.claim_id, c.index, c.case_id, c.system) for c in claims] == [
        ("case-9/baseline/0", 0, "case-9", "baseline"),
        ("case-9/baseline/1", 1, "case-9", "baseline"),
    ]


def test_empty_answer_has_no_claims() -> None:
    assert extract_claims("", "c", "s") == []
    assert extract_claims("   \n ", "c", "s") == []


def test_html_character_references_are_read_and_end_no_clause() -> None:
    """An answer copied from a web page: '&rsquo;' is a quote, its ';' no clause break, and
    'Day&rsquo' no name; the claims keep the answer's own text and spans."""
    answer = (
        "It is called &lsquo;Equal Pay Day&rsquo; and falls on 14 April; "
        "its date marks the pay gap."
    )
    assert texts(answer) == [
        "It is called &lsquo;Equal Pay Day&rsquo; and falls on 14 April",
        "its date marks the pay gap.",
    ]
    docs = [Document(doc_id="a", text="Equal Pay Day falls on 14 April.")]
    (judged, _) = offline_claims(answer, docs)
    assert "Equal Pay Day" not in judged.rationale, judged.rationale
    assert judged.signals.get("names_missing", []) == [], judged.signals
