"""An answer that cites its sources in brackets ("(Passage 2, point 4)", "(source 1:3)")
states no value with those numbers, and a question it quotes ('the question "What are
some uses ..."') names nobody called 'What'."""

from __future__ import annotations

import pytest
from halgate.judges.offline.attribution import find_reference
from halgate.models import Document, Verdict
from halgate.text.words import proper_names

from ...conftest import offline_claims

GUIDE = Document(
    doc_id="passage_2",
    text=(
        "Caring for a wooden deck. Sweep the boards every week. "
        "Scrub the deck with a soft brush and mild soap. Oil the boards once a year."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "Scrub the deck with a soft brush and mild soap (Passage 2, point 3).",
        "Scrub the deck with a soft brush and mild soap (passage 2:3).",
    ],
)
def test_numbers_that_cite_a_source_are_no_values(claim: str) -> None:
    (judged,) = offline_claims(claim, [GUIDE])
    assert judged.verdict is Verdict.SUPPORTED, judged.rationale


def test_a_bracketed_citation_is_a_reference_to_a_source() -> None:
    ref = find_reference("Repels fleas (Passage 2, point 3)")
    assert ref is not None and ref.text == "Passage 2, point 3"
    assert find_reference("Costs 4 euros (about 3 pounds)") is None


def test_a_value_outside_the_citation_is_still_checked() -> None:
    (judged,) = offline_claims("Oil the boards 3 times a year (Passage 2).", [GUIDE])
    assert judged.verdict is not Verdict.SUPPORTED


def test_a_quoted_question_names_nobody() -> None:
    text = 'Therefore, the answer to the question "What are some uses for vinegar?"'
    assert proper_names(text) == []
    (judged,) = offline_claims(text, [GUIDE])
    assert judged.deciding_rule != "name_missing"
