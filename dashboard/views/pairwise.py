"""Pairwise: the question, output A beside output B beside the sources, and both orders' results.

Each pair is judged twice, with A and B in swapped positions; when the two verdicts disagree
(position bias) the pair is flagged for a human and the reconciled preference is a TIE, so the
page shows each order's own result apart from the reconciled one.
"""

from __future__ import annotations

import re

import streamlit as st
from halgate.dashboard import components, state
from halgate.models import PairwiseJudgement
from halgate.present import highlight_answer

# How halgate.judges.pairwise.combine_swapped words a disagreement; the first order's own
# result is kept only there (the record's preference is the reconciled TIE).
_FIRST_ORDER = re.compile(r"^The two orders disagree \(first (A|B|TIE), swapped ")


def _first_order(pair: PairwiseJudgement) -> str:
    """The preference of the judgement with A shown first, in its own right."""
    if pair.error:
        return "—"
    if not pair.disagreement:
        return pair.preference.value
    found = _FIRST_ORDER.match(pair.justification)
    return found.group(1) if found else "—"


def _swapped(pair: PairwiseJudgement) -> str:
    return pair.swapped_preference.value if pair.swapped_preference else "—"


db, run_id, _, report = components.open_run_page("Pairwise", flash=False)
pairs: list[PairwiseJudgement] = list(report.pairwise or [])
if not pairs:
    st.info("This run has no pairwise results (run a suite in pairwise mode to compare A and B).")
    st.stop()

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
            "A first": _first_order(p),
            "B first": _swapped(p),
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
c1, c2, c3, c4, c5 = st.columns(5)
c1.metric("A shown first", _first_order(pair), help="The judgement with A in first position.")
c2.metric(
    "B shown first (mapped to A/B)",
    _swapped(pair),
    help="The judgement with the positions swapped, its answer mapped back to A and B.",
)
c3.metric(
    "Reconciled preference",
    pair.preference.value,
    help="Both orders' result when they agree; TIE (for a human) when they disagree.",
)
c4.metric("Confidence", f"{pair.confidence:.2f}")
c5.metric("Tie-breaker", pair.tie_breaker or "—")

components.question(report, pair.case_id)
left, right, sources = st.columns(3, gap="medium")
with sources:
    components.source_documents(report, pair.case_id)
for col, label, system in ((left, "A", pair.system_a), (right, "B", pair.system_b)):
    with col:
        st.markdown(f"**{label}** · {state.plain(system)}")
        answer = report.answers.get(system, {}).get(pair.case_id, "")
        claims = [
            c
            for a in report.analyses
            if a.case_id == pair.case_id and a.system == system
            for c in a.claims
        ]
        st.html(highlight_answer(answer, claims))
st.caption("Justification")
st.text(pair.justification)
