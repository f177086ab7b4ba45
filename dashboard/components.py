"""Pieces several pages draw: the decision banner, the side-by-side evidence, the review form.

Untrusted text (answers, documents, rationales, quotes) reaches the page only as markup from
``halgate.highlight`` (built from escaped text) or through ``st.text``/``st.dataframe``,
which never interpret it.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st
from halgate.dashboard import loaders, state
from halgate.models import (
    ClaimJudgement,
    Document,
    GateDecision,
    Override,
    RunReport,
)
from halgate.present import (
    claim_sources,
    css,
    deciding_citation,
    deciding_first,
    decision_banner,
    empty_message,
    highlight_answer,
    highlight_source,
    is_markdown,
    legend,
    render_markdown,
    safe_id,
    scroll_script,
)

# On a small screen (1024 px) the sidebar takes 220 px instead of 300 (fixed text).
_NARROW_SIDEBAR = (
    "<style>@media (max-width: 1200px) {section[data-testid='stSidebar'] "
    "{width: 220px !important; min-width: 220px !important;}}</style>"
)


def page_setup() -> None:
    """Inject the evidence stylesheet and the small-screen layout (fixed text) per page run."""
    st.html(css() + _NARROW_SIDEBAR)


def problems(message: str) -> None:
    """An error whose message lists problems, one a line (suite, schema): a headline and a list.

    Markdown would run the lines together; each line is escaped, so text from an uploaded file
    shows literally and is never rendered as markup.
    """
    lines = [line for line in message.splitlines() if line.strip()]
    if len(lines) <= 1:
        st.error(state.plain(message))
        return
    head, rest = lines[0], lines[1:]
    if not head.endswith(":"):  # "Run not started: first problem" -> headline + item
        head, _, first = head.partition(": ")
        head, rest = head + ":", [first, *rest]
    items = "\n".join(f"- {state.plain(line)}" for line in rest)
    st.error(f"{state.plain(head)}\n\n{items}")


def chart(where: Any, fig: go.Figure, key: str) -> None:
    """A chart, or, when it has nothing to draw (no runs, one run), the reason as a message."""
    message = empty_message(fig)
    if message:
        where.info(message)
    else:
        where.plotly_chart(fig, key=key)


def banner(decision: GateDecision, compact: bool = False) -> None:
    """The gate decision with every reason (``compact``: folded under their counts)."""
    st.html(decision_banner(decision, compact=compact))


def open_run_page(title: str, flash: bool = True) -> tuple[str, str, int, RunReport]:
    """The common start of a page about one run: (db, run_id, version, effective report).

    Stops the page with a hint when no run is selected.
    """
    db, run_id, version = open_run(title, flash)
    return db, run_id, version, loaders.effective_run(db, run_id, version)


def open_run(title: str, flash: bool = True) -> tuple[str, str, int]:
    """``open_run_page`` without the report: (db, run_id, version) for a page that draws
    from smaller records (the Overview)."""
    page_setup()
    st.title(title)
    if flash:
        state.show_flash()
    picked = require_run()
    if picked is None:
        st.stop()
    db, run_id = picked
    return db, run_id, loaders.run_version(db, run_id)


def require_run() -> tuple[str, str] | None:
    """(db, run_id) of the selected run, or None after telling the user to pick one."""
    run_id = state.selected_run()
    if run_id is None:
        st.info(
            "No run selected. Load or start a run on the Runs page, or pick one in the sidebar."
        )
        return None
    return state.db_path(), run_id


def answer_claims(report: RunReport, case_id: str, system: str) -> list[ClaimJudgement]:
    """The claims of one system's answer to a case (effective verdicts), in answer order."""
    for a in report.analyses:
        if a.case_id == case_id and a.system == system:
            return a.claims
    return []


def _case_documents(report: RunReport, case_id: str) -> dict[str, Document]:
    """doc_id -> document, for the documents a case's answers are checked against."""
    case = next((c for c in report.cases if c.case_id == case_id), None)
    if case is None:
        return {}
    by_id = {d.doc_id: d for d in report.documents}
    docs = [by_id[d] for d in case.doc_ids if d in by_id] + list(case.documents)
    return {d.doc_id: d for d in docs}


def _documents(report: RunReport, case_id: str) -> dict[str, tuple[str, str]]:
    """doc_id -> (title, text) of the documents a case's answers are checked against."""
    return {k: (d.title or k, d.text) for k, d in _case_documents(report, case_id).items()}


