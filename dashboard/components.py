"""Pieces several pages draw: the decision banner, the side-by-side evidence, the review form.

Untrusted text (answers, documents, rationales, quotes) reaches the page only as markup from
``halgate.highlight`` (built from escaped text) or through ``st.text``/``st.dataframe``,
which never interpret it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go
import streamlit as st
from halgate import HalgateError
from halgate.dashboard import loaders, state
from halgate.models import (
    ClaimJudgement,
    GateDecision,
    HallucinationType,
    PairwiseJudgement,
    Preference,
    RunReport,
    Severity,
    Verdict,
)
from halgate.present import (
    css,
    decision_banner,
    empty_message,
    highlight_answer,
    highlight_source,
    legend,
    safe_id,
    scroll_script,
)
from halgate.review import first_order_preference

KEEP = "(keep)"


def page_setup() -> None:
    """Inject the evidence stylesheet (fixed text) once per page run."""
    st.html(css())


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


def banner(decision: GateDecision) -> None:
    """The gate decision with every reason."""
    st.html(decision_banner(decision))


def open_run_page(title: str, flash: bool = True) -> tuple[str, str, int, RunReport]:
    """The common start of a page about one run: (db, run_id, version, effective report).

    Stops the page with a hint when no run is selected.
    """
    page_setup()
    st.title(title)
    if flash:
        state.show_flash()
    picked = require_run()
    if picked is None:
        st.stop()
    db, run_id = picked
    version = loaders.run_version(db, run_id)
    return db, run_id, version, loaders.effective_run(db, run_id, version)


def require_run() -> tuple[str, str] | None:
    """(db, run_id) of the selected run, or None after telling the user to pick one."""
    run_id = state.selected_run()
    if run_id is None:
        st.info(
            "No run selected. Load or start a run on the Runs page, or pick one in the sidebar."
        )
        return None
    return state.db_path(), run_id


def _claims_of(report: RunReport, case_id: str, system: str) -> list[ClaimJudgement]:
    for a in report.analyses:
        if a.case_id == case_id and a.system == system:
            return a.claims
    return []


def _documents(report: RunReport, case_id: str) -> dict[str, tuple[str, str]]:
    """doc_id -> (title, text) of the documents a case's answers are checked against."""
    case = next((c for c in report.cases if c.case_id == case_id), None)
    if case is None:
        return {}
    by_id = {d.doc_id: d for d in report.documents}
    docs = [by_id[d] for d in case.doc_ids if d in by_id] + list(case.documents)
    return {d.doc_id: (d.title or d.doc_id, d.text) for d in docs}


def question(report: RunReport, case_id: str) -> None:
    """The case's question, as plain text."""
    case = next((c for c in report.cases if c.case_id == case_id), None)
    st.caption("Question")
    st.text(case.question if case else "(case not in report)")


def source_documents(report: RunReport, case_id: str) -> None:
    """Every document of a case, each titled, in the escaped evidence box (nothing cited)."""
    docs = _documents(report, case_id)
    if not docs:
        st.warning("No source document for this case.")
    for doc_id, (title, text) in docs.items():
        st.markdown(f"**Source** · {state.plain(title)}")
        st.html(highlight_source(text, [], anchor=safe_id(f"src-{case_id}-{doc_id}")))


def evidence(report: RunReport, claim: ClaimJudgement, key: str) -> None:
    """Answer with claim spans by verdict beside the source with the cited passage in view."""
    question(report, claim.case_id)
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown(f"**Answer** · system {state.plain(claim.system)}")
        answer = report.answers.get(claim.system, {}).get(claim.case_id, "")
        st.html(
            highlight_answer(
                answer, _claims_of(report, claim.case_id, claim.system), claim.claim_id
            )
        )
        st.html(legend())
    with right:
        docs = _documents(report, claim.case_id)
        cited = list(dict.fromkeys(c.doc_id for c in claim.citations if c.doc_id in docs))
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
            mine = [c for c in claim.citations if c.doc_id == doc_id]
            st.html(highlight_source(text, mine, anchor=anchor))
            st.html(scroll_script(anchor), unsafe_allow_javascript=True)
    claim_facts(claim)


