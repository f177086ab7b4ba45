"""One CSV row per claim with its effective values, for spreadsheets and ad-hoc analysis.

Each row also carries the judge's reading beside the one in force and who reviewed it
(``common.REVIEW_FIELDS``), the rates of the claim's system at both levels (and corrected by
the reviewed audit sample, once it has labels; empty before), and the run's
sign-off in force and sign-off history, so a sheet filtered down to one claim still says what
the release decision rests on. Claim text, rationales and comments are untrusted: a cell a
spreadsheet would read as a formula (leading ``= + - @``, tab or CR) gets a leading ``'``.
"""

from __future__ import annotations

import csv
import io

from ..models import RunReport
from ..review.queue import queue_ids
from .common import (
    REVIEW_FIELDS,
    all_claims,
    claim_reviews,
    review_fields,
    review_of,
    signoff_in_force_text,
    signoff_line,
    spreadsheet_cell,
)
from .summary import RATE_FIELDS, measure_rows, measure_text

COLUMNS = [
    "run_id",
    "system",
    "case_id",
    "claim_id",
    "index",
    "start",
    "end",
    "text",
    *REVIEW_FIELDS,
    "score",
    "in_review_queue",
    "overridden",
    "rationale",
    "deciding_rule",
    "model_changed",
    "rules_also_fired",
    "evidence_doc",
    "evidence_quote",
    "evidence_verified",
    *RATE_FIELDS.values(),
    "gate_decision",
    "signoff_in_force",
    "signoff_history",
]


def csv_report(report: RunReport) -> str:
    """The effective claim records as CSV (header first, RFC 4180 quoting)."""
    reviews = claim_reviews(report)
    record = review_of(report)
    queued = set(queue_ids(report))
    rates = {
        (measure, m.system): measure_text(m)
        for measure, rows in measure_rows(report.rates).items()
        for m in rows
    }
    run_fields = {
        "gate_decision": report.decision.status.value,
        "signoff_in_force": signoff_in_force_text(record),
        "signoff_history": "\n".join(signoff_line(s) for s in record.signoffs) if record else "",
    }
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for c in all_claims(report):
        review = reviews.get(c.claim_id)
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
            **review_fields(report, c, review),
            "score": f"{c.score:.3f}",
            "in_review_queue": c.claim_id in queued,
            "overridden": review is not None,
            "rationale": c.rationale,
            "deciding_rule": c.deciding_rule or "",
            "model_changed": c.model_changed,
            "rules_also_fired": "\n".join(f"{f.rule}: {f.reason}" for f in c.also_fired),
            "evidence_doc": cit.doc_id if cit else "",
            "evidence_quote": cit.quote if cit else "",
            "evidence_verified": cit.verified if cit else "",
            **{col: rates.get((m, c.system), "") for m, col in RATE_FIELDS.items()},
            **run_fields,
        }
        w.writerow({k: spreadsheet_cell(v) for k, v in row.items()})
    return buf.getvalue()
