"""Accented Latin letters are letters: words and names are read whole, one character for one."""

from __future__ import annotations

from halgate.models import Document, Verdict
from halgate.text.letters import plain_letters
from halgate.text.words import proper_names, tokenize
from hypothesis import given
from hypothesis import strategies as st

from ..conftest import offline_claims


def test_accented_words_are_one_token_each() -> None:
    assert tokenize("Staff of Háskólabíó met Sigurður in Łódź.") == [
        "staff",
        "of",
        "haskolabio",
        "met",
        "sigurdur",
        "in",
        "lodz",
    ]


def test_a_name_and_its_accentless_spelling_are_the_same_words() -> None:
    assert tokenize("Zürich") == tokenize("Zurich")


def test_names_with_accents_are_found_and_returned_as_written() -> None:
    assert proper_names("The talks with Sigurður Ingi and São Paulo's mayor ended.") == [
        "Sigurður Ingi",
        "São Paulo's",
    ]


@given(st.text())
def test_folding_keeps_every_character_in_its_place(text: str) -> None:
    folded = plain_letters(text)
    assert len(folded) == len(text)
    assert all(a == b or not a.isascii() for a, b in zip(text, folded, strict=True))


def test_a_copy_naming_accented_people_is_supported() -> None:
    """Read as ASCII fragments, the second half of this copy ('not Sigurður's') looked like
    words of the source without its 'only' (cut off at the semicolon as it was, too): a
    copy was judged to drop a restriction."""
    source = (
        "Staff of Háskólabíó were told to only livestream Sigmundur's speech; not "
        "Sigurður's, despite assertions from Sigmundur's staff."
    )
    judged = offline_claims(source, [Document(doc_id="d", text=source)], "What happened?")
    assert [c.verdict for c in judged] == [Verdict.SUPPORTED] * len(judged)


def test_a_name_spelled_without_its_accents_is_no_missing_name() -> None:
    source = "The new line runs from Zürich to Malmö every two hours."
    claim = "The new line runs from Zurich to Malmo every two hours."
    (judged,) = offline_claims(claim, [Document(doc_id="d", text=source)], "Where?")
    assert judged.verdict == Verdict.SUPPORTED, judged.rationale


def test_a_name_with_accents_swapped_for_another_is_caught() -> None:
    source = "Morton Feldman was the dean of the school in those years."
    claim = "Paul Cézanne was the dean of the school in those years."
    docs = [Document(doc_id="d", text=source + " Paul Cézanne painted the hills.")]
    (judged, *_) = offline_claims(claim, docs, "Who was the dean?")
    assert (judged.verdict, judged.deciding_rule) == (Verdict.CONTRADICTED, "name_swapped")
