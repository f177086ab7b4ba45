"""A copy restates the sentence it copies: in a list of like sentences (a price list, a
table written as prose) another sentence holds the same words with other values, and a
claim read against it was flagged, or cited, for a sentence it never restated."""

from __future__ import annotations

from halgate.judges.offline.restating import restated
from halgate.models import Document, Verdict

from ...conftest import offline_claims

LIST = Document(
    doc_id="plans",
    text=(
        "The Basic plan allows up to 40 requests per minute in region 3. "
        "The Basic plan allows up to 90 requests per minute in region 7. "
        "The Basic plan allows up to 15 requests per minute in region 9."
    ),
)

RULES = Document(
    doc_id="lake",
    text=(
        "Swimming in the lake is not allowed before 6 am. "
        "Swimming in the lake is allowed after 6 pm."
    ),
)


def _quotes(answer: str, doc: Document) -> list[list[str]]:
    return [[c.quote for c in claim.citations] for claim in offline_claims(answer, [doc])]


def test_a_copy_cites_the_sentence_it_copies() -> None:
    answer = "The Basic plan allows up to 90 requests per minute in region 7."
    (claim,) = offline_claims(answer, [LIST])
    assert claim.verdict == Verdict.SUPPORTED
    assert claim.deciding_rule == "source_copy"
    assert [c.quote for c in claim.citations] == [answer]
    assert [f.rule for f in claim.findings] == ["source_copy", "supported"]


def test_a_copy_never_cites_a_like_sentence_of_the_other_polarity() -> None:
    boat = Document(
        doc_id="boat", text="Do not take the boat out after 8 pm. Take the boat out after 8 am."
    )
    (claim,) = offline_claims("Take the boat out after 8 am.", [boat])
    assert claim.verdict == Verdict.SUPPORTED
    assert claim.deciding_rule == "source_copy"
    assert [c.quote for c in claim.citations] == ["Take the boat out after 8 am."]


def test_a_changed_value_is_read_against_the_sentence_that_holds_the_others() -> None:
    # 'region 7' names the second sentence; its number (90) is what was changed, not the
    # first sentence's 40 (a tie on content words, broken by the values each holds).
    (claim,) = offline_claims(
        "The Basic plan allows up to 60 requests per minute in region 7.", [LIST]
    )
    assert claim.verdict == Verdict.CONTRADICTED
    swapped = next(f for f in claim.findings if f.rule == "number_swapped")
    assert "'60' for '90'" in swapped.reason


def test_a_contradiction_cites_the_sentence_it_contradicts() -> None:
    (claim,) = offline_claims("Swimming in the lake is allowed before 6 am.", [RULES])
    assert claim.verdict == Verdict.CONTRADICTED
    assert claim.deciding_rule == "polarity_flip"
    assert _quotes("Swimming in the lake is allowed before 6 am.", RULES) == [
        ["Swimming in the lake is not allowed before 6 am."]
    ]


def test_a_document_searched_for_a_copy_is_memoised_apart_and_bounded() -> None:
    """A claim no retrieved sentence holds is looked for in its whole documents; their
    normalised text is memoised apart, for a few documents, so that a suite of many large
    documents does not keep a normalised copy of each in the sentences' memo."""
    restated._padded_document.cache_clear()
    big = Document(
        doc_id="big", text=" ".join(f"Item {i} costs {i + 3} euros." for i in range(3000))
    )
    offline_claims("Item 7 costs 12 euros in total today.", [big])
    memo = restated._padded_document.cache_info()
    assert memo.currsize == 1 and memo.maxsize == 64
