"""Pairwise: output A beside output B, the preference, and both position-swapped verdicts.

Each pair is judged twice, with A and B in swapped positions; when the two verdicts disagree
(position bias) the pair is flagged for a human.
"""

from __future__ import annotations

import streamlit as st
from halgate.dashboard import components, state
from halgate.models import PairwiseJudgement
from halgate.present import highlight_answer

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
            "preference": p.preference.value,
            "swapped": p.swapped_preference.value if p.swapped_preference else "",
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
c1, c2, c3, c4 = st.columns(4)
c1.metric("Preference (A first)", pair.preference.value)
c2.metric("Preference (B first)", pair.swapped_preference.value if pair.swapped_preference else "—")
c3.metric("Confidence", f"{pair.confidence:.2f}")
c4.metric("Tie-breaker", pair.tie_breaker or "—")

left, right = st.columns(2)
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
