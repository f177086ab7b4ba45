"""A single self-contained HTML file: decision, sign-off, rates, reviews, cases, documents.

No scripts, no external assets. Every piece of answer, document, question, rationale, name
and comment text passes through ``html.escape`` — a ``<script>`` in an answer is shown as
text, never run — and the page is stripped of the control characters XML forbids
(``xml_text``), so it also parses as XHTML and no NUL or form feed reaches a browser or a mail
client. Each document appears once, with the cited passages marked; claims link to them
(``html_evidence``). Reviewed claims show the judge's verdict beside the one in force, with
reviewer, comment and time (``common.review_fields``).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..models import SEVERITIES_DESC, AnswerAnalysis, ClaimJudgement, RunReport
from ..present.flips import flip_items
from ..present.highlight import VERDICT_CLASS, VERDICT_COLOURS, Span, mark_spans
from .common import (
    REVIEW_FIELDS,
    claim_reviews,
    reading,
    review_fields,
    review_note,
    review_of,
    severe_claims,
    signoff_in_force_text,
    xml_text,
)
from .html_evidence import Evidence
from .summary import (
    MEASURE_TITLES,
    ci_text,
    gated_row,
    measure_changes,
    measure_rows,
    pct,
    signed_pct,
)
from .team_text import team_html

_CSS = (
    """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;color:#222;padding:0 1rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;
