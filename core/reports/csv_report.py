"""One CSV row per claim with its effective values, for spreadsheets and ad-hoc analysis.

Claim text, rationales and comments are untrusted: a cell a spreadsheet would read as a
formula (leading ``= + - @``, tab or CR) is written with a leading ``'``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from ..models import RunReport
from ..review.queue import queue_ids
from .common import OverrideLike, all_claims, latest_overrides, review_state, spreadsheet_cell

COLUMNS = [
    "run_id",
    "system",
    "case_id",
    "claim_id",
    "index",
    "start",
    "end",
    "text",
    "verdict",
    "hallucination_type",
    "severity",
    "score",
    "in_review_queue",
    "review_state",
    "overridden",
    "reviewer",
    "review_comment",
    "rationale",
    "evidence_doc",
    "evidence_quote",
    "evidence_verified",
]


def csv_report(report: RunReport, overrides: Sequence[OverrideLike] = ()) -> str:
    """The effective claim records as CSV (header first, RFC 4180 quoting)."""
    latest = latest_overrides(overrides)
    queued = set(queue_ids(report))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for c in all_claims(report):
        o = latest.get(c.claim_id)
        cit = c.citations[0] if c.citations else None
        row = {
            "run_id": report.run_id,
            "system": c.system,
            "case_id": c.case_id,
            "claim_id": c.claim_id,
            "index": c.index,
            "start": c.start,
            "end": c.end,
            "text": c.text,
            "verdict": c.verdict.value,
            "hallucination_type": c.hallucination_type.value if c.hallucination_type else "",
            "severity": c.severity.value if c.severity else "",
            "score": f"{c.score:.3f}",
            "in_review_queue": c.claim_id in queued,
            "review_state": review_state(report, c.claim_id, o is not None),
            "overridden": o is not None,
            "reviewer": o.reviewer if o else "",
            "review_comment": o.comment if o else "",
            "rationale": c.rationale,
            "evidence_doc": cit.doc_id if cit else "",
            "evidence_quote": cit.quote if cit else "",
            "evidence_verified": cit.verified if cit else "",
        }
        w.writerow({k: spreadsheet_cell(v) for k, v in row.items()})
    return buf.getvalue()
