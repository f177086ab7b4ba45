"""The offline judge as a user's suite gets it (#15): numbers with their units against the
evidence the claim is aligned to, the document version a claim names, identifiers read
whole, dates reckoned, severity from the case's risk level, and no rule tied to one
benchmark's conventions or one country."""

from __future__ import annotations

import json

import pytest
from halgate.inputs.policy import Policy
from halgate.judges.build import build_judge
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.offline.opening_hours import opening_of
from halgate.judges.protocol import JudgeTask
from halgate.models import (
    HALLUCINATED,
    Case,
    ClaimJudgement,
    Document,
    HallucinationType,
    Mode,
    Severity,
    Verdict,
)
from halgate.text.lexicon import abbreviates
from halgate.text.quantities import extract_quantities

from ..conftest import offline_claims

V, T = Verdict, HallucinationType

SICK_PAY = Document(
    doc_id="hr",
    title="Sick pay policy",
    text=(
        "Employees on sick leave receive full pay for the first 6 weeks. After that, statutory "
        "sick pay applies for up to 28 weeks. Report an absence within 10 working days of its "
        "start. Section 10 covers appeals."
    ),
)


def claims(
    answer: str, docs: list[Document], case: Case | None = None, **judge_options
) -> list[ClaimJudgement]:
    case = case or Case(case_id="c", question="What does the policy say?")
    judge = OfflineJudge(**judge_options)
    task = JudgeTask(case=case, documents=docs, answers={"s": answer})
    return judge.judge_task(task).claims["s"]


@pytest.mark.parametrize("risk", [None, Severity.HIGH])
def test_a_number_is_not_backed_by_the_same_digits_about_something_else(risk) -> None:
    """The rules flag the invented "10 weeks", a value with a unit that no source holds:
    that flag stands whatever the learned model says, at any risk level."""
    case = Case(case_id="c", question="What sick pay do I get?", risk_level=risk)
    invented, stated = claims(
        "After the first 6 weeks you get a further 10 weeks at half pay. "
        "Report an absence within 10 working days.",
        [SICK_PAY],
        case=case,
    )
    assert invented.verdict in HALLUCINATED, invented.rationale
    assert invented.citations == []  # no citation that lacks "10 weeks" and "half pay"
    assert stated.verdict == V.SUPPORTED, stated.rationale


def test_a_value_with_a_unit_needs_the_unit_in_the_evidence() -> None:
    (claim,) = claims("Appeals are covered within 10 weeks.", [SICK_PAY], use_model=False)
    assert "10 weeks" in claim.signals["numbers_unmatched"], claim.rationale


def test_a_value_stated_in_the_next_sentence_is_found() -> None:
    doc = Document(
        doc_id="d",
        text="The museum cafe serves lunch to visitors every day. Lunch is served until 3 pm.",
    )
    (claim,) = claims("The museum cafe serves lunch until 3 pm.", [doc], use_model=False)
    assert claim.signals["numbers_unmatched"] == [], claim.rationale


TERMS_2022 = Document(
    doc_id="terms-2022",
    title="Tenancy terms (version 3, effective 1 April 2022)",
    text="Lost keys are replaced at the tenant's cost, capped at £100 per set.",
)
TERMS_2025 = Document(
    doc_id="terms-2025",
    title="Tenancy terms (version 4, effective 1 February 2025)",
    text="Lost keys are replaced at the tenant's cost, capped at £75 per set.",
)


def test_a_claim_naming_a_version_is_checked_against_that_version() -> None:
    (old,) = claims(
        "Under the 2022 terms, lost keys are capped at £100 per set.", [TERMS_2025, TERMS_2022]
    )
    assert old.verdict == V.SUPPORTED, old.rationale
    (current,) = claims("Lost keys are capped at £100 per set.", [TERMS_2025, TERMS_2022])
    assert current.verdict in HALLUCINATED, current.rationale  # the current terms say £75


