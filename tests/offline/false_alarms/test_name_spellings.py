"""One name written two ways is one name: initials with periods ("U.N.") and without, and a
name after a capitalised 'While' or 'Despite' opening the sentence. A name one letter away
("Julian" / "Julia", "Daniela" / "Daniel") is another person's: names are not matched
loosely (a variant that let "Camron" stand for "Cameron" cost the out-of-fold figures)."""

from __future__ import annotations

import pytest
from halgate.models import Document
from halgate.text.names import name_known
from halgate.text.words import proper_names

from ...conftest import offline_claims

BRIEF = Document(
    doc_id="brief",
    text=(
        "The appeal came just before the U.N. Security Council met on Yemen. "
        "Blue Kim needs one more vote to stay in the house."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "The appeal came as the UN Security Council met on Yemen.",
        "While Blue Kim needs one more vote, she hopes to stay in the house.",
        "Despite Blue Kim's hopes, she needs one more vote to stay in the house.",
    ],
)
def test_a_name_written_another_way_is_no_missing_name(claim: str) -> None:
    (judged,) = offline_claims(claim, [BRIEF])
    assert judged.signals["names_missing"] == [], judged.rationale


@pytest.mark.parametrize(
    ("name", "source_words"),
    [("Julian", {"julia"}), ("Daniela", {"daniel"}), ("Camron", {"cameron"}), ("UN", {"u", "n"})],
)
def test_another_persons_name_is_not_known(name: str, source_words: set[str]) -> None:
    assert not name_known(name, (frozenset(source_words),))


def test_a_sentence_opening_subordinator_is_no_part_of_a_name() -> None:
    assert proper_names("While Blue tries to stay, Jag needs one more vote.") == ["Blue", "Jag"]
