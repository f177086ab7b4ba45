"""The offline judge's rules: each alignment rule as a row, plus evidence, determinism and
failures. The rules are tested alone (the learned model off); tests/offline/test_offline_learned.py
tests the judge as shipped, model included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from halgate.judges.offline.judge import OfflineJudge, load_calibration
from halgate.judges.protocol import JudgeTask
from halgate.judges.registry import create_judge, judge_names
from halgate.models import Case, ClaimJudgement, Document, HallucinationType, Severity, Verdict

V, T = Verdict, HallucinationType

RETURNS = Document(
    doc_id="returns-policy",
    title="Returns policy (2025)",
    text=(
        "Refunds are issued within 14 days of receiving the returned item. "
        "Opened software cannot be returned. "
        "Refunds may take longer in some cases during the holiday season. "
        "Store credit is offered for items returned without a receipt."
    ),
)
SHIPPING = Document(
    doc_id="shipping-guide",
    title="Shipping guide",
    text="Standard delivery takes 3 to 5 working days. Express delivery costs $12.",
)
CASE = Case(
    case_id="ret-1",
    question="How do refunds work?",
    doc_ids=["returns-policy", "shipping-guide"],
    domain="retail",
    risk_level=Severity.MEDIUM,
)


def judge_one(answer: str, case: Case = CASE, docs: list[Document] | None = None):
    docs = docs or [RETURNS, SHIPPING]
    judge = create_judge("offline", use_model=False)
    (result,) = judge.judge([JudgeTask(case=case, documents=docs, answers={"cand": answer})])
    assert not result.errors
    return result.claims["cand"]


def only(answer: str, **kw) -> ClaimJudgement:
    (claim,) = judge_one(answer, **kw)
    return claim


@pytest.mark.parametrize(
    ("answer", "verdict", "htype", "severity"),
    [
        (
            "Refunds are issued within 14 days of receiving the returned item.",
            V.SUPPORTED,
            None,
            None,
        ),
        (
            "Refunds are issued within 14 days after the returned item is received.",
            V.SUPPORTED,
            None,
            None,
        ),
        (
            "Refunds are issued within 30 days of receiving the returned item.",
            V.CONTRADICTED,
            T.DISTORTION,
            Severity.MEDIUM,
        ),
        ("Opened software can be returned.", V.CONTRADICTED, T.DISTORTION, Severity.MEDIUM),
        (
            "Refunds take longer during the holiday season.",
            V.UNSUPPORTED,
            T.OMISSION_AS_FACT,
            Severity.MEDIUM,
        ),
        (
            "According to the shipping guide, opened software cannot be returned.",
            V.CONTRADICTED,
            T.CITATION_ERROR,
            Severity.MEDIUM,
        ),
        ("The Eiffel Tower is located in Paris.", V.OUT_OF_SCOPE, None, Severity.LOW),
    ],
)
def test_alignment_rules(answer, verdict, htype, severity) -> None:
    claim = only(answer)
    assert (claim.verdict, claim.hallucination_type, claim.severity) == (
        verdict,
        htype,
        severity,
    ), claim.rationale


def test_invented_fact_with_fabricated_number_is_high_fabrication() -> None:
    supported, invented = judge_one(
        "Refunds are issued within 14 days, and 87% of customers receive a voucher worth $25."
    )
    assert supported.verdict == V.SUPPORTED
    assert (invented.verdict, invented.hallucination_type, invented.severity) == (
        V.UNSUPPORTED,
        T.FABRICATION,
        Severity.HIGH,
    )
    assert "87%" in invented.rationale
    assert invented.signals["numbers_unmatched"] == ["87%", "$25"]


def test_supported_paraphrase_cites_verified_evidence() -> None:
    claim = only("Refunds are issued within 14 days after the returned item is received.")
    (cite,) = claim.citations
    assert cite.verified and cite.match == "exact" and cite.doc_id == "returns-policy"
    assert cite.quote == RETURNS.text[cite.start : cite.end]
    assert cite.quote.startswith("Refunds are issued within 14 days")


@pytest.mark.parametrize(
    "answer",
    [
        "Refunds are issued within 30 days.",
        "Opened software can be returned.",
        "Refunds take longer during the holiday season.",
    ],
)
def test_non_fabrications_cite_the_deciding_evidence(answer: str) -> None:
    claim = only(answer)
    assert claim.citations and all(c.verified for c in claim.citations)
    for c in claim.citations:
        assert RETURNS.text[c.start : c.end] == c.quote


def test_critical_domain_raises_contradiction_to_critical() -> None:
    med = Document(doc_id="leaflet", text="Do not take more than 100 mg in 24 hours.")
    case = Case(
        case_id="m", question="Max dose?", domain="medication", risk_level=Severity.CRITICAL
    )
    claim = only("You can take up to 200 mg in 24 hours.", case=case, docs=[med])
    assert (claim.verdict, claim.severity) == (V.CONTRADICTED, Severity.CRITICAL)


def test_abstention_answer_has_no_claims() -> None:
    assert judge_one("The documents do not say. Please contact support.") == []


def test_json_record_documents() -> None:
    record = Document(
        doc_id="biz",
        text=json.dumps(
            {
                "name": "Epic Bowl",
                "city": "Santa Barbara",
                "attributes": {"WiFi": "no", "OutdoorSeating": True},
            }
        ),
    )
    case = Case(case_id="d2t", question="Describe the business.", doc_ids=["biz"])
    wifi, seating = judge_one(
        "Epic Bowl in Santa Barbara offers WiFi. It has outdoor seating.",
        case=case,
        docs=[record],
    )
    assert wifi.verdict == V.CONTRADICTED
    assert seating.verdict == V.SUPPORTED
    (cite,) = seating.citations
    assert record.text[cite.start : cite.end] == '"OutdoorSeating": true'


def test_scores_order_by_hallucination_and_stay_on_the_verdicts_side() -> None:
    claims = judge_one(
        "Refunds are issued within 14 days of receiving the returned item. "
        "Refunds are issued within 30 days of receiving the returned item. "
        "A 2019 survey by Deloitte found that 87% of shoppers prefer vouchers."
    )
    ok, changed, invented = (c.score for c in claims)
    assert 0.0 <= ok < 0.5 < changed <= 1.0 and invented <= 1.0
    assert ok < changed and ok < invented


def test_deterministic_and_spec() -> None:
    answer = "Refunds are issued within 30 days. Opened software can be returned."
    first = [c.model_dump() for c in judge_one(answer)]
    second = [c.model_dump() for c in judge_one(answer)]
    assert first == second
    judge = create_judge("offline")
    assert "offline" in judge_names()
    assert judge.spec.judge_id == "offline@offline-v3"
    assert judge.spec.options["severity_rules"]["critical_domains"]


def test_one_failing_task_does_not_sink_the_run() -> None:
    judge = OfflineJudge()
    good = JudgeTask(case=CASE, documents=[RETURNS], answers={"a": "Refunds take 14 days."})
    bad = JudgeTask(case=CASE, documents=[RETURNS], answers={"a": None})  # type: ignore[dict-item]
    seen = []
    results = judge.judge([bad, good], progress=seen.append)
    assert results[0].errors["a"].startswith("offline judge failed")
    assert results[1].claims["a"] and not results[1].errors
    assert len(seen) == 2


def test_thresholds_come_from_the_calibration_file(tmp_path: Path) -> None:
    cal = load_calibration()
    assert cal.version == "offline-v3"
    data = cal.model_dump(mode="json")
    data["thresholds"]["support_coverage"] = 1.01
    data["thresholds"]["partial_coverage"] = 1.01
    path = tmp_path / "strict.json"
    path.write_text(json.dumps(data))
    strict = OfflineJudge(calibration=path, use_model=False)
    task = JudgeTask(
        case=CASE,
        documents=[RETURNS],
        # Not a copy of the source's words (a copy is SUPPORTED whatever the thresholds).
        answers={"a": "Refunds are issued within 14 days of us receiving the returned item."},
    )
    (claim,) = strict.judge([task])[0].claims["a"]
    assert claim.verdict == V.UNSUPPORTED


def test_a_task_failing_in_the_learned_stage_fails_alone(monkeypatch) -> None:
    """The model scores a batch of tasks at once; a fault there (injected for one answer)
    still costs only its own task, and the others keep their learned scores."""
    import halgate.judges.offline.judge as judge_module

    shape_of = judge_module.input_shape

    def faulty(question, answer, index):
        if "faulty" in answer:
            raise ValueError("injected")
        return shape_of(question, answer, index)

    monkeypatch.setattr(judge_module, "input_shape", faulty)
    tasks = [
        JudgeTask(case=CASE, documents=[RETURNS], answers={"a": text})
        for text in ("Refunds take 14 days.", "A faulty claim about refunds.", "Refunds are due.")
    ]
    results = OfflineJudge().judge(tasks)
    assert results[1].errors["a"] == "offline judge failed: ValueError: injected"
    assert not results[1].claims
    for ok in (results[0], results[2]):
        assert ok.claims["a"] and not ok.errors
    alone = OfflineJudge().judge_task(tasks[0]).claims["a"]
    assert [c.score for c in results[0].claims["a"]] == [c.score for c in alone]


@pytest.mark.parametrize("use_model", [False, True])
def test_claims_sharing_a_sentence_share_no_mutable_parts(use_model):
    """A sentence two systems (or one answer twice) share is judged once; each claim still
    owns its citations and signal lists, so editing one claim never edits another."""
    text = "Refunds are issued within 14 days of receiving the returned item."
    task = JudgeTask(case=CASE, documents=[RETURNS, SHIPPING], answers={"a": text, "b": text})
    (result,) = create_judge("offline", use_model=use_model).judge([task])
    (a,), (b,) = result.claims["a"], result.claims["b"]
    assert a.citations and a.citations == b.citations and a.signals == b.signals
    assert all(x is not y for x, y in zip(a.citations, b.citations, strict=True))
    assert a.signals is not b.signals
    lists = [k for k, v in a.signals.items() if isinstance(v, list)]
    assert lists and all(a.signals[k] is not b.signals[k] for k in lists)
