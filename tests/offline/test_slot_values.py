"""One slot of a restated sentence changed: a month or weekday for another is another
value, and a claim word used earlier in the sentence does not hide the slot."""

from __future__ import annotations

import pytest
from halgate.models import Document, Verdict

from ..conftest import offline_claims


def _judged(source: str, claim: str):
    return offline_claims(claim, [Document(doc_id="d", text=source)], "What does it say?")


@pytest.mark.parametrize(
    ("source", "claim"),
    [
        (
            "The club loaned Smith to United in July and he has five goals this season.",
            "The club loaned Smith to United in October and he has five goals this season.",
        ),
        (
            "Storey can win a 17th title when she rides in Saturday's road race.",
            "Storey can win a 17th title when she rides in Monday's road race.",
        ),
    ],
)
def test_another_month_or_weekday_is_contradicted(source: str, claim: str) -> None:
    (judged,) = _judged(source, claim)
    assert judged.verdict == Verdict.CONTRADICTED
    # Read as a name when the other words give it a capital mid-sentence, else a value.
    assert judged.deciding_rule in {"name_swapped", "number_swapped"}


@pytest.mark.parametrize("period", ["six-week", "6-week"])
def test_another_period_written_out_is_a_changed_value(period: str) -> None:
    """'six-month' is read as a quantity (6 months) as '6-month' is: a value no source
    states, whichever way the count is written; the slot finding is kept as well."""
    source = f"The inaugural tour was a {period} trek that the critics hailed for its bands."
    (judged,) = _judged(source, source.replace("week", "month"))
    assert judged.verdict == Verdict.UNSUPPORTED
    assert judged.deciding_rule == "number_unmatched"
    assert judged.signals["number_swapped"] is True


def test_a_word_used_earlier_in_the_sentence_does_not_hide_the_slot() -> None:
    source = (
        "Ketoconazole can strongly increase the amount of zelparin in the blood, "
        "and Zelparin should not be used together with it."
    )
    *_, last = _judged(source, source.replace("should not", "must not"))
    assert last.verdict == Verdict.UNSUPPORTED
    assert last.deciding_rule == "strength_changed"


def test_the_same_month_stays_supported() -> None:
    source = "It was announced in January that Emma Watson had been cast as Belle."
    (judged,) = _judged(source, source)
    assert judged.verdict == Verdict.SUPPORTED


def test_about_a_spelled_count_is_as_hedged_as_about_its_digits() -> None:
    source = "The farm is about 5 miles from the campus, where both of them worked."
    (judged,) = _judged(source, source.replace("about 5", "about five"))
    assert judged.verdict == Verdict.SUPPORTED, judged.rationale


def test_a_possessive_name_for_another_is_a_name_swap() -> None:
    source = "Romine spoke first. I can testify to Liz Patterson's exemplary character."
    *_, judged = _judged(source, "I can testify to Romine's exemplary character.")
    assert judged.verdict == Verdict.CONTRADICTED
    assert judged.deciding_rule == "name_swapped"


def test_may_in_the_slot_of_a_month_is_the_month() -> None:
    """'May' is also a modal, so it is no month word on its own; in the slot where the
    sentence names a month it can only be the month."""
    source = "The month of February saw the ferry company add a late crossing to Skye."
    (judged,) = _judged(source, source.replace("February", "May"))
    assert judged.verdict == Verdict.CONTRADICTED, judged.rationale
    assert judged.signals["number_swapped"] is True


@pytest.mark.parametrize(
    ("source", "changed"),
    [
        (
            "The trail opened to walkers in April and closed for repairs in October.",
            ("in April", "in October"),
        ),
        (
            "Berg, the 2019 champion, and Lind, the 2021 champion, met in the final.",
            ("2019 champion", "2021 champion"),
        ),
    ],
)
def test_a_value_moved_into_the_slot_of_another_is_a_change(
    source: str, changed: tuple[str, str]
) -> None:
    """The claim states one of the sentence's own values twice, once where the sentence
    has another: the value the sentence gave that slot is gone."""
    (judged,) = _judged(source, source.replace(*changed))
    assert judged.verdict != Verdict.SUPPORTED, judged.rationale
    assert judged.signals["number_swapped"] is True


def test_a_value_of_the_sentence_stated_once_is_no_slot_change() -> None:
    """Which of the sentence's values goes with which is not read from one slot: a claim
    that states one of them once, in another's place, is left to the other rules."""
    source = "Silver members pay £100 a year and Gold members pay £50 a year."
    (judged,) = _judged(source, "Gold members pay £50 a year.")
    assert judged.verdict == Verdict.SUPPORTED, judged.rationale
    assert judged.signals["number_swapped"] is False


@pytest.mark.parametrize(
    ("source", "claim"),
    [
        (  # 'have to' is an obligation, as 'must' is
            "Every visitor has to sign in at the front desk of the library.",
            "Every visitor may sign in at the front desk of the library.",
        ),
        (  # 'need not' lifts what 'must not' forbids
            "The tenant must not sublet the flat without the landlord's written consent.",
            "The tenant need not sublet the flat without the landlord's written consent.",
        ),
        (  # the 'that' before the modal is no part of how strongly it asserts
            "Report anything that may break the rules of the library to the front desk.",
            "Report anything that must break the rules of the library to the front desk.",
        ),
    ],
)
def test_a_modal_of_another_strength_is_unsupported(source: str, claim: str) -> None:
    (judged,) = _judged(source, claim)
    assert judged.verdict == Verdict.UNSUPPORTED, judged.rationale
    assert judged.deciding_rule == "strength_changed"


@pytest.mark.parametrize(
    ("source", "claim", "rule"),
    [
        (  # the date sits in the source the claim credits, which is read too
            "According to a January 7, 2006 obituary, the painter was 49 years old.",
            "According to a April 7, 2006 obituary, the painter was 49 years old.",
            "number_swapped",
        ),
        (  # 'Fridays' is Friday
            "The clinic hosts its open sessions on Fridays at the town library.",
            "The clinic hosts its open sessions on Sundays at the town library.",
            "number_swapped",
        ),
        (  # 'up to' is an upper bound, as 'at most' is
            "The bot archives smaller websites of up to a few hundred thousand pages.",
            "The bot archives smaller websites of at least a few hundred thousand pages.",
            "bound_reversed",
        ),
    ],
)
def test_a_value_or_bound_changed_where_it_hid_is_contradicted(
    source: str, claim: str, rule: str
) -> None:
    (judged,) = _judged(source, claim)
    assert (judged.verdict, judged.deciding_rule) == (Verdict.CONTRADICTED, rule), judged.rationale


def test_another_year_in_the_slot_of_the_sentences_is_contradicted() -> None:
    """A year is a value like any other: 1980 for 1979 in the sentence it restates is
    contradicted, though another line of the source names 1980 (it was let pass as one of
    'a span's ends written in many ways', which a single slot is not)."""
    source = (
        "Snowfall records:\n1  Least snow fall: 10.2 inches in 1980.\n"
        "2  Most snow fall recorded in 1979 in Rockford : 74.5 inches in one season."
    )
    claim = "Most snow fall recorded in 1980 in Rockford: 74.5 inches in one season."
    (judged,) = _judged(source, claim)
    assert judged.verdict == Verdict.CONTRADICTED, judged.rationale
    assert judged.deciding_rule == "number_swapped"


def test_a_years_short_form_is_the_same_year() -> None:
    source = "He played for the club from 2001-2007 and then moved to Spain."
    (judged,) = _judged(source, "He played for the club from 2001-07 and then moved to Spain.")
    assert judged.verdict != Verdict.CONTRADICTED, judged.rationale
