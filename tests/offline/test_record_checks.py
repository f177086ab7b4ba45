"""Claims checked field by field against a JSON business record (data-to-text answers)."""

from __future__ import annotations

import json

import pytest
from halgate.evidence.index import evidence_index
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.offline.opening_hours import (
    DAY_NAMES,
    claimed_days,
    claimed_times,
    hours_agree,
    wrong_days,
)
from halgate.judges.offline.record_checks import (
    case_facts,
    listing_facts,
    record_conflicts,
    week_states,
)
from halgate.judges.protocol import JudgeTask
from halgate.models import HALLUCINATED, Case, Document, Verdict
from halgate.text.words import tokenize

from ..conftest import offline_claims

RECORD = Document(
    doc_id="biz",
    text=json.dumps(
        {
            "name": "The Lark",
            "address": "131 Anacapa St",
            "city": "Santa Barbara",
            "hours": {
                "Monday": "0:0-0:0",
                "Tuesday": "17:0-21:0",
                "Wednesday": "17:0-21:0",
                "Thursday": "17:0-21:0",
                "Friday": "17:0-22:0",
                "Saturday": "17:0-22:0",
                "Sunday": "17:0-21:0",
            },
            "attributes": {
                "BusinessParking": {"garage": False, "street": True, "lot": False, "valet": False},
                "RestaurantsReservations": True,
                "RestaurantsTakeOut": False,
                "WiFi": "free",
                "OutdoorSeating": True,
                "Alcohol": "none",
                "Music": None,
                "Ambience": {"upscale": False, "trendy": True, "casual": False},
            },
            "review_info": [{"review_text": "An upscale feel, a lot of wines, lovely patio."}],
        }
    ),
)


def conflicts(text: str, record: Document = RECORD) -> list[str]:
    """The conflicts by the business_listings pack's conventions (a listing record)."""
    tokens = tuple(tokenize(text))
    facts = listing_facts(evidence_index([record]))
    found = record_conflicts(text, tokens, facts)
    return [c.field for c in found]


@pytest.mark.parametrize(
    ("claim", "field"),
    [
        ("The ambiance is trendy and upscale.", "attributes.Ambience.upscale = false"),
        ("It also offers takeout.", "attributes.RestaurantsTakeOut = false"),
        ("You can get take-out there.", "attributes.RestaurantsTakeOut = false"),
        ("They do not take reservations.", "attributes.RestaurantsReservations = true"),
        ("There is no WiFi.", 'attributes.WiFi = "free"'),
        ("The bar serves alcohol.", 'attributes.Alcohol = "none"'),
        ("Guests can use the parking garage.", "attributes.BusinessParking.garage = false"),
        ("It is closed on Tuesdays.", 'hours.Tuesday = "17:0-21:0"'),
        ("Reservations are not accepted.", "attributes.RestaurantsReservations = true"),
        ("It is open Tuesday to Saturday from 5 PM to 9 PM.", 'hours.Friday = "17:0-22:0"'),
        ("On weekends it closes at 10:30 PM.", 'hours.Saturday = "17:0-22:0"'),
        # An article after a comma opens a clause of its own when it goes on past an item.
        (
            "There is no garage parking, a parking lot is available.",
            "attributes.BusinessParking.lot = false",
        ),
    ],
)
def test_a_claim_that_turns_a_field_around_is_caught(claim: str, field: str) -> None:
    assert field in conflicts(claim)