def test_a_version_named_in_one_claim_carries_to_the_next() -> None:
    first, second = claims(
        "Under the 2022 terms things were different. The cap was £100 per set.",
        [TERMS_2025, TERMS_2022],
        use_model=False,
    )
    assert second.verdict == V.SUPPORTED, second.rationale


def test_an_invented_phone_number_is_a_high_fabrication() -> None:
    faq = Document(
        doc_id="faq",
        text="For emergencies abroad call our assistance line on +44 20 7946 0100.",
    )
    (claim,) = claims("Call the assistance line on +44 20 7946 0958.", [faq])
    assert (claim.verdict, claim.hallucination_type, claim.severity) == (
        V.UNSUPPORTED,
        T.FABRICATION,
        Severity.HIGH,
    ), claim.rationale
    (right,) = claims("Call the assistance line on +44 20 7946 0100.", [faq])
    assert right.verdict == V.SUPPORTED


@pytest.mark.parametrize(
    ("text", "digits"),
    [("call +44 20 7946 0958 now", "442079460958"), ("dial 0800 123 456.", "0800123456")],
)
def test_phone_numbers_are_read_whole(text: str, digits: str) -> None:
    (q,) = extract_quantities(text)
    assert (q.kind, q.value) == ("phone", digits)


def test_a_date_reckoned_from_a_period_in_the_evidence_is_shown_working() -> None:
    guide = Document(
        doc_id="g", text="A dispute must be raised within 3 months of the end of the tenancy."
    )
    case = Case(case_id="c", question="My tenancy ends on 31 July. When must I raise a dispute?")
    (claim,) = claims(
        "For a tenancy ending on 31 July, a dispute must be raised by 31 October.",
        [guide],
        case=case,
        use_model=False,
    )
    assert claim.signals["numbers_unmatched"] == [], claim.rationale


def test_a_negation_inside_a_condition_denies_nothing() -> None:
    doc = Document(
        doc_id="d",
        text=(
            "The deposit is returned within 10 days of both parties agreeing the amount. "
            "If the tenant does not agree, either side can refer the dispute to adjudication."
        ),
    )
    (claim,) = claims(
        "The deposit is returned within 10 days of both sides agreeing.", [doc], use_model=False
    )
    assert not claim.signals["negation_mismatch"], claim.rationale


REMOTE = Document(doc_id="hr", text="Remote work abroad is not permitted.")


def test_at_critical_risk_a_contradiction_is_critical_and_stands() -> None:
    case = Case(case_id="c", question="Can I work abroad?", risk_level=Severity.CRITICAL)
    (claim,) = claims("Remote work abroad is permitted.", [REMOTE], case=case)
    assert (claim.verdict, claim.severity) == (V.CONTRADICTED, Severity.CRITICAL)


def test_the_verdict_is_the_same_whatever_the_case_is_tagged() -> None:
    doc = Document(doc_id="d", text="The museum opens at 9 am. Tickets cost 12 dollars.")
    seen = set()
    for tags, domain in (([], None), (["qa"], "qa"), (["summary"], "summary")):
        case = Case(case_id="c", question="", tags=tags, domain=domain)
        got = claims("The museum opens at 9 am. Tickets cost 15 dollars.", [doc], case=case)
        seen.add(tuple((c.verdict, c.score) for c in got))
    assert len(seen) == 1


RECORD = Document(
    doc_id="biz", text=json.dumps({"name": "Taffy's Pizza", "attributes": {"Music": None}})
)


