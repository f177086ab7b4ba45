"""One slot of the restated sentence changed (a name, the actor, a bound) is contradicted;
the sentence copied, or the slot paraphrased, is not."""

from __future__ import annotations

import pytest
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, Document, Verdict

DOC = Document(
    doc_id="boats",
    text=(
        "Nordwind Boats rents sailing dinghies on Lake Varn. "
        "The customer pays the cleaning fee of 20 euros after each rental. "
        "Anna Berg signs every rental contract at the harbour office. "
        "Tom Lind checks each boat before it leaves the jetty. "
        "Children under 12 must wear a life jacket at all times. "
        "You must return the boat at least 30 minutes before sunset. "
        "Take the key from the box by the door."
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
        ("Children over 12 must wear a life jacket at all times.", "bound_reversed"),
        ("You must return the boat at most 30 minutes before sunset.", "bound_reversed"),
        ("You must return the boat at least 30 minutes after sunset.", "bound_reversed"),
    ],
)
def test_a_swapped_slot_is_contradicted_by_its_own_rule(
    answer: str, rule: str, use_model: bool
) -> None:
    assert _judge(answer, use_model) == (Verdict.CONTRADICTED, rule)


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
    assert rule not in {"actor_swapped", "name_swapped", "bound_reversed"}
