"""Triage: the review queue one item at a time: claims, most severe first, then the pairwise
cases that need a person (A beside B, decided A / B / TIE with a comment).

The banner, the progress, the claim card with the review form and the whole queue live in one
fragment, so a confirm or overturn redraws just this part, and all of it already shows the
new override (the write happens in the form's callback, before the redraw).
"""

from __future__ import annotations

import streamlit as st
from halgate.dashboard import audit_form, components, loaders, state
from halgate.models import RunReport
from halgate.review import PairReviewItem, ReviewQueue

SKIPPED = "triage_skipped"

components.page_setup()
st.title("Triage")
picked = components.require_run()
if picked is None:
    st.stop()
db, run_id = picked


def _skip(claim_id: str) -> None:
    st.session_state.setdefault(SKIPPED, {}).setdefault(run_id, []).append(claim_id)


def _whole_queue(queue: ReviewQueue) -> None:
    """Every queued claim with its effective verdict and reviewer (redrawn with the fragment,
    so it is current after each confirm or overturn)."""
    with st.expander("Whole queue", key="tr-whole-queue"):
        st.dataframe(
            [
                {
                    "claim": i.claim.claim_id,
                    "severity": i.claim.severity.value if i.claim.severity else "",
                    "verdict": i.claim.verdict.value,
                    "judge verdict": i.judged.verdict.value,
                    "reviewed": i.reviewed,
                    "by": i.latest_override.reviewer if i.latest_override else "",
                }
                for i in queue.items
            ],
            hide_index=True,
        )
        if queue.pairs:
            st.dataframe(
                [
                    {
                        "pair": p.review_id,
                        "A": p.pair.system_a,
                        "B": p.pair.system_b,
                        "preference": p.pair.preference.value,
                        "judge preference": p.judged.preference.value,
                        "reviewed": p.reviewed,
                        "by": p.latest_override.reviewer if p.latest_override else "",
                    }
                    for p in queue.pairs
                ],
                hide_index=True,
            )


def _next_pair(report: RunReport, item: PairReviewItem, left: int) -> None:
    """A pairwise case to decide: both orders' results, A beside B, and the decision form."""
    pair = item.judged
    st.subheader(f"Pair · {pair.case_id}")
    st.caption(state.plain(f"{item.review_id} · {left} left to review"))
    if pair.disagreement:
        st.warning("The two position-swapped verdicts disagree: decide which output is better.")
    if pair.error:
        st.error(state.plain(f"The judge failed on this pair: {pair.error}"))
    components.pair_orders(item.pair, pair)
    components.pair_sides(report, pair)
    st.caption("Justification")
    st.text(pair.error or pair.justification)
    components.pair_review_form(
        db, run_id, item.review_id, key=f"tr-pair-{item.review_id}",
        on_skip=lambda: _skip(item.review_id),
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
            if st.button("Go through the skipped items again"):
                st.session_state[SKIPPED][run_id] = []
                st.rerun(scope="fragment")
        else:
            what = "item" if queue.pairs else "claim"
            st.success(f"Every {what} in the queue has been reviewed.")
        return
    claim = todo[0].claim
    st.subheader(
        f"{claim.severity.value if claim.severity else 'UNRATED'} · {claim.verdict.value}"
        + (f" · {claim.hallucination_type.value}" if claim.hallucination_type else "")
    )
    left = len(todo) + len(pairs)
    st.caption(state.plain(f"claim {claim.claim_id} · {left} left to review"))
    components.evidence(report, claim, key="tr")
    components.review_form(
        db, run_id, claim, key=f"tr-{claim.claim_id}", on_skip=lambda: _skip(claim.claim_id)
    )


@st.fragment
def triage() -> None:
    """Banner, progress, the next claim with the form, and the whole queue, redrawn together."""
    version = loaders.run_version(db, run_id)
    report = loaders.effective_run(db, run_id, version)
    components.banner(report.decision)
    state.show_flash()
    queue = loaders.queue(db, run_id, version)
    counts = queue.counts
    st.progress(counts.reviewed / counts.total if counts.total else 1.0, text=counts.text())
    _next_claim(report, queue)
    skipped = set(st.session_state.get(SKIPPED, {}).get(run_id, []))
    audit_form.audit_section(db, run_id, report, queue, skipped, on_skip=_skip)
    _whole_queue(queue)


triage()
