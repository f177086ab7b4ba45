"""The provenance lines of a claim (``claim_sources``): its question, its own system's
answer and the documents it cites, each where it was read; nothing for a hand-written suite."""

from __future__ import annotations

from halgate.models import SourceLocation
from halgate.present import claim_sources

from ..conftest import build_report


def _traced(report):
    """The report as if imported from a trace export: spans for q1, rows for its document."""
    case = report.cases[0]
    spans = [
        SourceLocation(source="t.json", trace_id="T1", span_id="S1", part="question"),
        SourceLocation(source="t.json", trace_id="T1", span_id="S2", part="answer:baseline"),
        SourceLocation(source="t.json", trace_id="T1", span_id="S3", part="answer:candidate"),
    ]
    cases = [case.model_copy(update={"provenance": spans}), *report.cases[1:]]
    seen = [SourceLocation(source="ctx.csv", row=r, part="document") for r in range(1, 6)]
    docs = [d.model_copy(update={"provenance": seen}) for d in report.documents]
    return report.model_copy(update={"cases": cases, "documents": docs})


def test_a_claim_names_its_question_its_answer_and_its_cited_documents():
    report = _traced(build_report())
    claim = next(c for a in report.analyses if a.system == "candidate" for c in a.claims)
    assert claim.case_id == report.cases[0].case_id and claim.citations
    lines = claim_sources(report, claim)
    assert lines[:2] == [
        "question: t.json: trace T1 span S1",
        "answer (candidate): t.json: trace T1 span S3",  # never the baseline's span
    ]
    cited = list(dict.fromkeys(c.doc_id for c in claim.citations))
    assert lines[2:] == [f"document {d}: ctx.csv:1; ctx.csv:2; ctx.csv:3 and 2 more" for d in cited]


def test_a_hand_written_suite_has_no_provenance_lines():
    report = build_report()
    claim = report.analyses[0].claims[0]
    assert claim_sources(report, claim) == []
