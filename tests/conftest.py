"""Shared fixtures: tiny records and suites built in tmp_path (append new fixtures below)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from halgate.models import ClaimJudgement, HallucinationType, Severity, Verdict

REPO = Path(__file__).resolve().parents[1]
EXAMPLE_SUITE = REPO / "data" / "examples" / "acme-helpdesk"
SHARED_BENCHMARKS = REPO.parent / "shared" / "benchmarks"


def claim(
    verdict: Verdict | str,
    htype: HallucinationType | str | None = None,
    severity: Severity | str | None = None,
    case_id: str = "c1",
    system: str = "candidate",
    index: int = 0,
    score: float = 0.5,
) -> ClaimJudgement:
    """A judged claim with just the fields a metric or gate test cares about."""
    return ClaimJudgement(
        claim_id=f"{case_id}/{system}/{index}", case_id=case_id, system=system, index=index,
        text="x", start=0, end=1, verdict=Verdict(verdict),
        hallucination_type=HallucinationType(htype) if htype else None,
        severity=Severity(severity) if severity else None,
        rationale="test", score=score,
    )


@pytest.fixture
def make_claim():
    """Factory for ClaimJudgement records."""
    return claim


def write_jsonl(path: Path, rows: list[dict]) -> None:
    """Write rows as JSON lines, creating parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


TINY_DOCS = [
    {"doc_id": "leaflet", "title": "Zelparin leaflet",
     "text": "Zelparin is taken once daily. The maximum daily dose is 100 mg. "
             "Zelparin must not be used during pregnancy. It may cause dizziness in some patients."},
    {"doc_id": "policy", "title": "Refund policy",
     "text": "Refunds are issued within 14 days of a return. Opened software cannot be refunded."},
]
TINY_CASES = [
    {"case_id": "q1", "question": "What is the maximum daily dose?", "doc_ids": ["leaflet"],
     "reference_answer": "The maximum daily dose is 100 mg.", "tags": ["lookup", "numeric"],
     "risk_level": "CRITICAL", "domain": "medication"},
    {"case_id": "q2", "question": "Can Zelparin be used in pregnancy?", "doc_ids": ["leaflet"],
     "reference_answer": "No, it must not be used during pregnancy.", "tags": ["lookup"],
     "risk_level": "CRITICAL", "domain": "medication"},
    {"case_id": "q3", "question": "How fast are refunds issued?", "doc_ids": ["policy"],
     "reference_answer": "Within 14 days of a return.", "tags": ["lookup"], "domain": "legal"},
]
TINY_ANSWERS = {
    "baseline": ["The maximum daily dose is 100 mg.",
                 "No. Zelparin must not be used during pregnancy.",
                 "Refunds are issued within 14 days of a return."],
    "candidate": ["The maximum daily dose is 200 mg.",
                  "Zelparin can be used during pregnancy.",
                  "Refunds are issued within 14 days of a return."],
}


@pytest.fixture
def tiny_suite(tmp_path: Path) -> Path:
    """A three-case suite in which the candidate doubles a dose and flips a contraindication."""
    root = tmp_path / "tiny"
    write_jsonl(root / "documents.jsonl", TINY_DOCS)
    write_jsonl(root / "cases.jsonl", TINY_CASES)
    for system, answers in TINY_ANSWERS.items():
        rows = [{"case_id": c["case_id"], "answer": a} for c, a in zip(TINY_CASES, answers)]
        write_jsonl(root / "answers" / f"{system}.jsonl", rows)
    return root
