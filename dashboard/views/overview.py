"""Overview of one run: the decision and why, rates with intervals, what shifted, what is left.

Everything shown is computed from effective verdicts (judge verdicts with reviews applied),
drawn from the run's overview (``halgate.review.RunOverview``): the reviewed run's records
without its claims, so a 10,000-case run opens without parsing its report.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st
from halgate.dashboard import components, loaders, state
from halgate.models import MEASURE_LABELS
from halgate.present import (
    changes_frame,
    flip_sentence,
    flipped_list,
    rates_frame,
    severity_shift_chart,
    tag_shift_chart,
    transitions_chart,
    transitions_frame,
    type_shift_chart,
)

db, run_id, version = components.open_run("Overview")
report = loaders.overview(db, run_id, version)

st.caption(
    state.plain(
        f"Run {report.run_id} · suite {report.suite.name} ({report.suite.n_cases} cases) · "
        f"judge {report.judge.judge_id} · mode {report.mode.value} · {report.created_at}"
    )
)
components.banner(report.decision)

counts, agreement = report.counts, report.agreement
m1, m2, m3 = st.columns(3)
m1.metric("Pending review", counts.pending, help="Claims in the review queue without a review.")
m2.metric("Reviewed", f"{counts.reviewed} of {counts.total}")
overall = agreement.overall
m3.metric(
    "Judge agreement",
    "—" if overall.rate is None else f"{overall.rate:.0%}",
    help=f"Share of reviewed claims whose verdict the reviewers kept ({overall.kept} of "
    f"{overall.reviewed}).",
)

st.subheader("Rates")
st.caption(
    "Answers with a hallucination = share of answers with at least one hallucinated claim "
    "(abstentions counted apart; answering a should-abstain case counts). Claims hallucinated "
    "= hallucinated claims / all claims, pooled. Abstained = empty, refusal, nonsense or no "
    "checkable claim, on cases expecting an answer. Intervals are 95%."
)
rates = rates_frame(report)
pct = st.column_config.NumberColumn(format="percent")
st.dataframe(
    rates,
    hide_index=True,
    column_config={
        c: pct
        for c in rates.columns
        if c not in ("system", "answers", "claims") and not c.startswith("95% CI")
    },
)
for system_rates in report.rates.values():
    flips = system_rates.judge_flips  # repeated judging (judge_samples > 1) only
    if flips is not None:
        st.caption(state.plain(f"{system_rates.system}: {flip_sentence(flips)}."))
    if flips is not None and flips.flipped_claims:
        st.caption(state.plain(f"Flipped claims: {flipped_list(flips)}"))
comparison = report.comparison
if comparison is not None:
    ch = comparison.gated_change()
    if ch.estimate is not None:
        ci = (
            f"95% CI {ch.ci_low:+.1%} to {ch.ci_high:+.1%}"
            if ch.ci_low is not None and ch.ci_high is not None
            else "no interval"
        )
        label = MEASURE_LABELS[comparison.gated_measure]
        st.metric(
            f"Rate change ({label}, gated), {comparison.candidate} − {comparison.baseline}",
            f"{ch.estimate:+.1%}",
            delta=ci,
            delta_color="off",
            help=f"Paired bootstrap over {ch.n_cases} cases, {ch.resamples} resamples, "
            f"seed {ch.seed}. Positive = worse.",
        )
    st.dataframe(
        changes_frame(report),
        hide_index=True,
        column_config={"change": st.column_config.NumberColumn(format="percent")},
    )
    if comparison.new_hallucination_types:
        st.warning(
            "New hallucination types in the candidate: "
            + ", ".join(t.value for t in comparison.new_hallucination_types)
        )
    st.subheader("Severity shift")
    c1, c2, c3 = st.columns(3)
    components.chart(c1, severity_shift_chart(report), key="sev")
    components.chart(c2, type_shift_chart(report), key="type")
    components.chart(c3, tag_shift_chart(report), key="tag")

    st.subheader("Verdict transitions per case")
    transitions = transitions_frame(report.transitions)
    # Full width, the cases below: beside a table the heatmap's labels left it no room.
    components.chart(st, transitions_chart(transitions), key="transitions")
    changed = transitions[transitions["changed"]]
    st.caption(f"{len(changed)} of {len(transitions)} case(s) changed their worst verdict")
    st.dataframe(changed.drop(columns="changed"), hide_index=True, height=300)

if agreement.by_verdict:
    st.subheader("Judge agreement from reviews")
    st.dataframe(
        pd.DataFrame(
            [
                {"judge verdict": k, "reviewed": c.reviewed, "kept": c.kept, "agreement": c.rate}
                for k, c in agreement.by_verdict.items()
            ]
            + [
                {
                    "judge verdict": f"severity {k}",
                    "reviewed": c.reviewed,
                    "kept": c.kept,
                    "agreement": c.rate,
                }
                for k, c in agreement.by_severity.items()
            ]
        ),
        hide_index=True,
        column_config={"agreement": pct},
    )