@pytest.mark.parametrize(
    "claim",
    [
        "The ambiance is trendy, with outdoor seating and free WiFi.",
        "It takes reservations and has no take-out.",
        "It is not upscale.",
        "The Lark is on Anacapa Street in Santa Barbara.",  # "Street" is an address here
        "Reviewers mention a lot of wines.",  # not the parking lot
        "It is open Tuesday through Thursday from 5:00 PM to 9:00 PM.",
        "On Fridays and Saturdays it is open until 10 pm.",
        "It is closed on Mondays.",
        "Street parking is available.",
        "Reservations are accepted but takeout is not available.",
        "It does not offer takeout, garage parking, or valet parking.",
        "It is open 5 PM to 9 PM on weekdays, and until 10 PM on Fridays.",
        "It is open every day.",  # Monday "0:0-0:0" reads as closed or as all day
        "The menu is not stated in the record.",  # "state" is no yes/no field
        "It does not, however, take takeout orders.",  # the aside does not end the denial
        "The ambience is trendy rather than casual or upscale.",
        # A new clause after a comma ends the denial before it.
        "While they don't offer takeout, they do feature outdoor seating.",
        "Despite no garage parking, the street parking is available.",
        # A time said of no day and of no opening is the time of something else.
        "Outdoor seating only becomes available from 8:00 AM.",
        # A list's items after a comma are still denied, an article before them or not.
        "Parking is on the street but not in a garage, a lot, or valet.",
        # The key's words apart, one denied and one asserted: another thing is denied.
        "There is no indoor seating, but there are outdoor tables.",
        # What a customer said is about the review, not the record's yes/no fields.
        "A customer mentioned that they held upscale events there.",
    ],
)
def test_a_claim_the_record_agrees_with_raises_nothing(claim: str) -> None:
    assert conflicts(claim) == []


def test_a_time_said_of_no_day_is_an_opening_hour_when_the_claim_speaks_of_opening() -> None:
    assert conflicts("It opens at 8:00 AM.") != []


def test_days_and_times_are_read_from_prose() -> None:
    assert claimed_days("open Tuesday to Saturday") == {1, 2, 3, 4, 5}
    assert claimed_days("Fri-Sun and Mon") == {4, 5, 6, 0}
    assert claimed_days("on weekdays") == {0, 1, 2, 3, 4}
    assert claimed_days("in the sun on the patio") == set()  # lower-case "sun" is no day
    assert claimed_days("the Sun Valley shop, Wed Lane") == set()  # names, not days
    assert claimed_days("Sat 9 AM to 1 PM, Tue and Thu") == {5, 1, 3}
    assert claimed_times("from 11:30 AM to 9 p.m.") == {690, 1260}
    assert claimed_times("12:00 PM to 21:00 PM, until midnight") == {720, 1260, 0}
    assert claimed_times("a 4.5 star rating and 20 reviews") == set()


def test_hours_agree_when_the_week_has_every_day_the_claim_times_and_none_is_wrong() -> None:
    week = {1: (720, 1260), 2: (720, 1260), 3: (720, 1260), 4: (720, 1320), 5: (720, 1320)}
    assert hours_agree("It opens 12 PM to 9 PM Tuesday to Thursday, till 10 PM on Fridays.", week)
    assert not hours_agree("It opens 12 PM to 9 PM Tuesday to Friday.", week)  # Friday: 10
    assert not hours_agree("It opens 12 PM to 9 PM on Mondays.", week)  # no hours for Monday
    assert not hours_agree("It is open Tuesday to Thursday.", week)  # no time given


def test_days_without_times_agree_when_they_are_the_weeks_own() -> None:
    """'open from Tuesday to Saturday' where the week lists exactly those days says what
    the week says; fewer or more days, or no opening words, do not."""
    week = {1: (720, 1260), 2: (720, 1260), 3: (720, 1260), 4: (720, 1320), 5: (720, 1320)}
    assert not hours_agree("It is open from Tuesday to Thursday.", week)
    assert not hours_agree("Tuesday to Saturday brings live music.", week)
    assert not hours_agree("It is open from Monday to Saturday.", {0: None, **week})  # 0:0-0:0
    shop = {"name": "Deli", "hours": {d: "12:0-21:0" for d in DAY_NAMES[1:6]}}
    (claim,) = offline_claims("It is open from Tuesday to Saturday with varied hours.",
                              [Document(doc_id="shop", text=json.dumps(shop))])  # fmt: skip
    assert claim.signals["coverage"] > 0.7, claim.rationale


