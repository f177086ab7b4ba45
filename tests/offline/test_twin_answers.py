"""An answer another system gave word for word is judged once: the copy must be exactly
what judging it alone gives, under its own ids, sharing no mutable object."""

from __future__ import annotations

import pickle

import pytest
from halgate.inputs.suite import load_suite
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.protocol import JudgeTask
from halgate.models import Citation, HallucinationType, Mode, Severity, Verdict
from halgate.models.claims import (
    Claim,
    ClaimJudgement,
    trusted_citation,
    trusted_claim,
    trusted_copy,
    trusted_finding,
    trusted_judgement,
)
from halgate.run.engine import plan_tasks
from pydantic import BaseModel

from ..conftest import EXAMPLE_SUITE


def _without_ids(claims):
    return [c.model_dump(exclude={"claim_id", "system"}) for c in claims]


def test_a_repeated_answer_gets_exactly_the_judgements_it_gets_alone():
    suite = load_suite(EXAMPLE_SUITE)
    judge = OfflineJudge()
    tasks = plan_tasks(suite, Mode.COMPARE, ["baseline", "candidate"])
    checked = 0
    for task in tasks:
        answer = task.answers.get("candidate")
        if not answer:
            continue
        twice = JudgeTask(task.case, task.documents, {"candidate": answer, "copy": answer})
        alone = JudgeTask(task.case, task.documents, {"copy": answer})
        both = judge.judge_task(twice)
        single = judge.judge_task(alone).claims["copy"]
        cand, copy = both.claims["candidate"], both.claims["copy"]
        assert [c.model_dump() for c in copy] == [c.model_dump() for c in single]
        assert _without_ids(copy) == _without_ids(cand)
        for a, b in zip(cand, copy, strict=True):
            assert (a.claim_id.split("/")[1], b.claim_id.split("/")[1]) == ("candidate", "copy")
            assert b.system == "copy" and a.signals is not b.signals
            assert all(x is not y for x, y in zip(a.citations, b.citations, strict=True))
            for key, value in a.signals.items():
                if isinstance(value, list | dict):
                    assert value is not b.signals[key], key
        checked += len(copy)
    assert checked > 50


def test_a_case_that_fails_fails_for_the_repeated_answer_too():
    suite = load_suite(EXAMPLE_SUITE)
    task = plan_tasks(suite, Mode.COMPARE, ["baseline", "candidate"])[0]
    judge = OfflineJudge()

    def broken(pending):
        raise RuntimeError("model crashed")

    judge._learn = broken  # type: ignore[method-assign]
    answer = next(iter(task.answers.values()))
    result = judge.judge_task(JudgeTask(task.case, task.documents, {"a": answer, "b": answer}))
    assert set(result.errors) == {"a", "b"} and "model crashed" in result.errors["b"]


def _verdict_fields() -> dict[str, object]:
    finding = trusted_finding("numbers.conflict", Verdict.CONTRADICTED, None, "why", ["3"])
    return {
        "verdict": Verdict.CONTRADICTED,
        "hallucination_type": HallucinationType.FABRICATION,
        "severity": Severity.HIGH,
        "rationale": "The source says 4.",
        "score": 0.9,
        "deciding_rule": "numbers.conflict",
        "findings": [finding],
        "model_changed": False,
        "citations": [Citation(doc_id="d1", quote="four days", start=0, end=9, verified=True)],
        "signals": {"coverage": 0.5},
    }


def test_trusted_judgement_equals_model_construct() -> None:
    """A judgement built without validation equals what model_construct builds."""
    claim = Claim(
        claim_id="c1/cand/0",
        case_id="c1",
        system="cand",
        index=0,
        text="It takes 3 days.",
        start=0,
        end=16,
    )
    fields = _verdict_fields()
    fast = trusted_judgement(claim, **fields)
    slow = ClaimJudgement.model_construct(**claim.__dict__, **fields)
    assert fast.__dict__ == slow.__dict__
    assert list(fast.__dict__) == list(slow.__dict__)  # field order, as model_construct lays it
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump_json() == slow.model_dump_json()
    assert fast == slow
    assert fast.sample_verdicts == [] and fast.sample_verdicts is not slow.sample_verdicts


def _same_record(fast: BaseModel, slow: BaseModel) -> None:
    assert fast.__dict__ == slow.__dict__
    assert list(fast.__dict__) == list(slow.__dict__)  # field order, as validation lays it
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump_json() == slow.model_dump_json()
    assert fast == slow


def test_trusted_claim_equals_the_validated_claim() -> None:
    """The splitter's claims, built without validation, are the records validation makes."""
    fast = trusted_claim("c1", "cand", 2, "It takes 3 days.", 40, 56)
    slow = Claim(
        claim_id="c1/cand/2",
        case_id="c1",
        system="cand",
        index=2,
        text="It takes 3 days.",
        start=40,
        end=56,
    )
    _same_record(fast, slow)


def test_trusted_citation_equals_the_validated_citation() -> None:
    fast = trusted_citation("d1", 3, 12, "four days", "normalized")
    slow = Citation(
        doc_id="d1", start=3, end=12, quote="four days", verified=True, match="normalized"
    )
    _same_record(fast, slow)


def test_trusted_judgements_share_one_fields_set_and_copies_stay_apart() -> None:
    """Trusted judgements hold one fields set between them; a copy with an update gets its
    own, and a change in place of the shared one is refused, not made for every judgement."""
    claim = trusted_claim("c1", "cand", 0, "It takes 3 days.", 0, 16)
    first = trusted_judgement(claim, **_verdict_fields())
    second = trusted_judgement(claim, **_verdict_fields())
    assert first.model_fields_set is second.model_fields_set
    copied = first.model_copy(update={"sample_verdicts": [Verdict.SUPPORTED]})
    assert "sample_verdicts" in copied.model_fields_set
    assert "sample_verdicts" not in first.model_fields_set
    assert "sample_verdicts" not in second.model_fields_set
    with pytest.raises(TypeError, match="shared fields set"):
        first.rationale = "changed"
    assert second.rationale != "changed"
    back = pickle.loads(pickle.dumps([first, second]))
    assert back == [first, second] and back[0].model_fields_set is back[1].model_fields_set


def test_trusted_copy_is_model_copy() -> None:
    """trusted_copy gives what model_copy gives; it shares the fields set only while the
    update sets no field the record had not set."""
    claim = trusted_claim("c1", "cand", 0, "It takes 3 days.", 0, 16)
    judged = trusted_judgement(claim, **_verdict_fields())
    for update in ({}, {"score": 0.25, "verdict": Verdict.UNSUPPORTED}, {"sample_verdicts": []}):
        fast, slow = trusted_copy(judged, **update), judged.model_copy(update=update)
        _same_record(fast, slow)
        assert fast is not judged and fast.__dict__ is not judged.__dict__
    assert trusted_copy(judged, score=0.5).model_fields_set is judged.model_fields_set
    grown = trusted_copy(judged, sample_verdicts=[Verdict.SUPPORTED])
    assert "sample_verdicts" in grown.model_fields_set
    assert "sample_verdicts" not in judged.model_fields_set
