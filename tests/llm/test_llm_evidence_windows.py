"""Windowed evidence whose chosen passages touch: they are merged into one verbatim excerpt.

A long document is cut to the passages most relevant to the answers. When two of them are
adjacent sentences they are joined into one continuous excerpt; that merge once built an
incomplete ``Passage`` and crashed the case with a TypeError (a HARNESS_ERROR in the run).
"""

from __future__ import annotations

import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.llm.evidence import GAP, window_documents
from halgate.judges.registry import create_judge
from halgate.models import Document
from halgate.run.engine import run_suite

from ..conftest import TINY_CASES, write_jsonl

KEY = "sk-halgate-test-SECRET-0123456789abcdef"
Q1 = TINY_CASES[0]["question"]
ADJACENT = "Zelparin is taken once daily. The maximum daily dose is 100 mg."

pytestmark = pytest.mark.usefixtures("isolated_llm_env")


def _filler(n: int) -> str:
    return " ".join(
        f"Clause {i} covers shipping of parcel type {i} to region {i}." for i in range(n)
    )


def test_adjacent_passages_merge_into_one_verbatim_excerpt():
    filler = " ".join(f"Section {i} is about topic {i}." for i in range(300))
    pair = "The warranty lasts 3 years. The warranty covers water damage."
    doc = Document(doc_id="d", title="Terms", text=f"{filler} {pair} {filler}")
    answer = "The warranty lasts 5 years. It covers water damage."
    docs, windowed = window_documents([doc], [answer], 200)
    assert windowed and len(docs) == 1
    out = docs[0]
    assert (out.doc_id, out.title) == ("d", "Terms")
    pieces = out.text.split(GAP)
    assert pair in pieces  # the two touching sentences form one excerpt, not two
    assert all(piece in doc.text for piece in pieces)  # every excerpt is copied verbatim
    assert len(out.text) < 1000


def test_llm_judge_survives_adjacent_windowed_passages(tiny_suite, fake_openai, tmp_path):
    filler = _filler(400)
    docs = [
        {"doc_id": "leaflet", "text": f"{filler} {ADJACENT} {filler}"},
        {"doc_id": "policy", "text": "Refunds are issued within 14 days of a return."},
    ]
    write_jsonl(tiny_suite / "documents.jsonl", docs)
    judge = create_judge(
        "llm",
        base_url=fake_openai.url,
        api_key=KEY,
        db=str(tmp_path / "h.db"),
        max_batch=1,
        context_budget=1000,
    )
    report = run_suite(load_suite(tiny_suite), judge, Policy())
    by = {(a.case_id, a.system): a for a in report.analyses}
    errors = {k: a.harness_error for k, a in by.items() if a.harness_error}
    assert errors == {}
    requests = [r for r in fake_openai.completions() if Q1 in r.user]
    assert len(requests) == 1
    user = requests[0].user
    assert ADJACENT in user and "[...]" in user  # windowed, the pair kept as one excerpt
    assert len(user) < 6000
    claim = by[("q1", "candidate")].claims[0]
    assert claim.verdict.value == "CONTRADICTED" and claim.signals["evidence_windowed"] is True
    assert claim.citations[0].verified  # the excerpt's quote locates in the full document
    assert by[("q1", "baseline")].claims[0].verdict.value == "SUPPORTED"
