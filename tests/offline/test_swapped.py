"""One slot of the restated sentence changed (a name, the actor, a bound, a number) is
contradicted, a modal or quantifier of another strength unsupported; the sentence copied,
or the slot paraphrased, is not."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from halgate.evidence.index import Passage
from halgate.judges.offline.features import claim_features
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.offline.restating.changed_values import swapped_number
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, Document, Verdict
from halgate.text.words import tokenize

DOC = Document(
    doc_id="boats",
    text=(
        "Nordwind Boats rents sailing dinghies on Lake Varn. "
        "The customer pays the cleaning fee of 20 euros after each rental. "
        "Anna Berg signs every rental contract at the harbour office. "
        "Tom Lind checks each boat before it leaves the jetty. "
        "Children under 12 must wear a life jacket at all times. "
        "You must return the boat at least 30 minutes before sunset. "
        "Take the key from the box by the door. "
        "A late return costs 50 euros."
    ),
)
CASE = Case(case_id="c", question="What are the rental rules?")


def _judge(answer: str, use_model: bool) -> tuple[Verdict, str | None]:
    task = JudgeTask(case=CASE, documents=[DOC], answers={"s": answer})
    result = OfflineJudge(use_model=use_model).judge_task(task)
    assert not result.errors
    (claim,) = result.claims["s"]
    return claim.verdict, claim.deciding_rule


@pytest.mark.parametrize("use_model", [False, True])
@pytest.mark.parametrize(
    ("answer", "rule"),
    [
        ("The company pays the cleaning fee of 20 euros after each rental.", "actor_swapped"),
        ("We must return the boat at least 30 minutes before sunset.", "actor_swapped"),
        ("Tom Lind signs every rental contract at the harbour office.", "name_swapped"),
        ("Anna Berg rents sailing dinghies on Lake Varn.", "name_swapped"),
        ("Children under 12 may wear a life jacket at all times.", "strength_changed"),
        ("Children over 12 must wear a life jacket at all times.", "bound_reversed"),
        ("You must return the boat at most 30 minutes before sunset.", "bound_reversed"),
        ("You must return the boat at least 30 minutes after sunset.", "bound_reversed"),
    ],
)
def test_a_swapped_slot_is_contradicted_by_its_own_rule(
    answer: str, rule: str, use_model: bool
) -> None:
    verdict = Verdict.UNSUPPORTED if rule == "strength_changed" else Verdict.CONTRADICTED
    assert _judge(answer, use_model) == (verdict, rule)


@pytest.mark.parametrize(
    "answer",
    [
        "The customer pays the cleaning fee of 20 euros after each rental.",
        "Anna Berg signs every rental contract at the harbour office.",
        "Children under 12 must wear a life jacket at all times.",
        # The reader is the customer: 'you' for 'the customer' moves nobody's duty.
        "You pay the cleaning fee of 20 euros after each rental.",
        # A shorter form of the same name is the same person.
        "Ms Berg signs every rental contract at the harbour office.",
        # A capital that only starts a sentence makes no name.
        "Grab the key from the box by the door.",
    ],
)
def test_a_copy_or_a_paraphrased_slot_is_not_contradicted(answer: str) -> None:
    verdict, rule = _judge(answer, use_model=True)
    assert verdict != Verdict.CONTRADICTED, rule
    assert rule not in {
        "actor_swapped",
        "name_swapped",
        "bound_reversed",
        "strength_changed",
        "number_swapped",
    }


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("Stop at least 48 hours before surgery.", "'48' for '24'"),
        ("Stop at least 24 hours before surgery.", None),
        # The ends of a span are written in many ways: '2018-19' for '2018-2019'.
        ("It runs in the 2018-19 year.", None),
    ],
)
def test_a_number_in_the_place_of_another_is_found_even_one_stated_elsewhere(
    claim: str, found: str | None
) -> None:
    """The number rules decide first where they see the change; this one catches a number
    the document states elsewhere put in the place of the sentence's own."""
    sentence = {
        "Stop": "Stop at least 24 hours before surgery.",
        "It": "It runs in the 2018-2019 year.",
    }
    text = sentence[claim.split()[0]]
    passage = cast(Passage, SimpleNamespace(text=text, tokens=tuple(tokenize(text))))
    assert swapped_number(claim_features(claim), passage) == found


SALES = Document(
    doc_id="sales",
    text=(
        "The novel became a surprise hit. Since it was published in March it has sold "
        "more than 55,000 copies, according to figures from Nielsen. The author lives in "
        "New York. FIFO queues process up to 300 messages per second. Requests carry an "
        "X-Nimbus-Key header."
    ),
)


@pytest.mark.parametrize(
    ("claim", "about"),
    [
        # the source a claim names is blanked from its tokens; the name slot reads it whole
        (
            "Since it was published in March it has sold more than 55,000 copies, "
            "according to figures from New York.",
            "new york for nielsen",
        ),
        # a name that opens the claim is found without every part of its joined word
        (
            "X-Nimbus-Key queues process up to 300 messages per second.",
            "x nimbus key for fifo",
        ),
    ],
)
def test_a_name_swapped_in_a_named_source_or_at_the_start_is_found(claim: str, about: str) -> None:
    task = JudgeTask(case=CASE, documents=[SALES], answers={"s": claim})
    (judged,) = OfflineJudge(use_model=False).judge_task(task).claims["s"]
    assert judged.deciding_rule == "name_swapped", judged.rationale
    assert about in judged.rationale


@pytest.mark.parametrize(
    "claim",
    [
        "Since it was published in March it has sold more than 55,000 copies, "
        "according to figures from Nielsen.",
        "According to Nielsen figures, it has sold more than 55,000 copies since March.",
        "FIFO queues process up to 300 messages per second.",
    ],
)
def test_the_same_names_are_no_swap(claim: str) -> None:
    task = JudgeTask(case=CASE, documents=[SALES], answers={"s": claim})
    (judged,) = OfflineJudge(use_model=False).judge_task(task).claims["s"]
    assert judged.verdict is Verdict.SUPPORTED, judged.rationale