def test_times_given_before_their_days_go_with_the_days_after_them() -> None:
    """'4-8 PM on Tuesdays, Wednesdays, and Thursdays, 4-9 PM on Fridays': each time range
    is said of the days that follow it, up to the next range; the list's 'and' ends no part."""
    week = {1: (960, 1200), 2: (960, 1200), 3: (960, 1200), 4: (960, 1260), 5: (720, 1260)}
    right = "open from 4 PM to 8 PM on Tuesdays, Wednesdays, and Thursdays, from 4 PM to 9 PM on "
    assert hours_agree(right + "Fridays, from 12 PM to 9 PM on Saturdays", week)
    assert wrong_days(right + "Fridays, from 12 PM to 8 PM on Saturdays", week) == [5]
    assert wrong_days("open 4 PM to 9 PM on Tuesdays, Wednesdays, and Fridays", week) == [1, 2]
    assert wrong_days("open 4 PM to 8 PM on Tuesdays and 4 PM to 9 PM on Wednesdays", week) == [2]


def test_a_time_of_no_day_agrees_when_the_week_has_it_and_the_claim_speaks_of_opening() -> None:
    week = {1: (1020, 1260), 4: (1020, 1320)}
    assert hours_agree("It operates until 10 PM.", week)
    assert not hours_agree("It operates until 11 PM.", week)
    assert not hours_agree("The kitchen serves food until 10 PM.", week)  # no opening words


def test_the_week_states_a_time_of_an_hours_claim_on_a_day_it_names() -> None:
    facts = case_facts(evidence_index([RECORD]))
    assert week_states("It is open until 10 PM on Fridays.", 1320, facts)
    assert not week_states("It is open until 10 PM on Tuesdays.", 1320, facts)
    assert week_states("It operates every week until 10 PM.", 1320, facts)  # no day: any day
    assert not week_states("A table for 10 PM was booked.", 1320, facts)  # no opening words


def test_hours_the_record_confirms_are_covered_by_its_day_fields() -> None:
    """Each day is a field of its own, so word overlap found one day's words at a time and
    left a right hours claim uncovered; hours the week confirms count as said."""
    right = "It is open from 5 PM to 9 PM Tuesday to Thursday."
    wrong = "It is open from 5 PM to 9 PM Tuesday to Friday."
    task = JudgeTask(case=Case(case_id="c", question="Describe it."), documents=[RECORD],
                     answers={"a": right, "b": wrong})  # fmt: skip
    claims = OfflineJudge(use_model=False).judge_task(task).claims
    assert claims["a"][0].signals["coverage"] > 0.7, claims["a"][0].rationale
    assert claims["b"][0].verdict == Verdict.CONTRADICTED, claims["b"][0].rationale


def test_wrong_days_reads_missing_days_as_closed_and_zero_hours_as_undecided() -> None:
    week = {0: None, 1: (600, 1200), 2: (600, 1200), 3: (600, 1200), 4: (600, 1320)}
    listing = {"closed_days": frozenset(), "missing_closed": True}  # business_listings pack
    assert wrong_days("Open every day from 10 AM to 8 PM.", week, **listing) == [4, 5, 6]
    assert wrong_days("Open every day from 10 AM to 8 PM.", week) == [4]  # core: unknown
    assert wrong_days("Open every day from 10 AM to 8 PM.", week, frozenset({5})) == [4, 5]
    assert wrong_days("Open Tuesday to Thursday, 10 AM to 8 PM.", week, **listing) == []
    assert wrong_days("Closed on weekends and on Mondays.", week, **listing) == []
    assert wrong_days("Open until 11 PM.", week) == [1, 2, 3, 4]  # no day: any listed day


def test_the_judge_contradicts_the_claim_and_cites_the_field() -> None:
    case = Case(case_id="c1", question="")
    task = JudgeTask(case=case, documents=[RECORD], answers={"s": "The Lark offers takeout."})
    judge = OfflineJudge(use_model=False, rule_packs=["business_listings"])
    (claim,) = judge.judge_task(task).claims["s"]
    assert claim.verdict == Verdict.CONTRADICTED, claim.rationale
    assert "attributes.RestaurantsTakeOut = false" in claim.rationale
    assert [c.quote for c in claim.citations] == ['"RestaurantsTakeOut": false']
    assert claim.signals["listing_conflicts"] == ["attributes.RestaurantsTakeOut = false"]