@pytest.mark.parametrize(("knob", "flagged"), [("unsupported", True), ("ignore", False)])
def test_claims_about_null_fields_follow_the_policy(knob: str, flagged: bool) -> None:
    judge = build_judge("offline", Policy(null_field_claims=knob), Mode.COMPARE, None)
    task = JudgeTask(
        case=Case(case_id="c", question=""),
        documents=[RECORD],
        answers={"s": "Taffy's Pizza plays live music."},
    )
    (claim,) = judge.judge([task])[0].claims["s"]
    assert bool(claim.signals["null_fields"]) is flagged
    assert judge.spec.options["null_field_claims"] == knob


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("Taffy's Pizza plays live music.", True),
        ("Taffy's Pizza does not give details on live music.", False),
        # Only what follows the cue is said to be unknown.
        ("Taffy's Pizza plays live music but has no details on its parking.", True),
        ("Taffy's Pizza does not have a specific music style mentioned.", False),
        ("No live music is listed for Taffy's Pizza.", False),
    ],
)
def test_a_claim_that_says_a_null_field_is_unknown_fills_no_gap(answer: str, flagged: bool):
    judge = build_judge("offline", Policy(null_field_claims="unsupported"), Mode.COMPARE, None)
    task = JudgeTask(case=Case(case_id="c", question=""), documents=[RECORD], answers={"s": answer})
    claims = judge.judge([task])[0].claims["s"]
    assert any(c.signals.get("null_fields") for c in claims) is flagged


@pytest.mark.parametrize(
    ("value", "minutes"),
    [
        ("11:30-22:0", (690, 1320)),
        ("09:00–17:00", (540, 1020)),
        ("9am-5pm", (540, 1020)),
        ("9:30 a.m. to 5 p.m.", (570, 1020)),
        ("0:0-0:0", None),
        ("closed", None),
    ],
)
def test_opening_hours_are_read_in_the_common_formats(value: str, minutes) -> None:
    assert opening_of(value) == minutes


@pytest.mark.parametrize(
    ("code", "word", "expected"),
    [
        ("ca", "california", True),
        ("nsw", "newsouthwales", True),
        ("by", "bavaria", False),  # B-a-v-a-r-i-a holds no y
        ("it", "italy", True),
        ("tx", "ohio", False),
    ],
)
def test_a_short_code_may_stand_for_a_name_of_any_country(code, word, expected) -> None:
    assert abbreviates(code, word) is expected


def test_a_function_word_is_not_taken_for_a_code() -> None:
    doc = Document(doc_id="d", text="It is sold in the shop.")
    (claim,) = claims("It is sold in Italy.", [doc], use_model=False)
    assert "Italy" in claim.signals["names_missing"]


OFFICE = Document(
    doc_id="office",
    title="Office hours",
    text="The office is open 09:00–17:00 Monday to Friday. It is closed on public holidays.",
)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("The office is open from 9am to 5pm, Monday to Friday.", V.SUPPORTED),
        ("The office is open from 8am to 6pm, Monday to Friday.", V.CONTRADICTED),
    ],
)
def test_clock_times_are_compared_as_times_not_as_words(answer: str, verdict) -> None:
    """The claim's "9am" is the source's "09:00": as a word it was missing from the evidence,
    which made a faithful claim only partly supported; a different time still contradicts it."""
    (claim,) = claims(answer, [OFFICE])
    assert claim.verdict == verdict
    assert not {"9am", "5pm", "8am", "6pm"} & set(claim.signals["missing_words"])


TERMS = [
    Document(
        doc_id=f"terms-{year}",
        title=f"Subscription terms {year}",
        text=f"Under the {year} terms, subscribers may cancel within {days} days for a refund.",
    )
    for year, days in ((2022, 30), (2025, 14))
]


def test_a_value_taken_from_another_version_names_where_it_is() -> None:
    """The 2025 window stated as the 2022 one: misattributed, and the rationale names the
    document that holds the value (it once named the claim's own document as both)."""
    (claim,) = claims("Under the 2022 terms you could cancel within 14 days.", TERMS)
    assert claim.verdict in HALLUCINATED
    assert claim.hallucination_type == T.CITATION_ERROR
    assert claim.rationale.endswith("the evidence is in terms-2025.")
    (faithful,) = claims("Under the 2022 terms you could cancel within 30 days.", TERMS)
    assert faithful.verdict == V.SUPPORTED


