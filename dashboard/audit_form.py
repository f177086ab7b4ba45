"""The audit sample on the Triage page: a random answer labelled as a whole.

The severity queue above it shows the claims most likely to matter; the audit sample is a
seeded random draw of answers whose labels correct the judge's rate (prediction-powered), so
each is judged as a whole answer: hallucinated yes or no, with its claims and the sources to
help. A label is an append-only override of ``audit:CASE:SYSTEM`` (``Store.add_override``).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from halgate.dashboard import components, loaders, review_form, state
from halgate.models import AuditLabel, RunReport
from halgate.present import highlight_answer, legend
from halgate.review import AuditItem, AuditProgress, ReviewQueue, audit_progress

_CHOICES = {
    AuditLabel.HALLUCINATED.value: "Yes: hallucinated (something is not backed by the sources)",
    AuditLabel.FAITHFUL.value: "No: faithful",
}


def audit_section(
    db: str,
    run_id: str,
    report: RunReport,
    queue: ReviewQueue,
    skipped: set[str],
    on_skip: Callable[[str], None],
) -> None:
    """The audit sample's progress, then, once the review queue above has nothing left but
    skipped items, its next unlabelled answer with the label form (one item at a time, like
    the rest of the queue)."""
    if not queue.audit:
        return
    title = f"Audit sample · {queue.counts.audit_text().removeprefix('audit sample: ')}"
    queue_left = [i for i in queue.pending if i.claim.claim_id not in skipped] + [
        p for p in queue.pending_pairs if p.review_id not in skipped
    ]
    with st.expander(title, expanded=not queue_left):
        st.caption(
            "A seeded random sample of answers. Judge each as a whole answer against the "
            "sources: the labels correct the judge's rate (the severity queue is not a random "
            "sample, so only these labels can)."
        )
        _next_answer(db, run_id, report, queue, skipped, on_skip, bool(queue_left))
        _progress(db, run_id)


def _next_answer(
    db: str, run_id: str, report: RunReport, queue: ReviewQueue, skipped: set[str],
    on_skip: Callable[[str], None], queue_left: bool,
) -> None:  # fmt: skip
    """The next unlabelled answer with its form, once the review queue above is done."""
    if queue_left:
        st.caption("Its answers come after the review queue above (or skip its items).")
        return
    todo = [i for i in queue.pending_audit if i.review_id not in skipped]
    if not todo:
        left = len(queue.pending_audit)
        if left:
            st.info(f"Only skipped answers are left ({left}).")
        else:
            st.success("Every answer of the audit sample is labelled.")
        return
    item = todo[0]
    audit_card(report, item, len(todo))
    audit_label_form(db, run_id, item, key=f"au-{item.review_id}", on_skip=on_skip)


def _progress(db: str, run_id: str) -> None:
    progress = audit_progress(loaders.reviewed(db, run_id, loaders.run_version(db, run_id)))
    if progress is not None:
        progress_panel(progress)


def progress_panel(progress: AuditProgress) -> None:
    """'N labels to go' (the gate's own count) and the corrected interval at each look."""
    if progress.labels_to_go:
        by = f" (`{progress.asked_by}`)" if progress.asked_by else ""
        st.markdown(f"**{progress.labels_to_go} labels to go** before the gate can decide{by}")
        st.caption(
            "Audit answers, every system's, in the order offered here: to the look of that "
            "rule's own figure that would decide it at the current variance."
        )
    else:
        st.markdown("**No labels asked for**: the gate's reasons say what decides it")
    rows = [
        {
            _LOOK_COLUMN[progress.unit]: look.labels,
            f"corrected {progress.measure}": _pct(look.estimate),
            "interval": f"{_pct(look.low)} to {_pct(look.high)}",
            "width": "–"
            if look.low is None or look.high is None
            else f"{look.high - look.low:.1%}",
        }
        for look in progress.looks
    ]
    if rows:  # an interval needs two labels
        st.dataframe(rows, hide_index=True)
    st.caption(
        f"The interval changes only at fixed looks (k, 2k, 4k, ... {progress.unit}), so "
        "looking after every label keeps its confidence (docs/gate.md)."
        + (_PAIRED_LOOKS if progress.unit == "cases" else "")
    )


_LOOK_COLUMN = {"labels": "labels", "cases": "cases labelled"}
_PAIRED_LOOKS = (
    " The change is paired over the cases either system rates: a look counts those cases, "
    "each with an answer to label for every system that rates it."
)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:+.1%}"


def audit_card(report: RunReport, item: AuditItem, left: int) -> None:
    """The whole answer with its claims highlighted, beside the case's sources."""
    st.markdown(f"**Audited answer** · system {state.plain(item.system)}")
    st.caption(state.plain(f"{item.review_id} · {left} left to label"))
    components.question(report, item.case_id)
    answer_col, sources = st.columns(2, gap="medium")
    with answer_col:
        answer = report.answers.get(item.system, {}).get(item.case_id, "")
        st.html(highlight_answer(answer, item.analysis.claims))
        st.html(legend())
    with sources:
        components.source_documents(report, item.case_id)
    if item.analysis.claims:
        st.dataframe(
            [
                {
                    "claim": c.text,
                    "judge verdict": c.verdict.value,
                    "severity": c.severity.value if c.severity else "",
                    "cited": ", ".join(x.doc_id for x in c.citations),
                }
                for c in item.analysis.claims
            ],
            hide_index=True,
        )
    judge = "hallucinated" if item.judge_hallucinated else "faithful"
    st.caption(f"The judge reads this answer as {judge}.")


def audit_label_form(
    db: str, run_id: str, item: AuditItem, key: str, on_skip: Callable[[str], None]
) -> None:
    """Hallucinated yes / no with a comment, recorded as the answer's label, or skip it (the
    buttons answer to Triage's ``review_form.KEYS``: this form only ever shows there)."""
    with st.form(key=f"{key}-form"):
        st.radio(
            "Does this answer contain a hallucination?",
            list(_CHOICES),
            format_func=_CHOICES.__getitem__,
            index=None,
            key=f"{key}-label",
        )
        st.text_area("Comment (why)", key=f"{key}-comment", placeholder="What decides it?")
        b1, b2 = st.columns(2)
        b1.form_submit_button(
            "Record label",
            on_click=review_form.record_decision,
            args=(
                db,
                run_id,
                item.review_id,
                key,
                "label",
                "Choose whether the answer contains a hallucination.",
                "{review_id} labelled {lower} by {reviewer}.",
            ),
            type="primary",
            shortcut=review_form.KEYS["confirm"],
        )
        b2.form_submit_button(
            "Skip answer",
            on_click=on_skip,
            args=(item.review_id,),
            shortcut=review_form.KEYS["skip"],
        )