def test_a_day_the_listing_leaves_out_is_closed_and_the_listing_is_cited() -> None:
    week = {
        d: "10:0-20:0" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
    }
    shop = Document(doc_id="shop", text=json.dumps({"name": "Corner Deli", "hours": week}))
    case = Case(case_id="c2", question="")
    answers = {
        "s": "Corner Deli is open from 10 AM to 8 PM every day of the week.",
        "t": "Corner Deli is open Monday to Saturday from 10 AM to 8 PM.",
    }
    task = JudgeTask(case=case, documents=[shop], answers=answers)
    judge = OfflineJudge(use_model=False, rule_packs=["business_listings"])
    result = judge.judge_task(task).claims
    (wrong,), (right,) = result["s"], result["t"]
    assert wrong.verdict == Verdict.CONTRADICTED and "no hours.Sunday" in wrong.rationale
    assert wrong.deciding_rule == "listing_conflict"
    quote = wrong.citations[0].quote
    assert quote.startswith('"Monday"') and quote.endswith('"10:0-20:0"') and "Saturday" in quote
    assert wrong.citations[0].verified
    assert right.verdict != Verdict.CONTRADICTED and not right.signals["record_conflicts"]


@pytest.mark.parametrize("closed", ["closed", "Closed all day"])
def test_a_day_the_record_calls_closed_is_closed_and_its_field_is_cited(closed: str) -> None:
    hours = {"monday": "10:00-18:00", "sunday": closed}
    shop = Document(doc_id="shop", text=json.dumps({"name": "Corner Books", "hours": hours}))
    answers = {
        "s": "Corner Books is open on Sundays from 10:00 to 18:00.",
        "t": "Corner Books is closed on Sundays.",
    }
    task = JudgeTask(case=Case(case_id="c3", question=""), documents=[shop], answers=answers)
    result = OfflineJudge(use_model=False).judge_task(task).claims
    (wrong,), (right,) = result["s"], result["t"]
    assert wrong.verdict == Verdict.CONTRADICTED, wrong.rationale
    assert f"hours.sunday = {json.dumps(closed)}" in wrong.rationale
    assert [c.quote for c in wrong.citations] == [f'"sunday": {json.dumps(closed)}']
    assert right.verdict == Verdict.SUPPORTED and not right.signals["record_conflicts"]


PRODUCT = Document(
    doc_id="catalog",
    text=json.dumps(
        {
            "product": "TrailRunner 3",
            "price_eur": 129.99,
            "weightG": 280,
            "drop_mm": 8,
            "sizes": ["38", "39", "40", "41", "42", "43", "44", "45"],
        },
        indent=2,
    ),
)


def about_the_product(answer: str, use_model: bool = True):
    task = JudgeTask(
        case=Case(case_id="c", question="Tell me about it."),
        documents=[PRODUCT],
        answers={"s": answer},
    )
    return OfflineJudge(use_model=use_model).judge_task(task).claims["s"]


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("The TrailRunner 3 costs €129.99.", Verdict.SUPPORTED),
        ("The TrailRunner 3 costs 129.99 euros.", Verdict.SUPPORTED),
        ("The TrailRunner 3 costs €119.99.", Verdict.CONTRADICTED),
        ("It weighs 280 grams.", Verdict.SUPPORTED),
        ("It weighs 0.28 kg.", Verdict.SUPPORTED),
        ("It weighs 300 g.", Verdict.CONTRADICTED),
        ("It has an 8 mm drop.", Verdict.SUPPORTED),
    ],
)
def test_a_number_whose_key_names_its_unit_is_read_with_it(claim: str, verdict) -> None:
    """ "weightG": 280 is 280 g: as a bare 280 it backed neither "280 grams" nor "0.28 kg",
    and "costs" never met the key "price" (the synonym named an unstemmed word)."""
    (judged,) = about_the_product(claim)
    assert judged.verdict == verdict, judged.rationale


