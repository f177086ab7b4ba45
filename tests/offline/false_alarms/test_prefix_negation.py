"""A negating prefix written as its own word ("non-refundable", "non-accommodating") denies
the one word it is joined to: it agrees with "not refundable" and contradicts "refundable";
'non' itself is no content word the sources must hold."""

from __future__ import annotations

import pytest
from halgate.models import Document, Verdict
from halgate.text.negation import negated_stems
from halgate.text.words import content_stems, tokenize

from ...conftest import offline_claims

TERMS = Document(
    doc_id="terms",
    text=(
        "The booking deposit of 50 euros is not refundable. "
        "Breakfast is served from 7 am in the garden room."
    ),
)


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        ("The deposit is non-refundable", {"refundabl"}),
        ("a non-smoking room with a view", {"smok"}),
        ("rude and non-accommodating to allergies", {"accommodat"}),
        # the prefix takes no room in the scope of a negation before it
        ("I never actually took a nonfiction class", {"actual", "tak", "fiction", "class"}),
    ],
)
def test_the_prefix_denies_the_word_it_joins(text: str, denied: set[str]) -> None:
    assert negated_stems(text, tokenize(text)) == denied


def test_the_prefix_is_no_content_word() -> None:
    assert "non" not in content_stems(tokenize("a non-refundable deposit"))


def test_non_refundable_agrees_with_not_refundable() -> None:
    (judged,) = offline_claims("The booking deposit of 50 euros is non-refundable.", [TERMS])
    assert judged.verdict is Verdict.SUPPORTED, judged.rationale


def test_refundable_still_contradicts_not_refundable() -> None:
    (judged,) = offline_claims("The booking deposit of 50 euros is refundable.", [TERMS])
    assert judged.verdict is Verdict.CONTRADICTED, judged.rationale


def test_non_refundable_contradicts_refundable() -> None:
    source = Document(doc_id="terms", text="The booking deposit of 50 euros is refundable.")
    (judged,) = offline_claims("The booking deposit of 50 euros is non-refundable.", [source])
    assert judged.verdict is Verdict.CONTRADICTED, judged.rationale


def test_a_copied_run_the_prefix_denies_is_no_copy() -> None:
    source = Document(doc_id="terms", text="We take a non-refundable deposit of 50 euros.")
    (judged,) = offline_claims("We take a refundable deposit of 50 euros.", [source])
    assert judged.verdict is Verdict.CONTRADICTED, judged.rationale


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("nonflammable netting", ["non", "flammable", "netting"]),
        ("non-flammable netting", ["non", "flammable", "netting"]),
        ("none of them, nonetheless", ["none", "of", "them", "nonetheless"]),
        ("a nonce word", ["a", "nonce", "word"]),
    ],
)
def test_a_joined_prefix_is_read_as_a_written_one(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_the_prefix_joined_or_written_says_the_same() -> None:
    source = Document(
        doc_id="guide", text="Choose a netting that is nonflammable and safe to use around bulbs."
    )
    claim = "Choose a non-flammable netting that is safe to use around bulbs."
    (judged,) = offline_claims(claim, [source])
    assert judged.verdict is Verdict.SUPPORTED, judged.rationale


def test_a_prefixed_word_both_sides_write_is_one_word() -> None:
    source = Document(
        doc_id="essay",
        text="In college I never took a nonfiction class, though I took poetry courses.",
    )
    (judged,) = offline_claims("In college she took a nonfiction class.", [source])
    assert judged.verdict is Verdict.CONTRADICTED, judged.rationale
