"""Pairwise: the question, output A beside output B beside the sources, and both orders' results.

Each pair is judged twice, with A and B in swapped positions; when the two verdicts disagree
(position bias) the pair is flagged for a human and the reconciled preference is a TIE, so the
page shows each order's own result apart from the reconciled one.
"""

from __future__ import annotations

import streamlit as st
from halgate.dashboard import components, loaders, pair_form, state
from halgate.models import PairwiseJudgement

db, run_id, _, report = components.open_run_page("Pairwise", flash=False)
pairs: list[PairwiseJudgement] = list(report.pairwise or [])
if not pairs:
    st.info("This run has no pairwise results (run a suite in pairwise mode to compare A and B).")
    st.stop()

# Each order's own result is the judge's; the reconciled preference is the one in force (a
# reviewer's A / B / TIE once decided in Triage or with `halgate override RUN pairwise:CASE`).
judged = {p.case_id: p for p in loaders.judged_report(db, run_id).pairwise or []}
flagged = [p for p in pairs if p.disagreement or p.needs_review]
counts = {k: sum(1 for p in pairs if p.preference.value == k) for k in ("A", "B", "TIE")}
m1, m2 = st.columns(2)
m1.metric("Disagreements / needs review", f"{len(flagged)} of {len(pairs)}")
m2.metric("Preferences A / B / tie", " / ".join(str(v) for v in counts.values()))
st.dataframe(
    [
        {
            "case": p.case_id,
            "A": p.system_a,
            "B": p.system_b,
            "A first": pair_form.order_result(judged.get(p.case_id, p)),
            "B first": pair_form.order_result(judged.get(p.case_id, p), swapped=True),
            "reconciled": p.preference.value,
            "disagreement": p.disagreement,
            "confidence": p.confidence,
            "error": p.error or "",
        }
        for p in pairs
    ],
    hide_index=True,
)
only = st.toggle("Only pairs that need a human", value=bool(flagged))
shown = flagged if only else pairs
if not shown:
    st.success("The two orderings agree on every pair.")
    st.stop()
index = st.selectbox("Case", range(len(shown)), format_func=lambda i: shown[i].case_id)
pair = shown[index]

if pair.disagreement:
    st.warning("The two position-swapped verdicts disagree: this pair needs a human.")
if pair.error:
    st.error(state.plain(f"The judge failed on this pair: {pair.error}"))
pair_form.pair_orders(pair, judged.get(pair.case_id, pair))
pair_form.pair_sides(report, pair)
st.caption("Justification")
st.text(pair.justification)