def test_the_items_of_a_records_list_are_each_others_neighbours() -> None:
    (judged,) = about_the_product("It comes in sizes 38 to 45.", use_model=False)
    assert judged.signals["numbers_unmatched"] == [], judged.rationale


def test_a_key_of_several_words_is_found_where_they_stand_together() -> None:
    """ "does not take reservations" denies the reservations, not the takeout field that
    shares the word "take"."""
    record = Document(
        doc_id="biz",
        text=json.dumps({"RestaurantsTakeOut": True, "RestaurantsReservations": False}),
    )
    assert conflicts("It does not take reservations but offers takeout.", record) == []
    assert conflicts("It does not offer takeout.", record) == ["RestaurantsTakeOut = true"]


#: A record whose yes/no keys are of several words ("DogsAllowed").
HOUSE_RULES = Document(
    doc_id="rules",
    text=json.dumps(
        {
            "name": "The Lark",
            "attributes": {"DogsAllowed": False, "BusinessAcceptsCreditCards": False},
        }
    ),
)


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("Dogs are not allowed.", []),
        ("Credit cards are not accepted here.", []),
        ("It does not accept credit cards.", []),
        ("Dogs are allowed.", ["attributes.DogsAllowed = false"]),
        ("It accepts credit cards.", ["attributes.BusinessAcceptsCreditCards = false"]),
    ],
)
def test_a_field_the_claim_names_word_by_word_is_read_where_its_words_stand(
    claim: str, found: list[str]
) -> None:
    # Every word of the key is in the claim, but not written together ("dogsallowed"):
    # the negation is read at those words (a false field the claim named that way was a
    # conflict whatever the claim said).
    assert conflicts(claim, HOUSE_RULES) == found


@pytest.mark.parametrize(("review", "null_field"), [("but take out food is good", False),
                                                    ("and the patio is lovely", True)])  # fmt: skip
def test_a_null_field_a_review_speaks_of_in_words_closed_up_is_no_gap(review, null_field) -> None:
    """'takeout' names the null `RestaurantsTakeOut`; a review's 'take out food' says it,
    though retrieval, reading words as they are, does not find that review."""
    record = {
        "name": "Thai Place",
        "attributes": {"RestaurantsTakeOut": None, "WiFi": "no"},
        "review_info": [{"review_stars": 5.0, "review_text": f"No ambience, {review}."}],
    }
    (judged,) = offline_claims(
        "The takeout food receives praise.", [Document(doc_id="r", text=json.dumps(record))]
    )
    assert (judged.deciding_rule == "null_field") is null_field, judged.rationale


def test_a_reviews_text_denies_only_what_the_best_field_does_not_speak_to() -> None:
    """A review is prose, not a field's value: its 'offering a new menu' does not make 'does
    not offer live music' a negation when `Music` is false; the field itself still rules."""
    record = {
        "name": "BBQ Bar",
        "attributes": {"Music": False, "RestaurantsReservations": False},
        "review_info": [
            {"review_text": "They told me that they are offering a new menu and no BBQ in sight."}
        ],
    }
    docs = [Document(doc_id="r", text=json.dumps(record))]
    (denied,) = offline_claims("It does not offer live music.", docs)
    assert denied.deciding_rule != "negation", denied.rationale
    (offered,) = offline_claims("It offers live music.", docs)
    assert offered.verdict == Verdict.CONTRADICTED, offered.rationale


@pytest.mark.parametrize(("late", "hallucinated"), [("10 PM", False), ("11 PM", True)])
def test_an_exception_for_some_days_stays_with_the_hours_it_excepts(late, hallucinated) -> None:
    """'…from Tuesday to Sunday, while on Fridays and Saturdays it closes at 10 PM' is one
    claim: cut at the comma, its first half would read as Friday's hours too."""
    answer = (
        "It is open from 5 PM to 9 PM from Tuesday to Sunday, while on Fridays and Saturdays "
        f"it closes at {late}."
    )
    (judged,) = offline_claims(answer, [RECORD])
    assert (judged.verdict in HALLUCINATED) is hallucinated, judged.rationale
