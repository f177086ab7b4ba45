"""A single self-contained HTML file: decision, rates, severe claims, every case with evidence.

No scripts, no external assets. Every piece of answer, document, question and rationale text
passes through ``html.escape`` — a ``<script>`` in an answer is shown as text, never run —
and the page is stripped of the control characters XML forbids (``xml_text``), so it also
parses as XHTML and no NUL or form feed reaches a browser or a mail client.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..models import SEVERITIES_DESC, AnswerAnalysis, ClaimJudgement, RunReport
from .common import OverrideLike, latest_overrides, review_state, severe_claims, xml_text
from .summary import (
    MEASURE_TITLES,
    ci_text,
    gated_measure,
    measure_changes,
    measure_rows,
    pct,
    signed_pct,
)

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;color:#222;padding:0 1rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;
text-align:left;vertical-align:top}th{background:#f3f3f3}.banner{padding:.75rem 1rem;
border-radius:6px;font-size:1.3rem;font-weight:600}.PASSED{background:#d9f2dd}.FAILED{background:
#f8d7da}.NEEDS_REVIEW{background:#fff3cd}.HARNESS_ERROR{background:#e2d9f3}pre{white-space:
pre-wrap;background:#fafafa;border:1px solid #eee;padding:.5rem}mark{padding:0 .1rem}
mark.SUPPORTED{background:#d9f2dd}mark.PARTIALLY_SUPPORTED{background:#fff3cd}
mark.UNSUPPORTED{background:#fde2c8}mark.CONTRADICTED{background:#f8b4b4}
mark.OUT_OF_SCOPE{background:#e5e5e5}.muted{color:#666}details{margin:.5rem 0}
"""


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in r) + "</tr>" for r in rows
    )
    return f"<table><tr>{th}</tr>{body}</table>"


def highlighted(text: str, claims: Sequence[ClaimJudgement]) -> str:
    """Answer text, escaped, with each claim span wrapped in a <mark> coloured by verdict."""
    out, pos = [], 0
    for c in sorted(claims, key=lambda c: c.start):
        if c.start < pos or c.end > len(text) or c.end <= c.start:
            continue  # overlapping or out-of-range span: leave it unmarked
        title = escape(f"{c.claim_id}: {c.verdict.value}", quote=True)
        out += [
            escape(text[pos : c.start]),
            f'<mark class="{c.verdict.value}" title="{title}">',
            escape(text[c.start : c.end]),
            "</mark>",
        ]
        pos = c.end
    out.append(escape(text[pos:]))
    return "".join(out)


def _evidence(c: ClaimJudgement) -> str:
    parts = [
        f"{escape(x.doc_id)}{'' if x.verified else ' (NOT found in source)'}: “{escape(x.quote)}”"
        for x in c.citations
    ]
    return "<br>".join(parts)


def _claims_table(report: RunReport, claims: Sequence[ClaimJudgement], latest: dict) -> str:
    rows = []
    for c in claims:
        o = latest.get(c.claim_id)
        review = review_state(report, c.claim_id, o is not None)
        if o is not None:
            review += f" by {escape(o.reviewer)}: {escape(o.comment)}"
        cells = [
            escape(c.claim_id),
            escape(c.text),
            c.verdict.value,
            c.severity.value if c.severity else "",
            c.hallucination_type.value if c.hallucination_type else "",
            escape(c.rationale),
            _evidence(c),
            review,
        ]
        rows.append("<tr>" + "".join(f"<td>{x}</td>" for x in cells) + "</tr>")
    head = "".join(
        f"<th>{h}</th>"
        for h in (
            "claim",
            "text",
            "verdict",
            "severity",
            "type",
            "judge's reason",
            "evidence",
            "review",
        )
    )
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _case_section(report: RunReport, case_id: str, latest: dict) -> str:
    case = next(c for c in report.cases if c.case_id == case_id)
    docs = {d.doc_id: d for d in report.documents}
    parts = [f"<details><summary><b>{escape(case.case_id)}</b> — {escape(case.question)}</summary>"]
    for d in [docs[i] for i in case.doc_ids if i in docs] + list(case.documents):
        parts.append(
            f"<p class=muted>document {escape(d.doc_id)} {escape(d.title or '')}</p>"
            f"<pre>{escape(d.text)}</pre>"
        )
    analyses: list[AnswerAnalysis] = [a for a in report.analyses if a.case_id == case_id]
    for a in analyses:
        text = report.answers.get(a.system, {}).get(case_id, "")
        note = a.harness_error or a.error_message
        parts.append(
            f"<h4>{escape(a.system)} — rate {pct(a.hallucination_rate)}</h4>"
            f"<pre>{highlighted(text, a.claims)}</pre>"
        )
        if note:
            parts.append(f"<p><b>not analysed:</b> {escape(note)}</p>")
        if a.claims:
            parts.append(_claims_table(report, a.claims, latest))
    return "".join(parts) + "</details>"


