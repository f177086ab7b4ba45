"""Safe evidence markup: answers and source documents with claims and citations highlighted.

Answer and document text is untrusted (a model wrote one, anybody the other). Every piece of it
goes through ``html.escape`` before it meets markup, and the only markup is built here from
fixed strings and ids we sanitise, so a ``<script>`` or ``<img onerror>`` in an answer shows
as text. The dashboard and the HTML report render these strings; they never build their own.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..models import Citation, ClaimJudgement, GateDecision, Verdict

VERDICT_CLASS: dict[Verdict, str] = {
    v: "verdict-" + v.value.lower().replace("_", "-") for v in Verdict
}
"""CSS class of a claim's ``<mark>`` per verdict, e.g. ``verdict-contradicted``."""

VERDICT_COLOURS: dict[Verdict, str] = {
    Verdict.SUPPORTED: "#c8e6c9",
    Verdict.PARTIALLY_SUPPORTED: "#fff3b0",
    Verdict.UNSUPPORTED: "#ffd8a8",
    Verdict.CONTRADICTED: "#ffb3b3",
    Verdict.OUT_OF_SCOPE: "#e0e0e0",
}

_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def safe_id(raw: str) -> str:
    """An HTML id made only of [A-Za-z0-9_-], so an id can never break out of its attribute."""
    return _ID_UNSAFE.sub("-", raw).strip("-") or "hg"


def css() -> str:
    """The stylesheet the highlighted fragments rely on (a fixed string, no untrusted text)."""
    marks = "\n".join(
        f"mark.{cls} {{ background: {VERDICT_COLOURS[v]}; padding: 0 2px; border-radius: 3px; }}"
        for v, cls in VERDICT_CLASS.items()
    )
    return (
        "<style>\n"
        ".hg-text { white-space: pre-wrap; line-height: 1.6; font-size: 0.95rem; }\n"
        ".hg-doc { max-height: 320px; overflow-y: auto; border: 1px solid #ddd;"
        " padding: 0.5rem 0.75rem; border-radius: 6px; }\n"
        ".hg-answer { border: 1px solid #ddd; padding: 0.5rem 0.75rem; border-radius: 6px; }\n"
        "mark.selected { outline: 2px solid #1f4e79; }\n"
        "mark.cited { background: #bbdefb; outline: 2px solid #1565c0; }\n"
        "mark.cited-unverified { background: #eeeeee; outline: 2px dashed #b71c1c; }\n"
        ".hg-legend mark { margin-right: 0.4rem; }\n"
        f"{marks}\n"
        "</style>"
    )


@dataclass(frozen=True)
class Span:
    """A half-open character range [start, end) to wrap, with the classes and title to use."""

    start: int
    end: int
    classes: tuple[str, ...]
    title: str = ""
    element_id: str | None = None


def _clip(spans: Iterable[Span], length: int) -> list[Span]:
    """Spans inside the text, sorted, overlaps trimmed so the markup always nests correctly."""
    out: list[Span] = []
    cursor = 0
    for s in sorted(spans, key=lambda s: (s.start, s.end)):
        start, end = max(s.start, cursor, 0), min(s.end, length)
        if start >= end:
            continue
        out.append(Span(start, end, s.classes, s.title, s.element_id))
        cursor = end
    return out


def mark_spans(text: str, spans: Iterable[Span]) -> str:
    """Escaped ``text`` with each span wrapped in ``<mark>``; every text piece is escaped."""
    parts: list[str] = []
    cursor = 0
    for s in _clip(spans, len(text)):
        parts.append(html.escape(text[cursor : s.start]))
        attrs = f' class="{html.escape(" ".join(s.classes))}"'
        if s.title:
            attrs += f' title="{html.escape(s.title, quote=True)}"'
        if s.element_id:
            attrs += f' id="{safe_id(s.element_id)}"'
        parts.append(f"<mark{attrs}>{html.escape(text[s.start : s.end])}</mark>")
        cursor = s.end
    parts.append(html.escape(text[cursor:]))
    return "".join(parts)


def highlight_answer(
    answer: str, claims: Sequence[ClaimJudgement], selected: str | None = None
) -> str:
    """The answer with every claim span marked by verdict; the selected claim is outlined."""
    spans = [
        Span(
            c.start,
            c.end,
            (VERDICT_CLASS[c.verdict],) + (("selected",) if c.claim_id == selected else ()),
            title=f"{c.verdict.value}"
            + (f" · {c.severity.value}" if c.severity else "")
            + (f" · {c.hallucination_type.value}" if c.hallucination_type else ""),
        )
        for c in claims
    ]
    return f'<div class="hg-text hg-answer">{mark_spans(answer, spans)}</div>'


def citation_span(doc_text: str, citation: Citation) -> tuple[int, int] | None:
    """Where a citation sits in its document, or None when it cannot be placed.

    Offsets are trusted only when they lie inside the document; otherwise an exact occurrence
    of the quote is looked up, so a judge's stale offsets still point at the right passage.
    """
    if citation.start is not None and citation.end is not None:
        if 0 <= citation.start < citation.end <= len(doc_text):
            return citation.start, citation.end
    if citation.quote:
        at = doc_text.find(citation.quote)
        if at >= 0:
            return at, at + len(citation.quote)
    return None


