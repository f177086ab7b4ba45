"""Team review figures as text: `halgate show`, the Markdown and the HTML exports.

One table of rows (``team_rows``) rendered three ways, so every face shows the same figures
with the same names: inter-reviewer agreement (Cohen's and Fleiss' kappa, Krippendorff's
alpha), the judge against the human labels in force (confusion matrix, and per risk level
the precision and recall of "hallucinated"), and the items in dispute.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from ..models.team import RiskConfusion, TeamAgreement


def num(value: float | None, digits: int = 2) -> str:
    """A figure, or an em dash when it is undefined (never NaN)."""
    return "—" if value is None else f"{value:.{digits}f}"


def reviewer_rows(t: TeamAgreement) -> list[tuple[str, str]]:
    """(figure, value) of inter-reviewer agreement; empty without two labels on any item."""
    r = t.reviewers
    if r is None:
        return []
    return [
        ("items with 2+ labels", str(r.n_items)),
        ("reviewers", str(r.raters)),
        ("items where all labels agree", num(r.percent_agreement)),
        ("Cohen's kappa", num(r.cohen_kappa)),
        ("Fleiss' kappa", num(r.fleiss_kappa)),
        ("Krippendorff's alpha", num(r.krippendorff_alpha)),
        ("disputed (awaiting adjudication)", str(r.disputed)),
        ("adjudicated", str(r.adjudicated)),
    ]


def risk_rows(t: TeamAgreement) -> list[list[str]]:
    """Per risk level, then all: TP, FP, FN, TN, precision and recall of "hallucinated"."""
    if t.judge is None:
        return []

    def row(name: str, c: RiskConfusion) -> list[str]:
        counts = [str(c.tp), str(c.fp), str(c.fn), str(c.tn)]
        return [name, *counts, num(c.precision), num(c.recall)]

    rows = [row(risk, c) for risk, c in t.judge.by_risk.items()]
    return rows + [row("all", t.judge.overall)]


RISK_HEAD = ["risk level", "TP", "FP", "FN", "TN", "precision", "recall"]


def confusion_rows(t: TeamAgreement) -> tuple[list[str], list[list[str]]]:
    """(human labels, rows of judge label then counts): the judge–human confusion matrix."""
    if t.judge is None:
        return [], []
    humans = sorted({h for row in t.judge.by_verdict.values() for h in row})
    rows = [
        [judge, *(str(t.judge.by_verdict[judge].get(h, 0)) for h in humans)]
        for judge in sorted(t.judge.by_verdict)
    ]
    return humans, rows


def team_lines(t: TeamAgreement | None) -> str:
    """The figures as plain text for `halgate show` ('' when there is nothing to show)."""
    if t is None or (t.reviewers is None and t.judge is None):
        return ""
    lines = [f"\nTeam review ({t.reviews_per_item} review(s) per item):"]
    lines += [f"  {name}: {value}" for name, value in reviewer_rows(t)]
    if t.disputed_items:
        lines.append(f"  in dispute (gate held at NEEDS_REVIEW): {', '.join(t.disputed_items)}")
    humans, rows = confusion_rows(t)
    if rows:
        n = t.judge.n if t.judge else 0
        lines.append(f"  judge vs human labels in force ({n} item(s)); rows judge, columns human:")
        lines.append("    " + " | ".join(["judge \\ human", *humans]))
        lines += ["    " + " | ".join(r) for r in rows]
        lines.append("  " + " | ".join(RISK_HEAD))
        lines += ["  " + " | ".join(r) for r in risk_rows(t)]
    return "\n".join(lines) + "\n"


def _md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    def cells(row: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"

    return [cells(head), "|" + "---|" * len(head), *(cells(r) for r in rows)]


def team_markdown(t: TeamAgreement | None, code: Callable[[str], str]) -> list[str]:
    """The figures as Markdown lines for the export (none when there is nothing to show);
    ``code`` makes an item id (from a suite's case ids: untrusted) an inert code span."""
    if t is None or (t.reviewers is None and t.judge is None):
        return []
    lines = ["", f"### Team review ({t.reviews_per_item} review(s) per item)"]
    if t.reviewers is not None:
        figures = [list(r) for r in reviewer_rows(t)]
        lines += ["", *_md_table(["inter-reviewer agreement", "value"], figures)]
    if t.disputed_items:
        names = ", ".join(code(i) for i in t.disputed_items)
        lines += ["", f"In dispute, holding the gate at NEEDS_REVIEW: {names}"]
    humans, rows = confusion_rows(t)
    if rows:
        lines += ["", "Judge (rows) against the human labels in force (columns):", ""]
        lines += _md_table(["judge \\ human", *humans], rows)
        lines += ["", *_md_table(RISK_HEAD, risk_rows(t))]
    return lines


def _html_table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def team_html(t: TeamAgreement | None) -> str:
    """The figures as an HTML section for the export ('' when there is nothing to show)."""
    if t is None or (t.reviewers is None and t.judge is None):
        return ""
    parts = [f"<h2>Team review ({t.reviews_per_item} review(s) per item)</h2>"]
    if t.reviewers is not None:
        parts.append(
            _html_table(["inter-reviewer agreement", "value"], [list(r) for r in reviewer_rows(t)])
        )
    if t.disputed_items:
        parts.append(
            "<p>In dispute, holding the gate at NEEDS_REVIEW: "
            f"{escape(', '.join(t.disputed_items))}</p>"
        )
    humans, rows = confusion_rows(t)
    if rows:
        parts.append("<p>Judge (rows) against the human labels in force (columns):</p>")
        parts.append(_html_table(["judge \\ human", *humans], rows))
        parts.append(_html_table(RISK_HEAD, risk_rows(t)))
    return "".join(parts)
