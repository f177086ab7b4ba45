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

from ..models import ClaimJudgement, RunReport
from ..present.flips import flip_sentence
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

#: Repeated judging (judge_samples > 1) only: a one-sample export keeps its columns.
SAMPLE_COLUMNS = ["sample_verdicts", "judge_flips"]


def _sample_fields(report: RunReport, c: ClaimJudgement) -> dict[str, str]:
    """The claim's verdicts in samples 2..k (';'-joined, '-' where a sample lost the claim)
    and its system's flip sentence."""
    flips = report.rates[c.system].judge_flips if c.system in report.rates else None
    return {
        "sample_verdicts": ";".join(v.value if v else "-" for v in c.sample_verdicts),
        "judge_flips": flip_sentence(flips) if flips else "",
    }


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
    sampled = any(r.judge_flips is not None for r in report.rates.values())
    buf = io.StringIO()
    columns = COLUMNS + (SAMPLE_COLUMNS if sampled else [])
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
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
            **(_sample_fields(report, c) if sampled else {}),
        }
        w.writerow({k: spreadsheet_cell(v) for k, v in row.items()})
    return buf.getvalue()