def test_a_rationale_names_the_claims_missing_words_not_their_stems() -> None:
    """The stemmer turns "free" into "fr"; a reviewer reads the claim's own word."""
    doc = Document(doc_id="d", text="Bookings can be changed.")
    (claim,) = claims("Bookings can be changed for free.", [doc], use_model=False)
    assert claim.verdict == V.PARTIALLY_SUPPORTED, claim.rationale
    assert claim.signals["missing_words"] == ["fr"]
    assert claim.rationale.endswith("missing: free.")


LEAFLET = Document(
    doc_id="leaflet",
    title="Pain relief tablets",
    text=(
        "Adults and children over 12 years: take 1 or 2 tablets every 4 to 6 hours. "
        "Do not take more than 6 tablets in 24 hours. Do not give to children under 12 years."
    ),
)


@pytest.mark.parametrize(
    ("answer", "verdict", "why"),
    [
        (
            "Children under 12 can take 1 or 2 tablets.",
            V.CONTRADICTED,
            "bounds it the other way: 'under' for 'over'.",
        ),
        ("Children over 12 can take 1 or 2 tablets.", V.SUPPORTED, "Supported"),
        ("Take no more than 6 tablets in 24 hours.", V.SUPPORTED, "Supported"),
    ],
)
def test_a_bound_turned_the_other_way_contradicts(answer: str, verdict, why: str) -> None:
    """Every word and number of the claim is in its evidence, and bound words are stop
    words: only the bound read beside the number tells "under 12" from "over 12"."""
    (claim,) = claims(answer, [LEAFLET])
    assert claim.verdict == verdict, claim.rationale
    assert why in claim.rationale


UPDATE = Document(
    doc_id="notes",
    title="Pricing update",
    text=(
        "From 1 April the monthly fee was raised from £50 to £75. "
        "The default timeout is now 30 seconds (it was 10 seconds)."
    ),
)


@pytest.mark.parametrize(
    ("answer", "verdict", "why"),
    [
        ("The monthly fee is £50.", V.CONTRADICTED, "gives '£50' as the former value, now '£75'"),
        ("The default timeout is 10 seconds.", V.CONTRADICTED, "now '30 seconds'"),
        ("The monthly fee is £75.", V.SUPPORTED, "Supported"),
        ("The timeout is 30 seconds.", V.SUPPORTED, "Supported"),
    ],
)
def test_a_former_value_stated_as_the_current_one_contradicts(answer, verdict, why) -> None:
    """The old value is in the evidence, beside the word that makes it old: stated as the
    value now, it contradicts the source, which names both."""
    (claim,) = claims(answer, [UPDATE])
    assert claim.verdict == verdict, claim.rationale
    assert why in claim.rationale


def test_a_claim_about_the_past_may_state_the_former_value() -> None:
    (claim,) = claims("Before April the monthly fee was £50.", [UPDATE], use_model=False)
    assert claim.signals["numbers_unmatched"] == [], claim.rationale


OUTBREAK = Document(
    doc_id="article",
    text="Gastrointestinal illness has gripped 60 people on the ferry Northern Star, according to "
    "a report from the health agency. Of the ferry's 1,200 passengers, 52 have suffered from "
    "vomiting, fever and other symptoms, the agency said. The illness has also affected eight "
    "members of the 420-person crew. The agency has yet to find the cause. Star Ferries has "
    "been taking action since the outbreak began, including keeping passengers informed.",
)


@pytest.mark.parametrize(("passengers", "verdict"), [("52", V.SUPPORTED), ("53", V.CONTRADICTED)])
def test_a_value_the_sentence_beside_its_evidence_states_about_the_same_thing_has_no_rival(
    passengers: str, verdict: Verdict
) -> None:
    """The claim joins three sentences; its evidence is the crew's, whose '420-person' is no
    rival to the passengers' 52 that the sentence before it states."""
    claim = (
        f"Gastrointestinal illness has affected 60 people on the Northern Star ferry, including "
        f"{passengers} passengers and 8 crew members."
    )
    (judged,) = offline_claims(claim, [OUTBREAK])
    assert judged.verdict == verdict, judged.rationale
