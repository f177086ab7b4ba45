"""The offline judge's calibration file: typed, checked once with a clear error, every rule
number in it read by the judge, and its settings (not constants in code) deciding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from halgate.inputs.policy import SeverityRules
from halgate.judges.offline.calibration_file import (
    Calibration,
    CalibrationError,
    Retrieval,
    Score,
    Thresholds,
    calibration_json,
)
from halgate.judges.offline.judge import OfflineJudge, load_calibration
from halgate.judges.offline.rescore import rescore_claims
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, ClaimJudgement, Document, Verdict
from halgate.resources import data_path
from pydantic import BaseModel

V = Verdict
SHIPPED = data_path("calibration", "offline_v3.json")
DOC = Document(
    doc_id="returns-policy",
    title="Returns policy (2025)",
    text=(
        "Refunds are issued within 14 days of receiving the returned item. "
        "Opened software cannot be returned. "
        "Refunds may possibly take longer in some cases during the holiday season. "
        "Store credit is offered for items returned without a receipt."
    ),
)
OTHER = Document(
    doc_id="shipping-guide",
    title="Shipping guide",
    text="Standard delivery takes 3 to 5 working days. Express delivery costs $12.",
)
CASE = Case(case_id="c", question="How do refunds work?", domain="retail")
ANSWER = (
    "Refunds are issued within 14 days of receiving the returned item. "
    "Opened software can be returned. "
    "Refunds take longer during the holiday season. "
    "Refunds are issued within 30 days of receiving the returned item. "
    "Delivery takes 3 to 5 working days, so 8 days at most, or 3 + 5 = 8. "
    "Zorblax Corp issues store credit for items returned without a receipt. "
    "According to the shipping guide, refunds are issued within 14 days. "
    "The moon is made of cheese."
)


def _data() -> dict[str, Any]:
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def _judge_with(tmp_path: Path, data: dict[str, Any]) -> OfflineJudge:
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return OfflineJudge(calibration=path, use_model=False)


def _claims(judge: OfflineJudge, answer: str = ANSWER, case: Case = CASE) -> list[ClaimJudgement]:
    task = JudgeTask(case=case, documents=[DOC, OTHER], answers={"s": answer})
    return judge.judge_task(task).claims["s"]


def test_the_shipped_file_is_in_the_form_calibrate_writes() -> None:
    cal = load_calibration()
    assert isinstance(cal, Calibration) and cal.version == "offline-v3"
    assert calibration_json(cal) == SHIPPED.read_text(encoding="utf-8")
    assert sorted(p.name for p in SHIPPED.parent.glob("*.json")) == ["offline_v3.json"]


def _documented(model: type[BaseModel]) -> list[str]:
    missing = []
    for name, field in model.model_fields.items():
        sub = field.annotation
        if isinstance(sub, type) and issubclass(sub, BaseModel):
            missing += [f"{name}.{m}" for m in _documented(sub)]
        elif not field.description:
            missing.append(name)
    return missing


@pytest.mark.parametrize("section", [Retrieval, Thresholds, Score])
def test_every_rule_setting_says_what_it_decides(section: type[BaseModel]) -> None:
    assert _documented(section) == []


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["thresholds"].pop("support_coverage"), "thresholds.support_coverage: Field"),
        (lambda d: d["thresholds"].update(suport_coverage=0.7), "thresholds.suport_coverage"),
        (lambda d: d["score"]["weights"].update(uncovered="high"), "score.weights.uncovered"),
        (lambda d: d["verdicts"].update(citation_error="WRONG"), "verdicts.citation_error"),
        (lambda d: d["retrieval"].update(top_k=0), "retrieval.top_k"),
        (lambda d: d.update(description="no longer a key"), "description: Extra inputs"),
        (
            lambda d: d["model"]["general"]["claim"]["features"].pop(),
            "model.general.claim: Value error, mean has",
        ),
        (
            lambda d: d["model"]["general"]["answer"]["mean"].pop(),
            "model.general.answer: Value error, mean",
        ),
        (lambda d: d["model"]["general"].update(threshold=1.5), "model.general.threshold"),
        (lambda d: d["model"].update(tasks={}), "model.tasks: Extra inputs"),
    ],
)
def test_a_bad_file_is_refused_naming_the_file_and_the_field(tmp_path: Path, change, words):
    data = _data()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CalibrationError) as err:
        OfflineJudge(calibration=path)
    assert f"{path}: " in str(err.value) and words in str(err.value)


def test_a_file_that_is_not_json_or_is_missing_is_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(CalibrationError, match="broken.json: not valid JSON"):
        load_calibration(path)
    with pytest.raises(CalibrationError, match="absent.json: cannot read"):
        load_calibration(tmp_path / "absent.json")


class _Spy:
    """A calibration section that records which of its settings were read."""

    def __init__(self, section: BaseModel, seen: set[str], prefix: str):
        self._section, self._seen, self._prefix = section, seen, prefix

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._section, name)
        self._seen.add(self._prefix + name)
        if isinstance(value, BaseModel):
            return _Spy(value, self._seen, f"{self._prefix}{name}.")
        return value


def _leaves(model: BaseModel, prefix: str) -> set[str]:
    out = set()
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            out |= _leaves(value, f"{prefix}{name}.")
        else:
            out.add(prefix + name)
    return out


def test_every_rule_setting_in_the_file_is_read_when_judging() -> None:
    """No dead keys: judging a varied answer, by the rules alone and rescored by a learned
    model, reads every retrieval, threshold, verdict and score setting (the model's own are
    read when it loads)."""
    judge = OfflineJudge()
    cal, seen = judge.cal, set[str]()
    judge.cal = cast(Calibration, _Spy(cal, seen, ""))
    judge.th = cast(Thresholds, _Spy(cal.thresholds, seen, "thresholds."))
    _claims(judge)
    _claims(judge, case=Case(case_id="q", question="How do refunds work?", domain="qa"))
    expected = set()
    for name in ("retrieval", "thresholds", "verdicts", "score"):
        expected |= _leaves(getattr(cal, name), f"{name}.")
    assert expected - seen == set()


def test_the_rules_thresholds_come_from_the_file(tmp_path: Path) -> None:
    claim = "Zorblax Corp issues store credit for items returned without a receipt."
    (named,) = _claims(OfflineJudge(use_model=False), claim)
    assert named.verdict == V.UNSUPPORTED and "Zorblax" in named.rationale
    data = _data()
    data["thresholds"]["missing_name_coverage"] = 0.0  # a missing name never decides
    (lenient,) = _claims(_judge_with(tmp_path, data), claim)
    assert "Zorblax" not in lenient.rationale


def test_the_rule_score_bounds_come_from_the_file(tmp_path: Path) -> None:
    supported = "Refunds are issued within 14 days of receiving the returned item."
    (default,) = _claims(OfflineJudge(use_model=False), supported)
    assert default.verdict == V.SUPPORTED and 0.01 < default.score <= 0.49
    data = _data()
    data["score"]["supported_max"] = 0.01
    (capped,) = _claims(_judge_with(tmp_path, data), supported)
    assert capped.verdict == V.SUPPORTED and capped.score == 0.01


def test_the_decision_score_decides_the_rescored_verdict() -> None:
    (claim,) = _claims(
        OfflineJudge(use_model=False), "Refunds are issued within 14 days of receiving it."
    )
    assert claim.verdict == V.SUPPORTED
    rules = SeverityRules()
    (moved,) = rescore_claims([claim], np.array([0.6]), CASE, rules, 0.5)
    (kept,) = rescore_claims([claim], np.array([0.6]), CASE, rules, 0.7)
    assert moved.verdict == V.UNSUPPORTED and kept.verdict == V.SUPPORTED
    assert kept.score == moved.score == 0.6
