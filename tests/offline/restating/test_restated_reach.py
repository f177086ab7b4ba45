"""The sentence a claim restates is found and read whole: a restriction stays with the
clause it restricts, a negation is found though a word of the claim comes again further
on, a negation or a changed day does not hide the sentence restated, and a number is
reckoned only by the words that stand by it."""

from __future__ import annotations

import pytest
from halgate.judges.offline.number_checks import _shows_working
from halgate.models import Case, Document, Verdict
from halgate.text.claims import extract_claims
from halgate.text.quantities import extract_quantities

from ...conftest import offline_claims

DOC = Document(
    doc_id="article",
    text=(
        "The second debate will be held in July, and after a break in August, there will be "
        "one debate per month starting in September. "
        "You can unsubscribe at any time. "
        "The senator, died Saturday. "
        "It holds a 55 million solar-mass black hole, with jets that stream at about half "
        "the speed of light across a million light-years. "
        "During the three-hour live show, twelve acts took the stage."
    ),
)
CASE = Case(case_id="c", question="What does the article say?")


def _worst(answer: str):
    claims = offline_claims(answer, [DOC], CASE.question)
    order = [Verdict.CONTRADICTED, Verdict.UNSUPPORTED, Verdict.PARTIALLY_SUPPORTED]
    return min(claims, key=lambda c: order.index(c.verdict) if c.verdict in order else 9)


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("He scored his first, and only, international goal in a 5-0 win.", 1),
        ("Squash it with a rolled-up newspaper, but only if you think it is safe to do so.", 1),
        ("Refunds are free, unless the item was used in any way at all.", 1),
        # A clause of its own after ', but' is still a claim of its own.
        ("Refunds take 5 days, but exchanges take 10 days.", 2),
        # 'only' picking the subject opens a clause of its own.
        ("Cover ends at age 79, and only Gold allows trips longer than 31 days.", 2),
    ],
)
def test_a_restriction_stays_with_the_clause_it_restricts(sentence: str, kept: int) -> None:
    assert len(extract_claims(sentence, "c", "s")) == kept


@pytest.mark.parametrize(
    "answer",
    [
        # 'debate' comes again later in the sentence restated.
        "The second debate will not be held in July, and after a break in August, there "
        "will be one debate per month starting in September.",
        # 'cannot' is no word the restated sentence must hold.
        "You cannot unsubscribe at any time.",
    ],
)
def test_a_negation_added_is_a_polarity_flip(answer: str) -> None:
    judged = _worst(answer)
    assert judged.verdict == Verdict.CONTRADICTED
    assert judged.deciding_rule == "polarity_flip"


@pytest.mark.parametrize(
    "answer",
    [
        "The senator, died Monday.",  # another day in the sentence's slot
        "It holds a 56 million solar-mass black hole, with jets that stream at about half "
        "the speed of light across a million light-years.",  # 55 + 1 million is no working
        "During the three-day live show, twelve acts took the stage.",  # hours made days
    ],
)
def test_a_changed_value_is_not_supported(answer: str) -> None:
    judged = _worst(answer)
    assert judged.verdict != Verdict.SUPPORTED, judged.rationale


def test_the_working_stands_by_the_number() -> None:
    body = (
        "It holds 56 million stars at its heart, with two jets of matter that stream "
        "at about half the speed of light."
    )
    q = extract_quantities(body)[0]
    assert not _shows_working(body, q)
    body = "In total 56 million stars."
    assert _shows_working(body, extract_quantities(body)[0])


def test_a_written_out_period_joined_by_a_hyphen_has_its_unit() -> None:
    (q,) = extract_quantities("a three-hour show")
    assert (q.unit, q.value) == ("s", 3 * 3600)


def test_a_condition_moved_to_the_front_keeps_its_negation() -> None:
    """'Y if you do not X' restated as 'If you do not X, Y': the claim's negation is the
    condition's, which the sentence states after the words it governs."""
    source = (
        "Buying a home with water rights can be exciting but stressful if you do not have "
        "all the information."
    )
    claim = (
        "If you do not have all the information, buying a home with water rights can be "
        "exciting but stressful."
    )
    (judged,) = offline_claims(claim, [Document(doc_id="d", text=source)], "Is it stressful?")
    assert judged.verdict == Verdict.SUPPORTED, judged.rationale
