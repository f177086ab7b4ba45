"""The offline judge's rules as a table of named, typed objects: discovered one module each,
ordered by precedence, decided by a fold (the first finding decides, every finding is
kept), and open to a new rule that is one file and touches no other."""

from __future__ import annotations

import dataclasses
import json
import pickle
import sys
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from halgate.evidence.index import evidence_index
from halgate.inputs.suite import load_suite
from halgate.judges.offline.alignment import align
from halgate.judges.offline.calibration_file import CalibrationError, load_calibration_file
from halgate.judges.offline.claim_model import BASE_FEATURES, FEATURES, ClaimFeatureRow
from halgate.judges.offline.features import claim_features, question_features
from halgate.judges.offline.judge import OfflineJudge, load_calibration
from halgate.judges.offline.restating.context import Restatement, Slot, restatement_of
from halgate.judges.offline.reuse import ClaimDecision
from halgate.judges.offline.rules import wording as rules_package
from halgate.judges.offline.rules.rule import Finding, Rule, RuleInput
from halgate.judges.offline.rules.table import (
    RuleDecision,
    RuleTable,
    RuleTableError,
    builtin_rules,
    rule_table,
)
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, Document, HallucinationType, Mode, Verdict
from halgate.resources import data_path
from halgate.run.engine import plan_tasks

DOC = Document(
    doc_id="returns",
    text="Refunds are issued within 14 days. Opened software cannot be returned.",
)
CASE = Case(case_id="c", question="How do refunds work?")
MOON_ANSWER = "The moon is made of cheese. Refunds are issued within 14 days."


class MoonRule(Rule):
    """A toy rule: any claim about the moon is contradicted (decides before every other)."""

    id = "toy_moon"
    detects = "a claim about the moon"
    precedence = 1
    verdict = Verdict.CONTRADICTED
    type = HallucinationType.DISTORTION

    def fires(self, e: RuleInput) -> bool:
        return "moon" in e.claim.tokens

    def reason(self, e: RuleInput) -> str:
        return "Contradicted: the moon is not in these sources."


def _judge_rules(answer: str, **options: Any) -> list[Any]:
    judge = OfflineJudge(use_model=False, **options)
    task = JudgeTask(case=CASE, documents=[DOC], answers={"s": answer})
    result = judge.judge_task(task)
    assert not result.errors
    return result.claims["s"]


def test_every_module_of_the_rules_package_is_one_rule_in_precedence_order() -> None:
    rules = builtin_rules()
    folder = Path(rules_package.__path__[0]).parent
    modules = [p for p in folder.glob("*/*.py") if p.name != "__init__.py"]
    assert len(rules) == len(modules) == 23
    assert [r.precedence for r in rules] == sorted(r.precedence for r in rules)
    assert len({r.id for r in rules}) == len(rules)
    assert rules[0].id == "out_of_scope" and rules[-1].id == "uncovered"


def test_the_first_finding_decides_and_every_finding_is_kept() -> None:
    judge = OfflineJudge(use_model=False)
    d = judge.table.decide(_evidence_of("Refunds are issued within 30 days.", judge))
    fired = ["number_conflict", "number_unmatched", "number_swapped", "supported"]
    assert [f.rule for f in d.fired] == fired
    assert d.deciding is d.fired[0]
    assert (d.deciding.verdict, d.deciding.type) == (
        Verdict.CONTRADICTED,
        HallucinationType.DISTORTION,
    )
    assert d.deciding.about == ("30 days",)
    (claim,) = _judge_rules("Refunds are issued within 30 days.")
    assert (claim.verdict, claim.rationale) == (d.deciding.verdict, d.deciding.reason)


def test_a_toy_rule_in_one_file_joins_the_table_and_decides(tmp_path: Path) -> None:
    """A new rule is one module in the rules package: nothing else changes."""
    (tmp_path / "toy_moon.py").write_text(
        "from halgate.judges.offline.rules.rule import RuleInput, Rule\n"
        "from halgate.models import HallucinationType, Verdict\n\n"
        "class Moon(Rule):\n"
        "    id = 'toy_moon'\n"
        "    detects = 'a claim about the moon'\n"
        "    precedence = 1\n"
        "    verdict = Verdict.CONTRADICTED\n"
        "    type = HallucinationType.DISTORTION\n\n"
        "    def fires(self, e: RuleInput) -> bool:\n"
        "        return 'moon' in e.claim.tokens\n\n"
        "    def reason(self, e: RuleInput) -> str:\n"
        "        return 'Contradicted: the moon is not in these sources.'\n\n"
        "RULE = Moon()\n",
        encoding="utf-8",
    )
    path = list(rules_package.__path__)
    rules_package.__path__.append(str(tmp_path))
    builtin_rules.cache_clear()
    try:
        assert builtin_rules()[0].id == "toy_moon"
        moon, refund = _judge_rules(
            "The moon is made of cheese. Refunds are issued within 14 days."
        )
    finally:
        rules_package.__path__[:] = path
        builtin_rules.cache_clear()
        sys.modules.pop(f"{rules_package.__name__}.toy_moon", None)
    assert (moon.verdict, moon.rationale) == (
        Verdict.CONTRADICTED,
        "Contradicted: the moon is not in these sources.",
    )
    assert refund.verdict == Verdict.SUPPORTED
    assert "toy_moon" not in [r.id for r in builtin_rules()]


