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
    Override,
    RunReport,
    Severity,
    Verdict,
)
from halgate.present import (
    css,
    deciding_citation,
    deciding_first,
    decision_banner,
    empty_message,
    highlight_answer,
    highlight_source,
    legend,
    safe_id,
    scroll_script,
)

KEEP = "(keep)"
# Triage's keyboard flow: Streamlit has no page-wide key handler, so each form button carries
# its own shortcut. Alt combinations reach the page while the comment box has the focus too
# (a plain letter would be typed into it); C and R are Streamlit's own.
KEYS = {"confirm": "Alt+Y", "overturn": "Alt+O", "skip": "Alt+N"}
EMPTY_ASKED = "confirm_without_comment_asked"
LAST_REVIEWED = "last_reviewed_claim"  # the explorer keeps it in view though it left the filter
KEY_HELP = (
    f"Keyboard: **{KEYS['confirm']}** confirm the judge (on a pair or an audited answer: record "
    f"the choice) · **{KEYS['overturn']}** overturn with the new verdict, type or severity "
    f"chosen · **{KEYS['skip']}** skip to the next item · **Tab** moves between the comment, "
    "the choices and the buttons; in a list type the first letters and press **Enter**, in "
    "A / B / TIE use the **arrow keys**."
)


def _key(name: str, keys: bool) -> str | None:
    """The shortcut of a form button when the page offers the keyboard flow."""
    return KEYS[name] if keys else None


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


def answer_claims(report: RunReport, case_id: str, system: str) -> list[ClaimJudgement]:
    """The claims of one system's answer to a case (effective verdicts), in answer order."""
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
            st.html(highlight_source(text, mine, anchor=anchor))
            st.html(scroll_script(anchor), unsafe_allow_javascript=True)
    claim_facts(claim, review)


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
    db: str,
    run_id: str,
    claim: ClaimJudgement,
    key: str,
    on_skip: Callable[[], None] | None = None,
    keys: bool = False,
) -> None:
    """Confirm or overturn a claim (new verdict/type/severity) with a comment, or skip it;
    with ``keys`` the buttons answer to the ``KEYS`` shortcuts too.

    Writes happen in the submit callbacks, which Streamlit runs before the page redraws, so a
    banner drawn after this form already shows the decision with the new override. The form
    is cleared only after a recorded review: a refused one keeps what the reviewer typed.
    """
    # Not Ctrl+Enter in the comment: it would press the first button, Confirm, even when the
    # reviewer has just chosen a new verdict to overturn with (the shortcuts say which).
    with st.form(key=f"{key}-form", enter_to_submit=False):
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
            args=(db, run_id, claim.claim_id, key, False, keys),
            type="primary",
            shortcut=_key("confirm", keys),
        )
        b2.form_submit_button(
            "Overturn",
            on_click=_submit,
            args=(db, run_id, claim.claim_id, key, True, keys),
            shortcut=_key("overturn", keys),
        )
        if on_skip is not None:
            b3.form_submit_button("Skip", on_click=on_skip, shortcut=_key("skip", keys))


def _confirm_unexplained(claim_id: str) -> bool:
    """True on the second empty-comment confirm of a claim; the first asks (else Alt+Y twice
    confirms the next claim, never read, with a comment nobody wrote)."""
    if st.session_state.get(EMPTY_ASKED) == claim_id:
        return True
    st.session_state[EMPTY_ASKED] = claim_id
    state.flash(
        f"No comment for {claim_id}: press Confirm judge ({KEYS['confirm']}) again to confirm "
        "without one, or type why first.",
        "warning",
    )
    return False


def _submit(
    db: str, run_id: str, claim_id: str, key: str, overturn: bool, ask_empty: bool = False
) -> None:
    """Record the override the form describes (a callback: runs before the next render).

    ``ask_empty`` (Triage's keyboard flow): a confirm without a comment asks once first.
    """
    reviewer = state.reviewer()
    if not reviewer:
        state.flash("Enter your name in the sidebar (or log in) before reviewing.", "error")
        return
    if refusal := state.review_refusal():
        state.flash(refusal, "error")
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
        if not comment and ask_empty and not _confirm_unexplained(claim_id):
            return
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
    st.session_state.pop(EMPTY_ASKED, None)
    st.session_state[LAST_REVIEWED] = claim_id
    _clear_review(key)
    loaders.invalidate()
    # Derive the reviewed run now, before the rerun lists runs: listing would otherwise
    # re-read and rescore the whole run just for its summary.
    loaders.reviewed(db, run_id, loaders.run_version(db, run_id))
    what = "overturned" if overturn else "confirmed"
    state.flash(f"{claim_id} {what} by {reviewer}.")


def record_decision(
    db: str, run_id: str, review_id: str, key: str, field: str, missing: str, said: str
) -> None:
    """Record the whole-item decision a form describes (an audit label, a pair preference)
    in the override `field` (a callback: runs before the redraw). `missing` is the message
    when nothing was chosen; `said` the confirmation, with {review_id}, {choice}, {lower}
    (the choice in lowercase) and {reviewer}."""
    reviewer = state.reviewer()
    if not reviewer:
        state.flash("Enter your name in the sidebar (or log in) before reviewing.", "error")
        return
    if refusal := state.review_refusal():
        state.flash(refusal, "error")
        return
    choice = st.session_state.get(f"{key}-{field}")
    comment = str(st.session_state.get(f"{key}-comment") or "").strip()
    if choice is None:
        state.flash(missing, "error")
        return
    if not comment:
        state.flash("Say why in the comment: a decision needs a reason.", "error")
        return
    try:
        with state.open_store() as store:
            store.add_override(
                run_id, review_id, comment=comment, reviewer=reviewer, **{field: str(choice)}
            )
    except HalgateError as exc:
        state.flash(str(exc), "error")
        return
    st.session_state[f"{key}-comment"] = ""
    st.session_state[f"{key}-{field}"] = None
    loaders.invalidate()
    loaders.reviewed(db, run_id, loaders.run_version(db, run_id))
    text = str(choice)
    state.flash(
        said.format(review_id=review_id, choice=text, lower=text.lower(), reviewer=reviewer)
    )
