"""A Markdown report sized for a pull-request comment or a CI step summary.

Answers, documents and rationales are untrusted text: every piece of it goes through
``md_text`` so it cannot inject links, HTML, headings or table breaks into the comment, nor
mention people (``@everyone`` gets a zero-width space after the ``@``) or become an autolink
(``http://`` is shown as ``http[:]//``, ``www.`` as ``www[.]``).
"""

from __future__ import annotations

import html
import re

from ..models import SEVERITIES_DESC, ClaimJudgement, ClaimReview, GateStatus, RunReport
from ..present.flips import flip_markdown
from .common import (
    claim_reviews,
    review_note,
    review_of,
    review_state,
    severe_claims,
    signoff_in_force_text,
    signoff_line,
    terminal_text,
)
from .summary import (
    MEASURE_TITLES,
    ci_text,
    gated_row,
    measure_changes,
    measure_rows,
    pct,
    signed_pct,
)
from .team_text import team_markdown

BANNER = {
    GateStatus.PASSED: "✅",
    GateStatus.FAILED: "❌",
    GateStatus.NEEDS_REVIEW: "🟡",
    GateStatus.HARNESS_ERROR: "⚠️",
}
_MD_INLINE = re.compile(r"([\\`*_\[\]|~])")
_MD_LINE_START = re.compile(r"^(\s*\d*)([#+=>.)-])")
_MENTION = re.compile(r"@(?=\w)")
_SCHEME = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*):(?=//)")
_WWW = re.compile(r"(?i)\b(www)\.")
TOP_CLAIMS = 10
TOP_REVIEWS = 50


def md_text(text: str, limit: int = 300) -> str:
    """Untrusted text made inert in Markdown: one line, HTML-escaped, emphasis, link, code
    and table characters backslashed, a leading heading/list/quote marker escaped, mentions
    and autolinks defused."""
    one_line = " ".join(terminal_text(text).split())
    if len(one_line) > limit:
        one_line = one_line[: limit - 1] + "…"
    inert = _MD_INLINE.sub(r"\\\1", html.escape(one_line, quote=False))
    inert = _MD_LINE_START.sub(r"\1\\\2", inert)
    inert = _SCHEME.sub(r"\1\\[:\\]", _WWW.sub(r"\1\\[.\\]", inert))
    return _MENTION.sub("@\u200b", inert)


def md_code(text: str) -> str:
    """An identifier (run or claim id, possibly from an untrusted file) as a code span."""
    return "`" + " ".join(text.replace("`", "'").split())[:120] + "`"


def _rates_table(report: RunReport) -> list[str]:
    gated = gated_row(report)
    rows = [
        "| measure | system | count | rate | 95% CI |",
        "|---|---|---:|---:|---|",
    ]
    for measure, items in measure_rows(report.rates).items():
        title = MEASURE_TITLES[measure] + (" **(gated)**" if measure == gated else "")
        for m in items:
            rows.append(
                f"| {title} | {md_text(m.system)} | {m.count_text} | {pct(m.rate)} "
                f"| {ci_text(m.interval).removeprefix('95% CI ')} |"
            )
    rows += [
        "",
        "| system | answers | claims | macro | fabrication | contradiction |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in report.rates.values():
        rows.append(
            f"| {md_text(r.system)} | {r.n_answers} | {r.n_claims} | {pct(r.macro_rate)} "
            f"| {pct(r.fabrication_rate)} | {pct(r.contradiction_rate)} |"
        )
    return rows


def _comparison(report: RunReport) -> list[str]:
    cmp = report.comparison
    if cmp is None:
        return []
    ch = cmp.rate_change
    types = ", ".join(t.value for t in cmp.new_hallucination_types) or "none"
    lines = [
        "",
        f"**Rate change** {md_text(cmp.candidate)} − {md_text(cmp.baseline)} (paired bootstrap "
        f"over {ch.n_cases} cases, seed {ch.seed}; positive = worse) · regression detected "
        "(the change's interval lies above zero): "
        f"**{'yes' if cmp.regression_detected else 'no'}** · new hallucination types "
        f"(reported, not gated): {types}",
        "",
        "| measure | change | 95% CI |",
        "|---|---:|---|",
    ]
    for measure, change in measure_changes(report).items():
        if change is not None:
            title = MEASURE_TITLES[measure] + (
                " **(gated)**" if measure == gated_row(report) else ""
            )
            ci = ci_text(change, signed=True).removeprefix("95% CI ")
            lines.append(f"| {title} | **{signed_pct(change.estimate)}** | {ci} |")
    lines += [
        "",
        "| severity | baseline | candidate | change |",
        "|---|---:|---:|---:|",
    ]
    for sev in SEVERITIES_DESC:
        s = cmp.severity_shift[sev.value]
        lines.append(f"| {sev.value} | {s.baseline} | {s.candidate} | {s.delta:+d} |")
    return lines


def _answer_source(report: RunReport, c: ClaimJudgement) -> str | None:
    """Where an imported answer was read (file and row, or trace and span), else None."""
    case = next((x for x in report.cases if x.case_id == c.case_id), None)
    part = f"answer:{c.system}"
    found = [p for p in (case.provenance if case else []) if p.part == part]
    if not found:
        return None
    p = found[0]
    where = [md_code(p.source)]
    if p.span_id is not None:
        where += [f"trace {md_code(str(p.trace_id))}", f"span {md_code(p.span_id)}"]
    elif p.row is not None:
        where.append(f"row {p.row}")
    return " ".join(where)


def _claim_item(n: int, c: ClaimJudgement, state: str, review: ClaimReview | None) -> list[str]:
    tags = " · ".join(
        x
        for x in (
            c.severity and c.severity.value,
            c.verdict.value,
            c.hallucination_type and c.hallucination_type.value,
        )
        if x
    )
    lines = [
        f"{n}. **{tags}** — {md_code(c.claim_id)}" + (f" ({state})" if state else ""),
        f"   > {md_text(c.text)}",
    ]
    for cit in c.citations[:2]:
        mark = "verified" if cit.verified else "NOT found in source"
        lines.append(f"   - evidence {md_code(cit.doc_id)} ({mark}): “{md_text(cit.quote)}”")
    lines.append(f"   - judge's reason: {md_text(c.rationale)}")
    lines += [f"     - {md_text(line)}" for line in c.provenance()]
    if review is not None:
        lines.append(f"   - review: {md_text(review_note(review), 500)}")
    return lines


def _reviews(report: RunReport) -> list[str]:
    """Every reviewed claim (an overturned one is no longer among the severe claims)."""
    record = review_of(report)
    if record is None or not record.overrides:
        return []
    reviewers = sorted({o.reviewer for o in record.overrides})
    lines = [
        "",
        f"### Reviews ({len(record.overrides)} override(s) on {len(record.claims)} claim(s) by "
        f"{', '.join(md_text(r, 80) for r in reviewers)}; as judged the gate was "
        f"{record.judged_status.value}, the decision above uses the verdicts in force)",
        "",
    ]
    for r in record.claims[:TOP_REVIEWS]:
        lines.append(f"- {md_code(r.claim_id)} {md_text(review_note(r), 500)}")
    if len(record.claims) > TOP_REVIEWS:
        lines.append(f"- … and {len(record.claims) - TOP_REVIEWS} more (the CSV export has all)")
    return lines


def _signoffs(report: RunReport) -> list[str]:
    record = review_of(report)
    lines = ["", f"**Sign-off in force:** {md_text(signoff_in_force_text(record), 500)}"]
    if record is not None and record.signoffs:
        lines += ["", "Sign-offs, oldest first:", ""]
        lines += [f"- {md_text(signoff_line(s), 500)}" for s in record.signoffs]
    return lines


def markdown_report(report: RunReport) -> str:
    """The report as GitHub-flavoured Markdown (snapshot-tested)."""
    d = report.decision
    reviews = claim_reviews(report)
    lines = [
        f"## {BANNER[d.status]} halgate gate: {d.status.value} for {md_text(d.gated_system)}",
        "",
        f"Run {md_code(report.run_id)} · {report.mode.value} · "
        f"suite **{md_text(report.suite.name)}** "
        f"({report.suite.n_cases} cases, {md_code(report.suite.content_hash[:12])}) · judge "
        f"{md_code(report.judge.judge_id)} · exit code {d.exit_code}",
        *(["", md_text(d.headline)] if d.headline else []),
        *_signoffs(report),
        "",
        *_rates_table(report),
        *_comparison(report),
        *flip_markdown(report, md_text),
        "",
        "### Reasons",
        "",
    ]
    for r in d.reasons:
        lines.append(f"- {BANNER[r.status]} `{r.rule}`: {md_text(r.message, 500)}")
    severe = severe_claims(report)
    if severe:
        lines += [
            "",
            f"### Most severe claims ({len(severe)} hallucinated in "
            f"{md_text(d.gated_system)}, top {min(len(severe), TOP_CLAIMS)})",
            "",
        ]
        for n, c in enumerate(severe[:TOP_CLAIMS], 1):
            review = reviews.get(c.claim_id)
            state = review_state(report, c.claim_id, review is not None)
            lines += _claim_item(n, c, state, review)
            source = _answer_source(report, c)
            if source is not None:
                lines.append(f"   - answer read from {source}")
    lines += _reviews(report)
    lines += team_markdown(record.team if (record := review_of(report)) else None, md_code)
    if d.pending_review:
        lines += [
            "",
            f"{len(d.pending_review)} claim(s) await review: "
            + md_code(f"halgate review {report.run_id}"),
        ]
    # CI appends this to $GITHUB_STEP_SUMMARY: no NUL, ESC, BEL or other control character
    # from an answer may reach it (the HTML, JUnit and terminal renderings strip them too).
    return terminal_text("\n".join(lines) + "\n")
