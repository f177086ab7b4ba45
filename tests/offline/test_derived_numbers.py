"""A number the sources do not state is backed only by reckoning the claim shows from
numbers the sources do state, never by a coincidence among the claim's own numbers."""

from __future__ import annotations

from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.offline.number_checks import _derived
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, Document, Verdict
from halgate.text.quantities import extract_quantities

LEAVE = Document(
    doc_id="leave",
    text="After 12 months of service, employees get 8 days of paid sick leave. "
    "Unused sick leave cannot be carried over to the next year.",
)
CASE = Case(case_id="c", question="How much sick leave do I get?", doc_ids=["leave"])


def test_a_number_equal_to_the_difference_of_two_others_is_still_invented():
    answer = (
        "After 12 months of service you get 8 days of paid sick leave, "
        "then a further 4 days at half pay."
    )
    task = JudgeTask(CASE, [LEAVE], {"a": answer})
    claims = OfflineJudge().judge([task])[0].claims["a"]
    four = [c for c in claims if "4 days" in c.text]
    assert four and all(c.verdict != Verdict.SUPPORTED for c in four), [
        (c.text, c.verdict, c.rationale) for c in claims
    ]


def test_reckoning_counts_only_when_the_claim_shows_it():
    twelve, eight, four = extract_quantities("12 days and 8 days and 4 days")
    assert _derived("12 days less 8 days makes 4 days in total", four, (twelve, eight), 0.01)
    assert not _derived("12 days, 8 days, then a further 4 days", four, (twelve, eight), 0.01)
    months, days, rest = extract_quantities("12 months and 8 days and 4 days")
    assert not _derived("12 months less 8 days is 4 days in total", rest, (months, days), 0.01)


YEMEN = Document(
    doc_id="article",
    text="The United Nations said that at least 519 people have been killed in Yemen in the past "
    "two weeks. An additional 1,700 have been wounded. Tens of thousands have fled to Somalia. "
    "In Aden alone, fighting has killed 58 people and injured 200 more in the past two days.",
)


def test_an_unmatched_number_with_a_rival_is_not_said_to_be_in_no_document():
    """A rival value ('injured 200 more') too weakly aligned to contradict leaves the number
    unmatched; the reason says so, not that no document holds it (the article does)."""
    claim = "The war has caused wide destruction, with 519 people killed and 1,700 injured."
    task = JudgeTask(CASE, [YEMEN], {"a": claim})
    (judged,) = OfflineJudge(use_model=False).judge([task])[0].claims["a"]
    assert judged.deciding_rule == "number_unmatched", judged.rationale
    assert "in no source document" not in judged.rationale
    assert "the evidence (article) gives another value for it" in judged.rationale
