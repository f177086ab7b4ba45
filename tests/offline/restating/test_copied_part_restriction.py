"""A copied part of a sentence is restricted by the words around that part, not by a
restriction that stands by a later mention of the same words."""

from __future__ import annotations

from halgate.models import Document, Verdict

from ...conftest import offline_claims

SENTENCE = (
    "The gallery showed prints in red and gold with a little green, but since we only saw "
    "the brochure, printed in red and gold, we pictured every print as red and gold."
)


def test_each_copied_clause_of_a_sentence_is_supported() -> None:
    claims = offline_claims(SENTENCE, [Document(doc_id="d", text=SENTENCE)], "What was shown?")
    assert len(claims) > 1  # the answer is read clause by clause
    assert [(c.verdict, c.deciding_rule) for c in claims] == [
        (Verdict.SUPPORTED, "source_copy")
    ] * len(claims)


def test_a_restriction_beside_the_copied_words_still_counts() -> None:
    source = "Members may bring guests to the pool unless the lifeguard is off duty."
    claim = "Members may bring guests to the pool."
    (judged,) = offline_claims(claim, [Document(doc_id="d", text=source)], "Guests?")
    assert judged.verdict != Verdict.SUPPORTED
    assert judged.deciding_rule == "restriction_dropped"
