"""Triage: the review queue one item at a time: claims, most severe first, then the pairwise
cases that need a person (A beside B, decided A / B / TIE with a comment).

The banner, the progress, the claim card with the review form and the whole queue live in one
fragment, so a confirm or overturn redraws just this part, and all of it already shows the
new override (the write happens in the form's callback, before the redraw). The whole queue
says who reviewed each item, what they decided and when.

Keyboard: each form's buttons carry shortcuts (``review_form.KEYS``: Alt+Y confirm or record,
Alt+O overturn, Alt+N skip to the next item), listed under the title; they work while the
comment box has the focus, so a reviewer reads, types why and decides without the mouse.
"""

from __future__ import annotations

import streamlit as st
from halgate.dashboard import audit_form, components, links, loaders, pair_form, review_form, state
from halgate.models import RunReport
from halgate.present import focus_script, queue_audit_rows, queue_claim_rows, queue_pair_rows
from halgate.review import PairReviewItem, ReviewQueue

SKIPPED = "triage_skipped"
CARD = "hg-card"  # the top of the item under review: the view returns here after each step
FOCUSED = "triage_focused"
FOCUS_COUNT = "triage_focus_count"

components.page_setup()
st.title("Triage")
st.caption(review_form.KEY_HELP)
picked = components.require_run()
if picked is None:
    st.stop()
db, run_id = picked


def _skip(claim_id: str) -> None:
    st.session_state.setdefault(SKIPPED, {}).setdefault(run_id, []).append(claim_id)


def _card_top(item_id: str) -> None:
    """Mark the top of the item's card; after a step (a decision, a skip, a refusal), bring
    the card into view and the focus into its comment box. Not on arrival: the reviewer
    may be typing a name or reading the banner."""
    st.html(f'<div id="{CARD}" style="scroll-margin-top:4.5rem"></div>')
    before = st.session_state.get(FOCUSED)
    st.session_state[FOCUSED] = item_id
    if before is not None and (before != item_id or "_flash" in st.session_state):
        times = st.session_state[FOCUS_COUNT] = st.session_state.get(FOCUS_COUNT, 0) + 1
        st.html(focus_script(CARD, nonce=f"{item_id}-{times}"), unsafe_allow_javascript=True)


# Whole inside the expander at 1440 px (about 940 px).
_QUEUE_COLUMNS = {
    "claim": st.column_config.TextColumn(width=145),
    "severity": st.column_config.TextColumn(width=75),
    "verdict": st.column_config.TextColumn(width=165),  # PARTIALLY_SUPPORTED whole
    "judge verdict": st.column_config.TextColumn(width=165),
    "reviewed": st.column_config.CheckboxColumn(width=65),
    "decision": st.column_config.TextColumn(width=115),
    "by": st.column_config.TextColumn(width=85),
    "when (UTC)": st.column_config.TextColumn(width=125),
}


def _whole_queue(queue: ReviewQueue) -> None:
    """Every queued claim, pair and audited answer with what is in force and who reviewed it,
    what they decided and when (redrawn with the fragment, so it is current after each step)."""
    with st.expander("Whole queue", key="tr-whole-queue"):
        st.dataframe(queue_claim_rows(queue), hide_index=True, column_config=_QUEUE_COLUMNS)
        if queue.pairs:
            st.dataframe(queue_pair_rows(queue), hide_index=True)
        if queue.audit:
            st.caption("Audit sample")
            st.dataframe(queue_audit_rows(queue), hide_index=True)


def _next_pair(report: RunReport, item: PairReviewItem, left: int) -> None:
    """A pairwise case to decide: both orders' results, A beside B, and the decision form."""
    pair = item.judged
    links.publish(claim=item.review_id)
    _card_top(item.review_id)
    st.subheader(f"Pair · {pair.case_id}")
    st.caption(state.plain(f"{item.review_id} · {left} left to review"))
    if pair.disagreement:
        st.warning("The two position-swapped verdicts disagree: decide which output is better.")
    if pair.error:
        st.error(state.plain(f"The judge failed on this pair: {pair.error}"))
    pair_form.pair_orders(item.pair, pair)
    pair_form.pair_sides(report, pair)
    st.caption("Justification")
    st.text(pair.error or pair.justification)
    pair_form.pair_review_form(
        db, run_id, item.review_id, key=f"tr-pair-{item.review_id}",
        on_skip=lambda: _skip(item.review_id), keys=True,
    )  # fmt: skip


def _next_claim(report: RunReport, queue: ReviewQueue) -> None:
    """The next claim (or pair) to review with its evidence and the form, or why there is none."""
    counts = queue.counts
    if not queue.items and not queue.pairs:
        st.success("The review queue of this run is empty.")
        return
    skipped = set(st.session_state.get(SKIPPED, {}).get(run_id, []))
    todo = [i for i in queue.pending if i.claim.claim_id not in skipped]
    pairs = [p for p in queue.pending_pairs if p.review_id not in skipped]
    if not todo and pairs:
        _next_pair(report, pairs[0], len(pairs))
        return
    if not todo:
        if skipped and counts.pending:
            st.info(f"Only skipped items are left ({len(skipped)}).")
            again = "Go through the skipped items again"
            if st.button(again, shortcut=review_form.KEYS["skip"]):
                st.session_state[SKIPPED][run_id] = []
                st.rerun(scope="fragment")
        else:
            what = "item" if queue.pairs else "claim"
            st.success(f"Every {what} in the queue has been reviewed.")
        return
    pinned = links.value("claim")  # a copied link opens its claim while it awaits review
    claim = next((i.claim for i in todo if i.claim.claim_id == pinned), todo[0].claim)
    links.publish(claim=claim.claim_id)
    _card_top(claim.claim_id)
    st.subheader(
        f"{claim.severity.value if claim.severity else 'UNRATED'} · {claim.verdict.value}"
        + (f" · {claim.hallucination_type.value}" if claim.hallucination_type else "")
    )
    left = len(todo) + len(pairs)
    st.caption(state.plain(f"claim {claim.claim_id} · {left} left to review"))
    components.evidence(report, claim, key="tr")
    review_form.review_form(
        db,
        run_id,
        claim,
        key=f"tr-{claim.claim_id}",
        on_skip=lambda: _skip(claim.claim_id),
        keys=True,
    )


@st.fragment
def triage() -> None:
    """Banner, progress, the next claim with the form, and the whole queue, redrawn together."""
    version = loaders.run_version(db, run_id)
    report = loaders.effective_run(db, run_id, version)
    components.banner(report.decision, compact=True)
    queue = loaders.queue(db, run_id, version)
    counts = queue.counts
    st.progress(counts.reviewed / counts.total if counts.total else 1.0, text=counts.text())
    _next_claim(report, queue)
    state.show_flash()  # under the buttons that caused it
    skipped = set(st.session_state.get(SKIPPED, {}).get(run_id, []))
    audit_form.audit_section(db, run_id, report, queue, skipped, on_skip=_skip)
    _whole_queue(queue)


triage()
