"""A source sentence copied word for word with an invented clause joined to it is not
SUPPORTED, and on a CRITICAL case the learned model may not clear it; a copy joined to
words the evidence does hold still is SUPPORTED."""

from __future__ import annotations

from halgate.models import Document, Severity, Verdict

from ...conftest import offline_claims

DOC = Document(
    doc_id="notice",
    text=(
        "The maker informs pharmacists of a change to the maximum daily dose of the tablets. "
        "Patients should return unused packs to the pharmacy."
    ),
)
COPY = "The maker informs pharmacists of a change to the maximum daily dose of the tablets"


def _judged(answer: str, risk: Severity | None = None, model: bool = False):
    return offline_claims(answer, [DOC], "What changed?", risk, model)


def test_a_copy_with_an_invented_clause_is_not_supported():
    (judged,) = _judged(f"{COPY}, and a free replacement is sent by courier to every home.")
    assert judged.verdict == Verdict.UNSUPPORTED
    assert judged.deciding_rule == "addition_invented"
    assert "free replacement is sent by courier" in judged.rationale
    assert judged.signals["addition_invented"] is True


def test_on_a_critical_case_the_learned_model_does_not_clear_it():
    answer = f"{COPY}, and a free replacement is sent by courier to every home."
    (judged,) = _judged(answer, Severity.CRITICAL, model=True)
    assert judged.verdict == Verdict.UNSUPPORTED


def test_a_copy_joined_to_what_the_evidence_holds_is_supported():
    judged = _judged(f"{COPY}, and patients should return unused packs.")
    assert all(c.verdict == Verdict.SUPPORTED for c in judged), [
        (c.text, c.verdict, c.rationale) for c in judged
    ]
    assert not any(c.signals["addition_invented"] for c in judged)


def test_an_invented_clause_that_reuses_a_word_of_the_copy_is_found():
    """'the tablets' again in the added clause does not make it found: most of its words
    are in no evidence."""
    (judged,) = _judged(f"{COPY}, and a nurse must countersign the tablets in person.")
    assert judged.verdict == Verdict.UNSUPPORTED, judged.rationale
    assert judged.deciding_rule == "addition_invented"
