"""A name and the code for it are one name: a claim that spells out what the sources write
as capitals ("Rowing Club Safety Authority" for "RCSA"), or writes as capitals what the
sources spell out ("HSO" for "Harbour Safety Office"), names nothing the sources lack; nor
does a place whose people the sources name ("Norway" where they speak of "Norwegians",
"Maine" of "Mainers")."""

from __future__ import annotations

import pytest
from halgate.models import Document
from halgate.text.lexicon import demonyms

from ...conftest import offline_claims

GUIDE = Document(
    doc_id="guide",
    text=(
        "Crew safety follows the rules of the RCSA. "
        "Training on the canal is supervised by the Harbour Safety Office. "
        "Most of the crews are Americans and Mainers who train in summer."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "Crew safety follows the rules of the Rowing Club Safety Authority.",
        "Training on the canal is supervised by the HSO.",
        "Most of the crews come from America and train in summer.",
        "Most of the crews are from Maine and train in summer.",
    ],
)
def test_a_name_the_sources_write_as_its_code_is_no_missing_name(claim: str) -> None:
    (judged,) = offline_claims(claim, [GUIDE])
    assert judged.signals["names_missing"] == []


def test_a_name_whose_initials_the_sources_do_not_write_is_still_missing() -> None:
    (judged,) = offline_claims("Crew safety follows the rules of the Rowing Safety Board.", [GUIDE])
    assert judged.signals["names_missing"] == ["Rowing Safety Board"]


def test_a_place_is_named_by_the_word_for_its_people_only() -> None:
    assert {"american", "mainer", "canadian", "chinese"} <= {
        *demonyms("america"),
        *demonyms("maine"),
        *demonyms("canada"),
        *demonyms("china"),
    }
    assert "christian" not in demonyms("chris")  # a longer name is another name
    (judged,) = offline_claims("Most of the crews come from Norway and train in summer.", [GUIDE])
    assert judged.signals["names_missing"] == ["Norway"]


HISTORY = Document(
    doc_id="history",
    text=(
        "The harbour was rebuilt after World War II. "
        "Many Icelanders and Faroese Islanders fished from it in the 1950s."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "The harbour was rebuilt after WWII.",  # a numbered code: 'World War II'
        "The harbour was rebuilt after WW2.",  # its number written otherwise
        "A Faroese Islander fished from the harbour in the 1950s.",  # one of the Islanders
    ],
)
def test_a_numbered_code_or_a_singular_names_what_the_sources_name(claim: str) -> None:
    (judged,) = offline_claims(claim, [HISTORY])
    assert judged.signals["names_missing"] == [], judged.rationale


def test_a_numbered_code_the_sources_do_not_spell_out_is_still_missing() -> None:
    (judged,) = offline_claims("The harbour was rebuilt after WWI and WWIII.", [HISTORY])
    assert "WWIII" in judged.signals["names_missing"]