def highlight_source(doc_text: str, citations: Sequence[Citation], anchor: str = "hg-cited") -> str:
    """The document with its cited passages marked; the first one carries ``anchor`` as id.

    An unverified citation (the quote was not found in the source) is drawn differently, so
    nobody mistakes a judge's invented quote for evidence.
    """
    spans: list[Span] = []
    for c in citations:
        where = citation_span(doc_text, c) if c.verified else None
        if where is None:
            continue
        spans.append(
            Span(
                where[0],
                where[1],
                ("cited",),
                title=f"cited passage ({c.match} match)",
                element_id=anchor if not spans else None,
            )
        )
    return f'<div class="hg-text hg-doc">{mark_spans(doc_text, spans)}</div>'


def legend() -> str:
    """A one-line key of the verdict colours (fixed text)."""
    items = "".join(
        f'<mark class="{cls}">{v.value.replace("_", " ").lower()}</mark>'
        for v, cls in VERDICT_CLASS.items()
    )
    return f'<div class="hg-legend">{items}</div>'


def scroll_script(anchor: str) -> str:
    """A tiny fixed script that scrolls the document box to the cited passage.

    Only ``anchor`` varies and it is reduced to [A-Za-z0-9_-]; no untrusted text is in it, so
    it may be rendered with JavaScript enabled while the evidence itself is not. The code has
    no ``<`` or ``&``: Streamlit passes script text through DOMPurify, which drops a script
    whose text looks like markup (e.g. ``n<40``).
    """
    ident = safe_id(anchor)
    return (
        "<script>(function(){var n=0;function go(){"
        f"var el=document.getElementById('{ident}');"
        "if(!el){if(n++ !== 40){setTimeout(go,50);}return;}"
        "var box=el.closest('.hg-doc');if(!box){return;}"
        "var dy=el.getBoundingClientRect().top-box.getBoundingClientRect().top;"
        "box.scrollTop+=dy-box.clientHeight/3;"
        "}go();})();</script>"
    )


_STATUS_STYLE = {
    "PASSED": ("#e8f5e9", "#2e7d32"),
    "FAILED": ("#ffebee", "#c62828"),
    "NEEDS_REVIEW": ("#fff8e1", "#ef6c00"),
    "HARNESS_ERROR": ("#f3e5f5", "#6a1b9a"),
}


# Compact (Triage, Sign-off): the headline on one line, cut with an ellipsis; the reasons
# below it hold every word.
_ONE_LINE = ' style="white-space:nowrap;overflow:hidden;text-overflow:ellipsis;"'


def decision_banner(decision: GateDecision, compact: bool = False) -> str:
    """The gate decision as a coloured box listing every reason (reason text is escaped).

    Reasons quote case and claim ids taken from the suite, so they are treated as untrusted
    like any other suite text. ``compact`` (Triage) folds the reasons under a one-line count
    per status, so the claim under review stays on the first screen.
    """
    status = decision.status.value
    bg, fg = _STATUS_STYLE.get(status, ("#eeeeee", "#333333"))
    items = "".join(
        f'<li class="hg-reason hg-reason-{r.status.value.lower()}">'
        f"<b>{html.escape(r.status.value)}</b> · {html.escape(r.rule)}: "
        f"{html.escape(r.message)}</li>"
        for r in decision.reasons
    )
    reasons = f'<ul style="margin:0.3rem 0 0 1rem;">{items}</ul>'
    if compact:
        reasons = f"<details><summary>{_reason_counts(decision)}</summary>{reasons}</details>"
    return (
        f'<div class="hg-banner" data-status="{status}" style="background:{bg};'
        f'border-left:6px solid {fg};padding:0.4rem 1rem;border-radius:6px;">'
        f'<div style="color:{fg};font-weight:700;font-size:1.1rem;">Gate decision: '
        f'<span class="hg-status">{status}</span> '
        f'<span style="font-weight:400;font-size:0.9rem;">(system '
        f"{html.escape(decision.gated_system)}, exit code {decision.exit_code}, "
        f"{len(decision.pending_review)} pending review)</span></div>"
        f'<div class="hg-headline"{_ONE_LINE if compact else ""}>'
        f"{html.escape(decision.headline)}</div>"
        f"{reasons}</div>"
    )


def _reason_counts(decision: GateDecision) -> str:
    """'6 reasons: 4 FAILED, 1 NEEDS_REVIEW, 1 PASSED' (fixed words and counts only)."""
    counts: dict[str, int] = {}
    for r in decision.reasons:
        counts[r.status.value] = counts.get(r.status.value, 0) + 1
    told = ", ".join(f"{n} {name}" for name, n in counts.items())
    return f"{len(decision.reasons)} reasons: {told}" if told else "no reasons"