def html_report(report: RunReport, overrides: Sequence[OverrideLike] = ()) -> str:
    """The report as one HTML page with inline CSS and no scripts."""
    d, latest = report.decision, latest_overrides(overrides)
    body = [
        f'<div class="banner {d.status.value}">halgate gate: {d.status.value} for '
        f"{escape(d.gated_system)} (exit code {d.exit_code})</div>",
        f"<p class=muted>run {escape(report.run_id)} · {report.mode.value} · suite "
        f"{escape(report.suite.name)} ({report.suite.n_cases} cases, "
        f"{escape(report.suite.content_hash[:12])}) · judge {escape(report.judge.judge_id)} · "
        f"{len(overrides)} override(s)</p>",
        "<h2>Reasons</h2><ul>"
        + "".join(
            f"<li>[{r.status.value}] <code>{escape(r.rule)}</code>: {escape(r.message)}</li>"
            for r in d.reasons
        )
        + "</ul>",
        "<h2>Rates</h2>" + _measures_table(report) + _other_rates_table(report),
    ]
    if report.comparison is not None:
        cmp, ch = report.comparison, report.comparison.rate_change
        body.append(
            f"<p>Rate change {escape(cmp.candidate)} − {escape(cmp.baseline)} (paired bootstrap "
            f"over {ch.n_cases} cases, seed {ch.seed}; positive = worse) · regression detected: "
            f"{'yes' if cmp.regression_detected else 'no'}</p>"
            + _table(
                ["measure", "change", "95% CI"],
                [
                    [
                        MEASURE_TITLES[m] + (" (gated)" if m == cmp.gated_measure else ""),
                        signed_pct(c.estimate),
                        ci_text(c, signed=True).removeprefix("95% CI "),
                    ]
                    for m, c in measure_changes(report).items()
                    if c is not None
                ],
            )
            + _table(
                ["severity", cmp.baseline, cmp.candidate, "change"],
                [
                    [
                        s.value,
                        cmp.severity_shift[s.value].baseline,
                        cmp.severity_shift[s.value].candidate,
                        f"{cmp.severity_shift[s.value].delta:+d}",
                    ]
                    for s in SEVERITIES_DESC
                ],
            )
        )
    severe = severe_claims(report)
    if severe:
        body.append(
            f"<h2>Hallucinated claims of {escape(d.gated_system)}</h2>"
            + _claims_table(report, severe, latest)
        )
    body.append("<h2>Cases</h2>")
    body += [_case_section(report, c.case_id, latest) for c in report.cases]
    title = escape(f"halgate {d.status.value} {report.run_id}")
    return xml_text(
        f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{title}</title>"
        f"<style>{_CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def _measures_table(report: RunReport) -> str:
    gated = gated_measure(report)
    return _table(
        ["measure", "system", "count", "rate", "95% CI"],
        [
            [
                MEASURE_TITLES[measure] + (" (gated)" if measure == gated else ""),
                m.system,
                f"{m.hits} of {m.total}",
                pct(m.rate),
                ci_text(m.interval).removeprefix("95% CI "),
            ]
            for measure, items in measure_rows(report.rates).items()
            for m in items
        ],
    )


def _other_rates_table(report: RunReport) -> str:
    return _table(
        ["system", "answers", "claims", "macro", "fabrication", "contradiction"],
        [
            [
                r.system,
                r.n_answers,
                r.n_claims,
                pct(r.macro_rate),
                pct(r.fabrication_rate),
                pct(r.contradiction_rate),
            ]
            for r in report.rates.values()
        ],
    )