def document_box(doc: Document | None, marked: str, key: str, rendered: bool) -> bool:
    """Draw a source document: a Markdown one (``documents/*.md``) rendered as Markdown,
    raw HTML escaped (``render_markdown``), with a toggle back to the text whose cited
    passages are marked (``marked``); any other as ``marked``. True when drawn rendered."""
    if doc is None or not is_markdown(doc):
        st.html(marked)
        return False
    if st.toggle("Rendered Markdown", value=rendered, key=f"{key}-md"):
        st.html(render_markdown(doc.text))
        return True
    st.html(marked)
    return False


def question(report: RunReport, case_id: str) -> None:
    """The case's question, as plain text."""
    case = next((c for c in report.cases if c.case_id == case_id), None)
    st.caption("Question")
    st.text(case.question if case else "(case not in report)")


def source_documents(report: RunReport, case_id: str) -> None:
    """Every document of a case, each titled, in the escaped evidence box (nothing cited)."""
    docs = _case_documents(report, case_id)
    if not docs:
        st.warning("No source document for this case.")
    for doc_id, doc in docs.items():
        st.markdown(f"**Source** · {state.plain(doc.title or doc_id)}")
        marked = highlight_source(doc.text, [], anchor=safe_id(f"src-{case_id}-{doc_id}"))
        document_box(doc, marked, safe_id(f"src-{case_id}-{doc_id}"), rendered=True)


def evidence(
    report: RunReport, claim: ClaimJudgement, key: str, review: Override | None = None
) -> None:
    """Answer with claim spans by verdict beside the source with the cited passage in view;
    ``review``: the override in force, whose comment explains the verdict shown."""
    question(report, claim.case_id)
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown(f"**Answer** · system {state.plain(claim.system)}")
        answer = report.answers.get(claim.system, {}).get(claim.case_id, "")
        st.html(
            highlight_answer(
                answer, answer_claims(report, claim.case_id, claim.system), claim.claim_id
            )
        )
        st.html(legend())
    with right:
        docs = _documents(report, claim.case_id)
        best = deciding_citation(claim)  # its document first, its passage in view
        ordered = deciding_first(claim, claim.citations) if best else []
        cited = list(dict.fromkeys(c.doc_id for c in ordered if c.doc_id in docs))
        choices = cited + [d for d in docs if d not in cited]
        if not choices:
            st.warning("No source document for this case.")
        else:
            doc_id = choices[0]
            if len(choices) > 1:
                doc_id = st.selectbox(
                    "Source document",
                    choices,
                    key=f"{key}-doc",
                    format_func=lambda d: (
                        f"{docs[d][0]} ({'cited' if d in cited else 'not cited'})"
                    ),
                )
            title, text = docs[doc_id]
            st.markdown(f"**Source** · {state.plain(title)}")
            anchor = safe_id(f"cite-{key}-{doc_id}")
            mine = [c for c in ordered if c.doc_id == doc_id]
            doc = _case_documents(report, claim.case_id).get(doc_id)
            # Rendered by default only with nothing cited in it: spans index the raw text.
            marked = highlight_source(text, mine, anchor=anchor)
            if not document_box(doc, marked, anchor, rendered=not mine):
                st.html(scroll_script(anchor), unsafe_allow_javascript=True)
    claim_facts(claim, review)
    sources = claim_sources(report, claim)
    if sources:  # an imported run: the row or span to go back to, as text
        st.caption("Imported from")
        st.text("\n".join(sources))


def claim_facts(claim: ClaimJudgement, review: Override | None = None) -> None:
    """Verdict, type, severity, rationale and the verification status of each citation.

    After a review the verdict shown is the reviewer's, so the judge's rationale is labelled
    as the judge's and the reviewer's comment stands beside it.
    """
    facts = {  # one wrapping line: metrics would cut PARTIALLY_SUPPORTED to "PARTIALLY…"
        "Verdict": claim.verdict.value,
        "Severity": claim.severity.value if claim.severity else "—",
        "Type": claim.hallucination_type.value if claim.hallucination_type else "—",
        "Judge score": f"{claim.score:.2f}",
    }
    st.markdown(" · ".join(f"{k} **{state.plain(v)}**" for k, v in facts.items()))
    st.caption("Claim")
    st.text(claim.text)
    if review is not None:
        st.caption(state.plain(f"Reviewer's comment ({review.reviewer}, in force)"))
        st.text(review.comment)
    st.caption("Judge's rationale" + (" (before the review)" if review is not None else ""))
    st.text(claim.rationale)
    provenance = claim.provenance()
    if provenance:
        st.caption("Rules")
        st.text("\n".join(provenance))
    if not claim.citations:
        st.warning("The judge cited no passage for this claim.")
    for c in claim.citations:
        status = f"verified ({c.match} match)" if c.verified else "NOT FOUND in the source"
        st.caption(f"Citation in {state.plain(c.doc_id)}: {status}")
        st.text(c.quote)
