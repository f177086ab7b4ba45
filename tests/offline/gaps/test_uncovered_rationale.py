"""The 'uncovered' rationale says what its share is of: the claim's evidence (the best
passage, or a few together), and, when they differ, how much of the claim the sources hold
anywhere: a reviewer told "in any evidence passage" read a claim whose words the sources
scatter as one they never mention."""

from __future__ import annotations

from halgate.models import Document, Verdict

from ...conftest import offline_claims

SCATTERED = Document(
    doc_id="listing",
    text=(
        "The harbour cafe opened in 1998. "
        "Parking is free after six. "
        "Guests praise the chowder. "
        "Dogs are welcome on the terrace."
    ),
)


def test_the_rationale_names_the_evidence_share_and_the_sources_share() -> None:
    (judged,) = offline_claims(
        "Sailors say the terrace chowder and evening parking make the harbour famous.",
        [SCATTERED],
    )
    assert judged.verdict is Verdict.UNSUPPORTED, judged.rationale
    assert "of the claim's content words are in its evidence" in judged.rationale
    assert "somewhere in the sources" in judged.rationale


def test_words_the_sources_lack_are_not_said_to_be_elsewhere() -> None:
    (judged,) = offline_claims("Volcanic glaciers shimmer beneath orbital telescopes.", [SCATTERED])
    assert "somewhere in the sources" not in judged.rationale
