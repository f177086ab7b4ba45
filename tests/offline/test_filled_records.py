"""The rule table's records filled without their ``__init__`` (models/filled.py) are the
records their dataclasses make: equal, hashing, printing and pickling alike, and frozen."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest
from halgate.inputs.suite import load_suite
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.offline.reuse import ClaimDecision
from halgate.judges.offline.rules.rule import Finding, RuleInput
from halgate.judges.offline.rules.table import RuleDecision
from halgate.models import Mode
from halgate.run.engine import plan_tasks

SUITE = Path(__file__).parents[2] / "data" / "examples" / "acme-helpdesk"


def _decisions() -> list[tuple[RuleInput, ClaimDecision]]:
    """Every claim of the example suite's first cases, as the judge decided it."""
    suite = load_suite(SUITE)
    judge = OfflineJudge()
    seen: list[tuple[RuleInput, ClaimDecision]] = []
    table_decide = judge.table.decide

    def keep(e: RuleInput) -> RuleDecision:
        d = table_decide(e)
        seen.append((e, d))  # type: ignore[arg-type]
        return d

    object.__setattr__(judge.table, "decide", keep)
    decide = judge.decide

    def keep_claim(*args: Any) -> ClaimDecision:
        d = decide(*args)
        seen[-1] = (seen[-1][0], d)
        return d

    judge.decide = keep_claim  # type: ignore[method-assign]
    judge.judge(plan_tasks(suite, Mode.COMPARE, ["baseline", "candidate"])[:6])
    return seen


def _same(fast: object, cls: type) -> None:
    slow = cls(**{f.name: getattr(fast, f.name) for f in dataclasses.fields(cls)})
    assert type(fast) is cls
    assert fast == slow and repr(fast) == repr(slow)
    try:
        assert hash(fast) == hash(slow)
    except TypeError:  # a RuleInput holds the (mutable) Alignment: neither hashes
        with pytest.raises(TypeError):
            hash(slow)
    assert list(fast.__dict__) == [f.name for f in dataclasses.fields(cls)]
    assert pickle.loads(pickle.dumps(fast)) == slow
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.reason = "changed"  # type: ignore[attr-defined]


def test_the_fold_s_records_equal_those_their_dataclasses_make() -> None:
    decisions = _decisions()
    assert len(decisions) > 10
    kinds = set()
    for e, d in decisions:
        _same(e, RuleInput)
        _same(d, ClaimDecision)
        assert d.rules is not None
        _same(d.rules, RuleDecision)
        for f in d.rules.fired:
            _same(f, Finding)
            kinds.add(f.rule)
    assert len(kinds) >= 3  # several rules' findings, not one kind
