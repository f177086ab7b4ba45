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
