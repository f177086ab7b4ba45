"""A name swapped where the name finder cannot see it: in the source the claim credits
('According to WPIX ...' for 'According to CNN ...'), or as the claim's first word
('Martin contributed to this report'). A day keeps its capital by custom: no name."""

from __future__ import annotations

from halgate.models import Document, Verdict

from ...conftest import offline_claims

REPORT = Document(
    doc_id="storm",
    text=(
        "Heavy rain flooded the valley road on Tuesday night. "
        "According to KTVB weather producer Dana Hill, the river rose two metres in an hour. "
        "Residents met Martin Osei, the county engineer, at the school gym. "
        "Lena Voss contributed to this report."
    ),
)


def _judged(claim: str):
    (judged,) = offline_claims(claim, [REPORT], "What happened in the valley?")
    return judged


def test_another_source_credited_in_the_same_sentence_is_a_name_swap() -> None:
    judged = _judged(
        "According to Martin Osei weather producer Dana Hill, the river rose two metres in an hour."
    )
    assert (judged.verdict, judged.deciding_rule) == (Verdict.CONTRADICTED, "name_swapped")


def test_a_name_that_opens_the_claim_is_compared_too() -> None:
    judged = _judged("Martin contributed to this report.")
    assert (judged.verdict, judged.deciding_rule) == (Verdict.CONTRADICTED, "name_swapped")


def test_the_credited_source_copied_is_supported() -> None:
    judged = _judged("According to KTVB weather producer Dana Hill, the river rose two metres.")
    assert judged.verdict == Verdict.SUPPORTED, judged.rationale


def test_an_opening_word_for_a_day_is_no_name_swap() -> None:
    doc = Document(
        doc_id="hours",
        text="Q&A sessions on Fridays The clinic hosts a weekly call each Friday at 1 p.m.",
    )
    claim = "Lastly, the clinic hosts a weekly call each Friday at 1 p.m."
    (judged,) = offline_claims(claim, [doc])
    assert judged.deciding_rule != "name_swapped", judged.rationale