def test_a_plug_in_rule_given_to_the_judge_decides_and_is_in_its_spec() -> None:
    moon, refund = _judge_rules(
        MOON_ANSWER,
        extra_rules=[MoonRule()],
    )
    assert moon.verdict == Verdict.CONTRADICTED and refund.verdict == Verdict.SUPPORTED
    judge = OfflineJudge(use_model=False, extra_rules=[MoonRule()])
    assert judge.spec.options["extra_rules"] == ["toy_moon"]
    assert "extra_rules" not in OfflineJudge(use_model=False).spec.options


def test_a_table_must_have_a_catch_all_unique_ids_and_known_packs() -> None:
    judge = OfflineJudge(use_model=False)
    only_moon = RuleTable((MoonRule(),))
    evidence = _evidence_of("Refunds are issued within 14 days.", judge)
    # the claim copies the document's sentence word for word
    assert judge.table.decide(evidence).deciding.rule == "source_copy"
    with pytest.raises(RuleTableError, match="no rule of the table fired"):
        only_moon.decide(evidence)
    with pytest.raises(RuleTableError, match="two rules share the id 'toy_moon'"):
        RuleTable((MoonRule(), MoonRule()))
    with pytest.raises(RuleTableError, match="unknown rule pack.*no-such-pack"):
        rule_table(["no-such-pack"])


class MoonRestating(MoonRule):
    restates = "moon"


def test_a_rule_restates_a_finding_of_the_restatement_or_the_table_is_refused() -> None:
    with pytest.raises(RuleTableError, match="rule toy_moon restates 'moon'.*known: actor"):
        RuleTable((MoonRestating(),))
    # the rules that read a restated sentence name a finding that is there: the table builds
    assert {r.restates for r in rule_table().rules} >= {"copied", "number", "polarity"}


def _evidence_of(text: str, judge: OfflineJudge) -> RuleInput:
    f = claim_features(text)
    index = evidence_index([DOC])
    al = align(f, index, question_features(""), judge.cal.retrieval, judge.th)
    return RuleInput(f, al, judge.th, judge.cal.verdicts, restatement_of(f, al))


def test_rules_on_a_hard_signal_are_the_ones_the_model_may_not_clear() -> None:
    hard = load_calibration().verdicts.hard_signals
    fixed = {r.id for r in builtin_rules() if not r.model_may_clear(hard)}
    assert fixed == {
        "misattributed",
        "record_conflict",
        "listing_conflict",
        "number_conflict",
        *(r.id for r in restating_rules().values()),
        "addition_invented",
        "null_field",
        "source_unnamed",
    }


def test_the_model_reads_a_typed_row_whose_names_are_its_feature_names() -> None:
    assert BASE_FEATURES == ClaimFeatureRow._fields
    assert FEATURES[: len(BASE_FEATURES)] == BASE_FEATURES


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (
            lambda d: d["model"]["general"]["claim"]["features"].__setitem__(0, "uncoverd"),
            "uncoverd",
        ),
        (lambda d: d["verdicts"]["hard_signals"].append("number_conflcit"), "number_conflcit"),
    ],
)
def test_a_calibration_naming_an_unknown_feature_or_signal_is_an_error_naming_it(
    tmp_path: Path, edit: Any, named: str
) -> None:
    data = json.loads(data_path("calibration", "offline_v3.json").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CalibrationError, match=named) as info:
        load_calibration_file(path)
    assert str(path) in str(info.value)


# What the tests read from the rule table rather than list by hand (test_restatement too).
_GUESTS = Document(doc_id="d", text="Guests should wear a life jacket on the jetty.")


def slot_fields() -> list[str]:
    """The fields of a Restatement that each hold one finding against the restated passage."""
    return [f.name for f in fields(Restatement) if f.type == "Slot | None"]


def restating_rules() -> dict[str, Rule]:
    """The table's rule that fires on each restatement finding alone, by the Restatement
    field holding the finding: the rules are asked about a claim with no finding and about
    the same claim with that one finding set."""
    judge = OfflineJudge(use_model=False)
    f = claim_features(_GUESTS.text)
    al = align(f, evidence_index([_GUESTS]), question_features(""), judge.cal.retrieval, judge.th)
    assert al.best is not None
    plain = RuleInput(f, al, judge.th, judge.cal.verdicts, Restatement())
    quiet = [r for r in builtin_rules() if not r.fires(plain)]
    found = {}
    for name in slot_fields():
        e = replace(plain, restatement=Restatement(**{name: Slot(al.best, "found")}))
        (found[name],) = [r for r in quiet if r.fires(e)]
    return found


# The fold's records are filled without their __init__ (models/filled.py): they must be the
# records their dataclasses make, equal, hashing, printing and pickling alike, and frozen.
EXAMPLE_SUITE = Path(__file__).parents[2] / "data" / "examples" / "acme-helpdesk"


def _decisions() -> list[tuple[RuleInput, ClaimDecision]]:
    """Every claim of the example suite's first cases, as the judge decided it."""
    suite = load_suite(EXAMPLE_SUITE)
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
