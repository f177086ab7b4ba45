"""A count is one value in digits and spelled out, when a sentence is chosen by its values."""

from __future__ import annotations

from halgate.models import Document, Verdict
from halgate.text.values import value_words

from ..conftest import offline_claims


def test_a_small_count_is_found_in_both_spellings() -> None:
    assert value_words(("eight", "mph", "on", "december", "2")) == {
        "eight",
        "8",
        "december",
        "2",
        "two",
    }
    assert "1" not in value_words(("one", "of", "them"))  # 'one' is a pronoun as often


def test_a_spelled_count_speaks_of_the_sentence_with_its_digits() -> None:
    forecast = Document(
        doc_id="forecast",
        text=(
            "Tonight there is a 40 percent chance of rain and 8 mph winds from the West. "
            "Tomorrow there is a 40 percent chance of rain and 12 mph winds from the North."
        ),
    )
    claim = "Tonight there is a 40 percent chance of rain and eight mph winds from the West."
    (judged,) = offline_claims(claim, [forecast], "What is the forecast?")
    assert judged.verdict == Verdict.SUPPORTED, judged.rationale
