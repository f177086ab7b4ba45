"""The HTML report's evidence: every document once, with the passages the claims cite marked.

A report of 53 cases used to repeat each full document in every case that used it. Here each
document is printed once, in a Documents section; every verified citation is placed in its
document (``present.highlight.citation_span``), overlapping citations are merged into one
passage wrapped in ``<mark>`` with an anchor, and a claim's evidence links to that anchor.
Anchors are ordinals (``doc-3``, ``doc-3-p2``), never built from untrusted ids, and every piece
of document text goes through ``mark_spans``, which escapes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from ..models import Citation, ClaimJudgement, Document, RunReport
from ..present.highlight import Span, citation_span, mark_spans

_TITLE_CLAIMS = 5


@dataclass
class _Entry:
    """One document as the page shows it, with its cited passages once they are merged."""

    anchor: str
    doc: Document
    cited: list[tuple[int, int, str]] = field(default_factory=list)
    passages: list[tuple[int, int, list[str]]] = field(default_factory=list)


class Evidence:
    """The documents of a report, each once, and where each claim's citations point."""

    def __init__(self, report: RunReport) -> None:
        self._entries: list[_Entry] = []
        shared = {d.doc_id: self._add(d) for d in report.documents}
        self._by_case: dict[str, dict[str, _Entry]] = {}
        for case in report.cases:
            docs = {i: shared[i] for i in case.doc_ids if i in shared}
            docs |= {d.doc_id: self._add(d) for d in case.documents}
            self._by_case[case.case_id] = docs
        self._links: dict[tuple[str, int], str] = {}
        self._place(report)

    def _add(self, doc: Document) -> _Entry:
        entry = _Entry(f"doc-{len(self._entries) + 1}", doc)
        self._entries.append(entry)
        return entry

    def _place(self, report: RunReport) -> None:
        """Locate every verified citation, merge overlaps into passages, remember the links."""
        where: dict[tuple[str, int], tuple[_Entry, int]] = {}
        for a in report.analyses:
            for c in a.claims:
                for i, cit in enumerate(c.citations):
                    entry = self.document(c.case_id, cit.doc_id)
                    span = citation_span(entry.doc.text, cit) if entry and cit.verified else None
                    if entry is not None and span is not None:
                        entry.cited.append((*span, c.claim_id))
                        where[(c.claim_id, i)] = (entry, span[0])
        for entry in self._entries:
            for start, end, claim_id in sorted(entry.cited):
                last = entry.passages[-1] if entry.passages else None
                if last is not None and start < last[1]:
                    entry.passages[-1] = (last[0], max(last[1], end), [*last[2], claim_id])
                else:
                    entry.passages.append((start, end, [claim_id]))
        for key, (entry, start) in where.items():
            k = next(n for n, p in enumerate(entry.passages, 1) if p[0] <= start < p[1])
            self._links[key] = f"{entry.anchor}-p{k}"

    def document(self, case_id: str, doc_id: str) -> _Entry | None:
        """The document ``doc_id`` as case ``case_id`` sees it (its own documents first)."""
        return self._by_case.get(case_id, {}).get(doc_id)

    def case_links(self, case_id: str) -> str:
        """Links to the documents of one case (the text itself is in the Documents section)."""
        return ", ".join(
            f'<a href="#{e.anchor}">{escape(doc_id)}</a>'
            for doc_id, e in self._by_case.get(case_id, {}).items()
        )

    def citation(self, claim: ClaimJudgement, index: int) -> str:
        """One citation of a claim: the document linked to the cited passage, and the quote."""
        cit: Citation = claim.citations[index]
        quote = f"“{escape(cit.quote)}”"
        if not cit.verified:
            return f"{escape(cit.doc_id)} (NOT found in source): {quote}"
        passage = self._links.get((claim.claim_id, index))
        entry = self.document(claim.case_id, cit.doc_id)
        if passage is not None:
            return f'<a href="#{passage}">{escape(cit.doc_id)}</a>: {quote}'
        if entry is not None:
            return (
                f'<a href="#{entry.anchor}">{escape(cit.doc_id)}</a> (passage not placed): {quote}'
            )
        return f"{escape(cit.doc_id)}: {quote}"

    def section(self) -> str:
        """Every document once, cited passages in ``<mark class="cited">`` with anchors."""
        parts = []
        for e in self._entries:
            spans = [
                Span(
                    start,
                    end,
                    ("cited",),
                    title="cited by "
                    + ", ".join(ids[:_TITLE_CLAIMS])
                    + (f" and {len(ids) - _TITLE_CLAIMS} more" if len(ids) > _TITLE_CLAIMS else ""),
                    element_id=f"{e.anchor}-p{k}",
                )
                for k, (start, end, ids) in enumerate(e.passages, 1)
            ]
            title = f" — {escape(e.doc.title)}" if e.doc.title else ""
            parts.append(
                f'<section id="{e.anchor}"><h3>{escape(e.doc.doc_id)}{title}</h3>'
                f"<p class=muted>{len(e.passages)} cited passage(s)</p>"
                f"<pre>{mark_spans(e.doc.text, spans)}</pre></section>"
            )
        return "<h2>Documents</h2>" + "".join(parts)
