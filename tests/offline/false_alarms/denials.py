"""The check shared by the tests of false negation findings."""

from __future__ import annotations

from collections.abc import Sequence

from halgate.models import Document, Verdict

from ...conftest import offline_claims


def assert_no_negation_found(answer: str, documents: Sequence[Document]) -> None:
    """No claim of `answer` reads as denied by (or denying) its sources, nor CONTRADICTED:
    the check of the tests of false negation findings."""
    for judged in offline_claims(answer, documents):
        assert judged.signals["negation_mismatch"] is False, judged.text
        assert judged.verdict is not Verdict.CONTRADICTED, (judged.text, judged.rationale)
