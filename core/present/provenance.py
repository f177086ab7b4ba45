"""Where an imported claim's evidence came from, as plain lines a reviewer can act on.

``halgate import`` records on every case where its question and each system's answer were
read (file and row, or file, trace id and span id) and on every document where it was
retrieved. A reviewer doubting a verdict goes back to that row or span; the claim view and
the Triage card show these lines as text (never markup: file names and ids come from the
imported files).
"""

from __future__ import annotations

from ..models import ClaimJudgement, RunReport, SourceLocation

_SHOW_DOCUMENT_SIGHTINGS = 3


def claim_sources(report: RunReport, claim: ClaimJudgement) -> list[str]:
    """'question: FILE:ROW', 'answer (SYSTEM): FILE: trace T span S', then the claim's cited
    documents (or, with none cited, its case's) where they were retrieved; empty for a suite
    written by hand (nothing imported)."""
    case = next((c for c in report.cases if c.case_id == claim.case_id), None)
    if case is None:
        return []
    lines = [
        f"{_part_name(p.part)}: {p.where()}"
        for p in case.provenance
        if p.part in ("question", f"answer:{claim.system}", None)
    ]
    cited = list(dict.fromkeys(c.doc_id for c in claim.citations))
    doc_ids = cited or list(case.doc_ids) + [d.doc_id for d in case.documents]
    docs = {d.doc_id: d for d in [*report.documents, *case.documents]}
    for doc_id in doc_ids:
        doc = docs.get(doc_id)
        if doc is not None and doc.provenance:
            lines.append(f"document {doc_id}: {_sightings(doc.provenance)}")
    return lines


def _part_name(part: str | None) -> str:
    if part is None:
        return "read"
    if part.startswith("answer:"):
        return f"answer ({part.removeprefix('answer:')})"
    return part


def _sightings(found: list[SourceLocation]) -> str:
    shown = "; ".join(p.where() for p in found[:_SHOW_DOCUMENT_SIGHTINGS])
    more = len(found) - _SHOW_DOCUMENT_SIGHTINGS
    return shown + (f" and {more} more" if more > 0 else "")