def claim_facts(claim: ClaimJudgement) -> None:
    """Verdict, type, severity, rationale and the verification status of each citation."""
    facts = {  # one wrapping line: metrics would cut PARTIALLY_SUPPORTED to "PARTIALLY…"
        "Verdict": claim.verdict.value,
        "Severity": claim.severity.value if claim.severity else "—",
        "Type": claim.hallucination_type.value if claim.hallucination_type else "—",
        "Judge score": f"{claim.score:.2f}",
    }
    st.markdown(" · ".join(f"{k} **{state.plain(v)}**" for k, v in facts.items()))
    st.caption("Claim")
    st.text(claim.text)
    st.caption("Rationale")
    st.text(claim.rationale)
    if not claim.citations:
        st.warning("The judge cited no passage for this claim.")
    for c in claim.citations:
        status = f"verified ({c.match} match)" if c.verified else "NOT FOUND in the source"
        st.caption(f"Citation in {state.plain(c.doc_id)}: {status}")
        st.text(c.quote)


def _clear_review(key: str) -> None:
    """Empty the review form after its write (in the callback, before the widgets redraw).

    The form is not ``clear_on_submit``: that would also wipe a submit that was refused.
    """
    st.session_state[f"{key}-comment"] = ""
    for suffix in ("verdict", "type", "severity"):
        st.session_state[f"{key}-{suffix}"] = KEEP


def _choice(label: str, options: list[str], key: str) -> str | None:
    value = st.selectbox(label, [KEEP, *options], key=key)
    return None if value == KEEP else value


def review_form(
    db: str, run_id: str, claim: ClaimJudgement, key: str, on_skip: Callable[[], None] | None = None
) -> None:
    """Confirm or overturn a claim (new verdict/type/severity) with a comment, or skip it.

    Writes happen in the submit callbacks, which Streamlit runs before the page redraws, so a
    banner drawn after this form already shows the decision with the new override. The form
    is cleared only after a recorded review: a refused one keeps what the reviewer typed.
    """
    with st.form(key=f"{key}-form"):
        comment = f"{key}-comment"
        st.text_area("Comment (why)", key=comment, placeholder="What in the source decides it?")
        c1, c2, c3 = st.columns(3)
        with c1:
            _choice("New verdict", [v.value for v in Verdict], f"{key}-verdict")
        with c2:
            _choice("New type", [t.value for t in HallucinationType], f"{key}-type")
        with c3:
            _choice("New severity", [s.value for s in Severity], f"{key}-severity")
        b1, b2, b3 = st.columns(3)
        b1.form_submit_button(
            "Confirm judge",
            on_click=_submit,
            args=(db, run_id, claim.claim_id, key, False),
            type="primary",
        )
        b2.form_submit_button(
            "Overturn", on_click=_submit, args=(db, run_id, claim.claim_id, key, True)
        )
        if on_skip is not None:
            b3.form_submit_button("Skip", on_click=on_skip)


def _submit(db: str, run_id: str, claim_id: str, key: str, overturn: bool) -> None:
    """Record the override the form describes (a callback: runs before the next render)."""
    reviewer = state.reviewer()
    if not reviewer:
        state.flash("Enter your name in the sidebar (or log in) before reviewing.", "error")
        return
    picked = {
        field: None
        if st.session_state.get(f"{key}-{suffix}") in (None, KEEP)
        else st.session_state[f"{key}-{suffix}"]
        for field, suffix in (
            ("verdict", "verdict"),
            ("hallucination_type", "type"),
            ("severity", "severity"),
        )
    }
    comment = str(st.session_state.get(f"{key}-comment") or "").strip()
    if overturn and not any(picked.values()):
        state.flash("To overturn, choose a new verdict, type or severity.", "error")
        return
    if not overturn:
        picked = dict.fromkeys(picked)
        comment = comment or "confirmed the judge's verdict"
    if not comment:
        state.flash("Say why in the comment: an overturn needs a reason.", "error")
        return
    try:
        with state.open_store() as store:
            store.add_override(run_id, claim_id, comment=comment, reviewer=reviewer, **picked)
    except HalgateError as exc:
        state.flash(str(exc), "error")
        return
    _clear_review(key)
    loaders.invalidate()
    # Derive the reviewed run now, before the rerun lists runs: listing would otherwise
    # re-read and rescore the whole run just for its summary.
    loaders.reviewed(db, run_id, loaders.run_version(db, run_id))
    what = "overturned" if overturn else "confirmed"
    state.flash(f"{claim_id} {what} by {reviewer}.")


