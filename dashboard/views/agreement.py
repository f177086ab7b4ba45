"""Agreement: how well reviewers agree with each other, and how well the judge agrees with them.

Inter-reviewer agreement on the items two or more reviewers labelled (Cohen's and Fleiss'
kappa, Krippendorff's alpha), the judge against the human labels in force (confusion matrix,
precision and recall of "hallucinated" per risk level), and the audit-corrected rates those
labels give. The figures are ``Store.team_agreement``'s, the rows ``halgate.reports``' (the
same as ``halgate show`` and every export).
"""

from __future__ import annotations

import streamlit as st
from halgate.dashboard import components, state
from halgate.reports import RISK_HEAD, confusion_rows, reviewer_rows, risk_rows

db, run_id, version, report = components.open_run_page("Agreement")
components.banner(report.decision, compact=True)

with state.open_store() as store:
    team = store.team_agreement(run_id)

st.subheader("Between reviewers")
if team.reviewers is None:
    st.caption("No item has two labels yet (reviews_per_item in the policy sets the panel).")
else:
    r = team.reviewers
    a, b, c, d = st.columns(4)
    a.metric("Cohen's kappa", "—" if r.cohen_kappa is None else f"{r.cohen_kappa:.2f}")
    b.metric("Fleiss' kappa", "—" if r.fleiss_kappa is None else f"{r.fleiss_kappa:.2f}")
    c.metric(
        "Krippendorff's alpha",
        "—" if r.krippendorff_alpha is None else f"{r.krippendorff_alpha:.2f}",
    )
    d.metric("In dispute", r.disputed)
    st.dataframe(
        [{"figure": k, "value": v} for k, v in reviewer_rows(team)],
        hide_index=True,
        key="ag-reviewers",
    )
if team.disputed_items:
    st.warning(
        state.plain(
            "In dispute, holding the gate at NEEDS_REVIEW: " + ", ".join(team.disputed_items)
        )
    )

st.subheader("Judge against people")
humans, rows = confusion_rows(team)
if not rows:
    st.caption("No human label is in force yet.")
else:
    st.caption("Confusion matrix: the judge's label (rows) against the human label in force.")
    st.dataframe(
        [{"judge \\ human": r[0], **dict(zip(humans, r[1:], strict=True))} for r in rows],
        hide_index=True,
        key="ag-confusion",
    )
    st.caption('"Hallucinated" by case risk level: the judge\'s precision and recall.')
    st.dataframe(
        [dict(zip(RISK_HEAD, r, strict=True)) for r in risk_rows(team)],
        hide_index=True,
        key="ag-risk",
    )

st.subheader("Corrected rates")
for system, rates in report.rates.items():
    corrected = rates.corrected
    if corrected is None or corrected.estimate is None:
        continue
    judge = "—" if corrected.judge_rate is None else f"{corrected.judge_rate:.1%}"
    st.metric(
        f"{system}: answers with a hallucination, corrected by the audit",
        f"{corrected.estimate:.1%}",
        help=f"Judge's rate {judge}; {corrected.n_labelled} of {corrected.n_sample} "
        "audited answers labelled (agreed or adjudicated labels only).",
    )
