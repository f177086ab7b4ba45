"""A word-for-word copy of a sentence's main clause without the condition that governs it
is not SUPPORTED; a copy of a clause the condition does not govern still is."""

from __future__ import annotations

import pytest
from halgate.models import Case, Document, Verdict

from ..conftest import offline_claims

DOC = Document(
    doc_id="leaflet",
    text=(
        "If you have moderate kidney problems, your doctor will lower the dose to one tablet a day."
        " "
        "Activated charcoal may reduce absorption if it is given within 2 hours of the overdose. "
        "You must call the assistance line before any treatment costing more than 500 euros, "
        "unless it is an emergency. "
        "You must declare all earlier medical conditions; if you do not, a claim may be declined. "
        "Some claims take longer to settle, for example if we need a report from abroad."
    ),
)
CASE = Case(case_id="c", question="What does the leaflet say?")


def _judged(claim: str):
    (judged,) = offline_claims(claim, [DOC], CASE.question)
    return judged


@pytest.mark.parametrize(
    ("claim", "condition"),
    [
        ("Your doctor will lower the dose to one tablet a day.", "If you have moderate kidney"),
        ("Activated charcoal may reduce absorption.", "if it is given within 2 hours"),
        (
            "You must call the assistance line before any treatment costing more than 500 euros.",
            "unless it is an emergency",
        ),
    ],
)
def test_a_copy_without_its_condition_is_not_supported(claim: str, condition: str) -> None:
    judged = _judged(claim)
    assert judged.verdict == Verdict.UNSUPPORTED
    assert judged.deciding_rule == "restriction_dropped"
    assert condition in judged.rationale


@pytest.mark.parametrize(
    "claim",
    [
        # The 'if' opens a clause of its own after the semicolon: the copy drops nothing.
        "You must declare all earlier medical conditions.",
        # A condition given as an example restricts nothing.
        "Some claims take longer to settle.",
        # The whole sentence, condition and all.
        "Activated charcoal may reduce absorption if it is given within 2 hours of the overdose.",
    ],
)
def test_a_copy_that_keeps_or_owes_no_condition_stays_supported(claim: str) -> None:
    judged = _judged(claim)
    assert judged.verdict == Verdict.SUPPORTED, judged.rationale


def test_a_numbered_list_items_condition_governs_it_too() -> None:
    """How-to pages number their steps: '1  If you e-filed ...' opens with its condition
    all the same, and a copy of what follows it drops that condition."""
    steps = Document(
        doc_id="steps",
        text=(
            "How to check your refund:\n"
            "1  If you filed online, you can see your refund status within 3 days.\n"
            "2  If you mailed the form, you will have to wait 4 weeks."
        ),
    )
    for claim, condition in (
        ("You can see your refund status within 3 days.", "If you filed online"),
        ("You will have to wait 4 weeks.", "If you mailed the form"),
    ):
        (judged,) = offline_claims(claim, [steps], "How long does a refund take?")
        assert judged.verdict == Verdict.UNSUPPORTED, judged.rationale
        assert condition in judged.rationale
    (copied,) = offline_claims(
        "If you filed online, you can see your refund status within 3 days.", [steps]
    )
    assert copied.verdict == Verdict.SUPPORTED
