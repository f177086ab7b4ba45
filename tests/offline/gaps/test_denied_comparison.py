"""A negation before a comparison turns a bound round only when a value follows it ("do
not take more than 6 tablets" is "take no more than 6"); a comparison with no value is
denied as any other words: "are not paid less than their male colleagues" says the
opposite of "are paid less than their male colleagues"."""

from __future__ import annotations

import pytest
from halgate.models import Document, Verdict
from halgate.text.negation import negates_a_bound
from halgate.text.words import tokenize

from ...conftest import offline_claims

PAY = Document(
    doc_id="pay",
    text=(
        "The survey found that female engineers are paid less than their male colleagues. "
        "Take no more than 6 tablets a day."
    ),
)


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("do not take more than 6 tablets", True),
        ("not more than a week", True),
        ("no later than May", True),
        ("are not paid less than their male colleagues", False),
        ("is not more than a friend", True),  # 'a' may open a value: read as a bound
    ],
)
def test_a_bound_needs_a_value(text: str, bound: bool) -> None:
    tokens = tokenize(text)
    at = next(i for i, t in enumerate(tokens) if t in {"not", "no"})
    assert negates_a_bound(tokens, at) is bound


def test_a_denied_comparison_is_a_contradiction() -> None:
    claim = "The survey found that female engineers are not paid less than their male colleagues."
    (judged,) = offline_claims(claim, [PAY])
    assert judged.verdict is Verdict.CONTRADICTED, judged.rationale


def test_a_denied_bound_is_still_the_bound() -> None:
    (judged,) = offline_claims("Do not take more than 6 tablets a day.", [PAY])
    assert judged.verdict is Verdict.SUPPORTED, judged.rationale