# ------------------------------------------------------------------ pairwise cases


def order_result(pair: PairwiseJudgement, swapped: bool = False) -> str:
    """One order's own result: A shown first, or (``swapped``) B shown first mapped to A/B."""
    found = pair.swapped_preference if swapped else first_order_preference(pair)
    return "—" if pair.error or found is None else found.value


def pair_orders(pair: PairwiseJudgement, judged: PairwiseJudgement | None = None) -> None:
    """Both orders' results, the reconciled preference (the decision in force), confidence."""
    judged = judged or pair
    c1, c2, c3, c4, c5 = st.columns(5)
    c1.metric("A shown first", order_result(judged), help="The judgement with A first.")
    c2.metric(
        "B shown first (mapped to A/B)",
        order_result(judged, swapped=True),
        help="The judgement with the positions swapped, its answer mapped back to A and B.",
    )
    c3.metric(
        "Reconciled preference",
        pair.preference.value,
        help="Both orders' result when they agree; TIE (for a human) when they disagree; "
        "a reviewer's decision once one is recorded.",
    )
    c4.metric("Confidence", f"{judged.confidence:.2f}")
    c5.metric("Tie-breaker", judged.tie_breaker or "—")


def pair_sides(report: RunReport, pair: PairwiseJudgement) -> None:
    """The question, then output A beside output B beside the sources."""
    question(report, pair.case_id)
    left, right, sources = st.columns(3, gap="medium")
    with sources:
        source_documents(report, pair.case_id)
    for col, label, system in ((left, "A", pair.system_a), (right, "B", pair.system_b)):
        with col:
            st.markdown(f"**{label}** · {state.plain(system)}")
            answer = report.answers.get(system, {}).get(pair.case_id, "")
            st.html(highlight_answer(answer, _claims_of(report, pair.case_id, system)))


def pair_review_form(
    db: str, run_id: str, review_id: str, key: str, on_skip: Callable[[], None] | None = None
) -> None:
    """Decide a pairwise case: A, B or TIE with a comment (recorded as an append-only
    override of ``review_id``, which lifts the gate's hold on the pair), or skip it."""
    with st.form(key=f"{key}-form"):
        st.radio(
            "Which output is more factual?",
            [p.value for p in Preference],
            index=None,
            horizontal=True,
            key=f"{key}-preference",
        )
        st.text_area("Comment (why)", key=f"{key}-comment", placeholder="What decides it?")
        b1, b2 = st.columns(2)
        b1.form_submit_button(
            "Record decision",
            on_click=_decide_pair,
            args=(db, run_id, review_id, key),
            type="primary",
        )
        if on_skip is not None:
            b2.form_submit_button("Skip", on_click=on_skip)


def _decide_pair(db: str, run_id: str, review_id: str, key: str) -> None:
    """Record the pair decision the form describes (a callback: runs before the redraw)."""
    reviewer = state.reviewer()
    if not reviewer:
        state.flash("Enter your name in the sidebar (or log in) before reviewing.", "error")
        return
    choice = st.session_state.get(f"{key}-preference")
    comment = str(st.session_state.get(f"{key}-comment") or "").strip()
    if choice is None:
        state.flash("Choose A, B or TIE: which output is more factual.", "error")
        return
    if not comment:
        state.flash("Say why in the comment: a decision needs a reason.", "error")
        return
    try:
        with state.open_store() as store:
            store.add_override(
                run_id, review_id, preference=str(choice), comment=comment, reviewer=reviewer
            )
    except HalgateError as exc:
        state.flash(str(exc), "error")
        return
    st.session_state[f"{key}-comment"] = ""
    st.session_state[f"{key}-preference"] = None
    loaders.invalidate()
    loaders.reviewed(db, run_id, loaders.run_version(db, run_id))
    state.flash(f"{review_id}: {choice} recorded by {reviewer}.")
