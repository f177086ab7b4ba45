"""Value changes: numbers, units, dates, weekdays, times, bounds."""

from __future__ import annotations

import pytest

from .helpers import apply


@pytest.mark.parametrize(
    ("name", "sentence", "claim"),
    [
        ("number_changed", "Refunds take 5 days.", "Refunds take 6 days."),
        ("number_changed", "Since 2019 refunds take 5 days.", "Since 2019 refunds take 6 days."),
        ("unit_changed", "Refunds take 14 days.", "Refunds take 14 weeks."),
        ("unit_changed", "Take 50 mg twice a day.", "Take 50 g twice a day."),
        ("date_changed", "The policy starts on 1 March 2024.", "The policy starts on 1 June 2024."),
        ("date_changed", "The policy was revised in 2021.", "The policy was revised in 2022."),
        ("weekday_changed", "The shop is closed on Mondays.", "The shop is closed on Wednesdays."),
        ("time_changed", "The shop opens at 9am.", "The shop opens at 11am."),
        ("time_changed", "The shop closes at 17:30.", "The shop closes at 19:30."),
        ("bound_reversed", "Children under 12 travel free.", "Children over 12 travel free."),
        ("bound_reversed", "Take at least 2 litres a day.", "Take at most 2 litres a day."),
        ("bound_reversed", "Call us before you travel.", "Call us after you travel."),
    ],
)
def test_a_value_change_replaces_one_value(name, sentence, claim):
    assert apply(name, sentence) == claim


def test_a_changed_number_is_one_the_document_never_states():
    document = "Refunds take 5 days. Exchanges take 6 days."
    assert apply("number_changed", "Refunds take 5 days.", document) == "Refunds take 10 days."


@pytest.mark.parametrize(
    "name",
    [
        "number_changed",
        "unit_changed",
        "date_changed",
        "weekday_changed",
        "time_changed",
        "bound_reversed",
    ],
)
def test_a_sentence_without_the_value_is_skipped(name):
    assert apply(name, "The staff are friendly and helpful.") is None


def test_up_to_is_a_bound_only_before_a_number():
    assert apply("bound_reversed", "You can claim up to 150 euros a day.") == (
        "You can claim at least 150 euros a day."
    )
    assert apply("bound_reversed", "Stepping up to the tee, he hit the ball.") is None