text-align:left;vertical-align:top}th{background:#f3f3f3}.banner{padding:.75rem 1rem;
border-radius:6px;font-size:1.3rem;font-weight:600}.PASSED{background:#d9f2dd}.FAILED{background:
#f8d7da}.NEEDS_REVIEW{background:#fff3cd}.HARNESS_ERROR{background:#e2d9f3}pre{white-space:
pre-wrap;background:#fafafa;border:1px solid #eee;padding:.5rem}mark{padding:0 .1rem}
mark.cited{background:#bbdefb;outline:1px solid #1565c0}:target{outline:3px solid #1f4e79}
.muted{color:#666}details{margin:.5rem 0}
"""
    + "".join(f"mark.{VERDICT_CLASS[v]}{{background:{c}}}" for v, c in VERDICT_COLOURS.items())
    + "\n"
)
_READINGS = (
    ("judge_verdict", "judge_hallucination_type", "judge_severity"),
    ("verdict", "hallucination_type", "severity"),
)
_REVIEW_COLUMNS = ("review_change", "reviewer", "reviewed_at", "review_comment")
_CLAIM_HEAD = (
    "claim",
    "text",
    REVIEW_FIELDS["judge_verdict"],
    REVIEW_FIELDS["verdict"],
    "severity",
    "type",
    "judge's reason",
    "evidence",
    "review",
)


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in r) + "</tr>" for r in rows
    )
    return f"<table><tr>{th}</tr>{body}</table>"


def highlighted(text: str, claims: Sequence[ClaimJudgement]) -> str:
    """Answer text, escaped, with each claim span wrapped in a <mark> coloured by verdict."""
    spans = [
        Span(c.start, c.end, (VERDICT_CLASS[c.verdict],), title=f"{c.claim_id}: {c.verdict.value}")
        for c in claims
    ]
    return mark_spans(text, spans)


class _Page:
    """What every part of one page needs: the report, its reviews, evidence and claim anchors."""

    def __init__(self, report: RunReport) -> None:
        self.report = report
        self.reviews = claim_reviews(report)
        self.evidence = Evidence(report)
        self.claims = {c.claim_id: c for a in report.analyses for c in a.claims}
        self.anchors = {claim_id: f"claim-{n}" for n, claim_id in enumerate(self.claims, 1)}

    def claim_link(self, claim_id: str) -> str:
        anchor = self.anchors.get(claim_id)
        text = escape(claim_id)
        return f'<a href="#{anchor}">{text}</a>' if anchor else text

    def claims_table(self, claims: Sequence[ClaimJudgement], anchored: bool = False) -> str:
        """Claims with their judge and in-force verdicts, evidence linked to the documents."""
        rows = []
        for c in claims:
            review = self.reviews.get(c.claim_id)
            f = review_fields(self.report, c, review)
            note = f["review_state"] + (f": {review_note(review)}" if review else "")
            evidence = "<br>".join(self.evidence.citation(c, i) for i in range(len(c.citations)))
            cells = [
                escape(c.claim_id) if anchored else self.claim_link(c.claim_id),
                escape(c.text),
                *(escape(f[k]) for k in ("judge_verdict", "verdict", "severity")),
                escape(f["hallucination_type"]),
                "<br>".join(escape(x) for x in (c.rationale, *c.provenance())),
                evidence,
                escape(note),
            ]
            row_id = f' id="{self.anchors[c.claim_id]}"' if anchored else ""
            rows.append(f"<tr{row_id}>" + "".join(f"<td>{x}</td>" for x in cells) + "</tr>")
        head = "".join(f"<th>{escape(h)}</th>" for h in _CLAIM_HEAD)
        return f"<table><tr>{head}</tr>{''.join(rows)}</table>"

    def case_section(self, case_id: str) -> str:
        report = self.report
        case = next(c for c in report.cases if c.case_id == case_id)
        parts = [
            f"<details><summary><b>{escape(case.case_id)}</b> — {escape(case.question)}</summary>",
            f"<p class=muted>documents: {self.evidence.case_links(case_id) or 'none'}</p>",
        ]
        if case.provenance:  # an imported case: where to go back to (row, or trace and span)
            read = "; ".join(f"{p.part or 'read'}: {p.where()}" for p in case.provenance)
            parts.append(f"<p class=muted>read from {escape(read)}</p>")
        analyses: list[AnswerAnalysis] = [a for a in report.analyses if a.case_id == case_id]
        for a in analyses:
            text = report.answers.get(a.system, {}).get(case_id, "")
            note = a.harness_error or a.error_message
            parts.append(
                f"<h4>{escape(a.system)} — claims hallucinated {pct(a.hallucination_rate)}</h4>"
                f"<pre>{highlighted(text, a.claims)}</pre>"
            )
            if note:
                parts.append(f"<p><b>not analysed:</b> {escape(note)}</p>")
        claims = [c for a in analyses for c in a.claims]
        if claims:  # one table for the case: its claims of every system
            parts.append(self.claims_table(claims, anchored=True))
        return "".join(parts) + "</details>"

    def reviews_section(self) -> str:
        """Every reviewed claim, judge's reading beside the one in force (an overturned claim
        is no longer among the severe ones, so it is listed here)."""
        record = review_of(self.report)
        if record is None or not record.claims:
            return ""
        rows = []
        for r in record.claims:
            f = review_fields(self.report, self.claims[r.claim_id], r)
            cells = [
                self.claim_link(r.claim_id),
                *(escape(reading(*(f[k] for k in keys))) for keys in _READINGS),
                *(escape(f[k]) for k in _REVIEW_COLUMNS),
            ]
            rows.append("<tr>" + "".join(f"<td>{x}</td>" for x in cells) + "</tr>")
        head = [
            "claim",
            "judge's reading",
            "in force",
            *(REVIEW_FIELDS[k] for k in _REVIEW_COLUMNS),
        ]
        return (
            f"<h2>Reviews</h2><p>{len(record.overrides)} override(s) on {len(record.claims)} "
            f"claim(s); as judged the gate was {record.judged_status.value}, the decision above "
            f"uses the verdicts in force.</p>"
            + "<table><tr>"
            + "".join(f"<th>{escape(h)}</th>" for h in head)
            + f"</tr>{''.join(rows)}</table>"
        )


def _signoff_section(report: RunReport) -> str:
    record = review_of(report)
    parts = [f"<h2>Sign-off</h2><p><b>In force:</b> {escape(signoff_in_force_text(record))}</p>"]
    if record is not None and record.signoffs:
        parts.append(
            _table(
                ["#", "standing", "decision", "by", "at (UTC)", "on gate decision", "comment"],
                [
                    [
                        s.id,
                        "STALE: overrides were recorded after it" if s.stale else s.standing,
                        s.decision.value,
                        s.reviewer,
                        s.created_at,
                        s.decision_status.value + (" (gate overridden)" if s.override_gate else ""),
                        s.comment,
                    ]
                    for s in record.signoffs
                ],
            )
        )
    return "".join(parts)


def html_report(report: RunReport) -> str:
    """The report as one HTML page with inline CSS and no scripts."""
    d, page = report.decision, _Page(report)
    record = review_of(report)
    body = [
        f'<div class="banner {d.status.value}">halgate gate: {d.status.value} for '
        f"{escape(d.gated_system)} (exit code {d.exit_code})</div>",
        f"<p class=headline>{escape(d.headline)}</p>" if d.headline else "",
        f"<p class=muted>run {escape(report.run_id)} · {report.mode.value} · suite "
        f"{escape(report.suite.name)} ({report.suite.n_cases} cases, "
        f"{escape(report.suite.content_hash[:12])}) · judge {escape(report.judge.judge_id)} · "
        f"{len(record.overrides) if record else 0} override(s)</p>",
        _signoff_section(report),
        "<h2>Reasons</h2><ul>"
        + "".join(
            f"<li>[{r.status.value}] <code>{escape(r.rule)}</code>: {escape(r.message)}</li>"
            for r in d.reasons
        )
        + "</ul>",
        "<h2>Rates</h2>" + _measures_table(report) + _other_rates_table(report) + _flips(report),
        _comparison(report),
    ]
    severe = severe_claims(report)
    if severe:
        body.append(
            f"<h2>Hallucinated claims of {escape(d.gated_system)}</h2>" + page.claims_table(severe)
        )
    body.append(page.reviews_section())
    body.append(team_html(record.team if record else None))
    body.append("<h2>Cases</h2>")
    body += [page.case_section(c.case_id) for c in report.cases]
    body.append(page.evidence.section())
    title = escape(f"halgate {d.status.value} {report.run_id}")
    return xml_text(
        f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{title}</title>"
        f"<style>{_CSS}</style></head><body>\n"
        + "\n".join(b for b in body if b)
        + "\n</body></html>\n"
    )


def _comparison(report: RunReport) -> str:
    cmp = report.comparison
    if cmp is None:
        return ""
    ch = cmp.rate_change
    return (
        f"<p>Rate change {escape(cmp.candidate)} − {escape(cmp.baseline)} (paired bootstrap "
        f"over {ch.n_cases} cases, seed {ch.seed}; positive = worse) · regression detected "
        "(the change's interval lies above zero): "
        f"{'yes' if cmp.regression_detected else 'no'}</p>"
        + _table(
            ["measure", "change", "95% CI"],
            [
                [
                    MEASURE_TITLES[m] + (" (gated)" if m == gated_row(report) else ""),
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


def _measures_table(report: RunReport) -> str:
    gated = gated_row(report)
    return _table(
        ["measure", "system", "count", "rate", "95% CI"],
        [
            [
                MEASURE_TITLES[measure] + (" (gated)" if measure == gated else ""),
                m.system,
                m.count_text,
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


def _flips(report: RunReport) -> str:
    """Repeated judging (judge_samples > 1): the flip share per system; '' with one sample."""
    items = flip_items(report)
    if not items:
        return ""
    listed = "".join(f"<li>{escape(x.strip())}</li>" for x in items)
    return f"<h3>Repeated judging (judge_samples)</h3><ul>{listed}</ul>"
