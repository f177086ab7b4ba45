"""A restatement that keeps the source's meaning in other words is no flip and drops
nothing: 'unable to' says what 'can not' says, a claim that states the very words an
'only' narrows ('a small amount of salt') keeps the source's restriction, and 'not only'
restricts nothing ('not only is the flat in need of repair, ...')."""

from __future__ import annotations

import pytest
from halgate.models import Document, Verdict

from ...conftest import offline_claims

DOC = Document(
    doc_id="guide",
    text=(
        "If you can not delete the printer, right-click it again and click Run as "
        "administrator. Season the roast with only a small amount of salt but lots of "
        "pepper. Refunds are given only if the ticket is unused. The flat has a catch: not "
        "only is it in dire need of renovation, the lease ends in three years."
    ),
)


def _rule_verdict(answer: str):
    (claim,) = offline_claims(answer, [DOC], "How?")
    return claim.verdict, claim.deciding_rule


@pytest.mark.parametrize(
    "claim",
    [
        "If you are unable to delete the printer, right-click it again and click Run as "
        "administrator.",
        "Season the roast with a small amount of salt but lots of pepper.",
        "The flat needs renovation.",
    ],
)
def test_the_same_meaning_in_other_words_is_supported(claim: str) -> None:
    verdict, rule = _rule_verdict(claim)
    assert verdict == Verdict.SUPPORTED, rule


@pytest.mark.parametrize(
    ("claim", "rule"),
    [
        (
            "If you are able to delete the printer, right-click it again and click Run as "
            "administrator.",
            "polarity_flip",
        ),  # fmt: skip
        ("Refunds are given for every ticket.", "restriction_dropped"),  # 'only if' is gone
        ("Season the roast with lots of salt and pepper.", "restriction_dropped"),  # widened
    ],
)
def test_a_changed_meaning_is_still_caught(claim: str, rule: str) -> None:
    verdict, decided = _rule_verdict(claim)
    assert verdict != Verdict.SUPPORTED and decided == rule


def test_a_double_negation_with_a_negative_pole_is_no_flip() -> None:
    doc = Document(doc_id="speech", text="People deserve a leader who will not disrespect them.")
    (claim,) = offline_claims("People deserve a leader who respects them.", [doc])
    assert claim.deciding_rule != "polarity_flip", claim.rationale


def test_a_plural_written_with_an_apostrophe_names_the_same_thing() -> None:
    doc = Document(doc_id="review", text="O'Malleys has TV's in abundance for the games.")
    (claim,) = offline_claims("O'Malleys has many TVs for the games.", [doc])
    assert claim.signals["names_missing"] == [], claim.rationale
