"""A pairwise case on the page: both orders' results, A beside B beside the sources, and the
decision form (A / B / TIE with a comment) that Triage shows for a pair needing a person.

Untrusted text (answers, documents) reaches the page only as escaped markup from
``halgate.present`` or through ``st.text``, as in ``components``.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from halgate.dashboard import components, review_form, state
from halgate.models import PairwiseJudgement, Preference, RunReport
from halgate.present import highlight_answer
from halgate.review import first_order_preference


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
    components.question(report, pair.case_id)
    left, right, sources = st.columns(3, gap="medium")
    with sources:
        components.source_documents(report, pair.case_id)
    for col, label, system in ((left, "A", pair.system_a), (right, "B", pair.system_b)):
        with col:
            st.markdown(f"**{label}** · {state.plain(system)}")
            answer = report.answers.get(system, {}).get(pair.case_id, "")
            claims = components.answer_claims(report, pair.case_id, system)
            st.html(highlight_answer(answer, claims))


def pair_review_form(
    db: str,
    run_id: str,
    review_id: str,
    key: str,
    on_skip: Callable[[], None] | None = None,
    keys: bool = False,
) -> None:
    """Decide a pairwise case: A, B or TIE with a comment (recorded as an append-only
    override of ``review_id``, which lifts the gate's hold on the pair), or skip it; with
    ``keys`` the buttons answer to the ``KEYS`` shortcuts too."""
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
            on_click=review_form.record_decision,
            args=(
                db,
                run_id,
                review_id,
                key,
                "preference",
                "Choose A, B or TIE: which output is more factual.",
                "{review_id}: {choice} recorded by {reviewer}.",
            ),
            type="primary",
            shortcut=review_form.KEYS["confirm"] if keys else None,
        )
        if on_skip is not None:
            skip = review_form.KEYS["skip"] if keys else None
            b2.form_submit_button("Skip", on_click=on_skip, shortcut=skip)
