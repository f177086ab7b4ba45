"""The records the offline judge builds without validation equal what pydantic's
``model_construct`` builds from the same values: same fields, same fields-set, same JSON."""

from __future__ import annotations

from halgate.models import Citation, HallucinationType, Severity, Verdict
from halgate.models.claims import Claim, ClaimJudgement, trusted_finding, trusted_judgement


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
