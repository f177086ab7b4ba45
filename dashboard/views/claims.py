"""Claims explorer: filter every claim of the run, then inspect one with its evidence.

The table is built once per run version (cached) and filtered with vectorised pandas, so a
run of tens of thousands of claims stays responsive.
"""

from __future__ import annotations

import streamlit as st
from halgate.dashboard import components, links, loaders, review_form, state
from halgate.models import SEVERITIES_DESC, HallucinationType, Verdict
from halgate.present import ClaimFilter, filter_claims

SHOW_ROWS = 2000
PICK_ROWS = 500
# Fits the main area at 1440 px (about 980 px beside the sidebar); the enum columns are wide
# enough for their longest value (PARTIALLY_SUPPORTED, OMISSION_AS_FACT), and case, verdict,
# severity and the claim come first, so at 1024 px (about 640 px) none of them is cut by the
# edge ("CRITICA"). The claim id, index, tags, citation and override flags stay in the data
# (and in the filters above).
TABLE_COLUMNS = ["case", "verdict", "severity", "text", "system", "type", "rule", "score"]
TABLE_CONFIG = {
    "case": st.column_config.TextColumn(width=70),
    "system": st.column_config.TextColumn(width=85),
    "text": st.column_config.TextColumn("claim", width=250, help="The claim's own words."),
    "verdict": st.column_config.TextColumn(width=165),
    "severity": st.column_config.TextColumn(width=80),
    "type": st.column_config.TextColumn(width=140),
    "rule": st.column_config.TextColumn(
        width=90, help="The judge rule that decided (empty for judges without rules)."
    ),
    "score": st.column_config.ProgressColumn(
        "judge score", min_value=0.0, max_value=1.0, format="%.2f", width=90
    ),
}

db, run_id, version, report = components.open_run_page("Claims explorer", flash=False)
df = loaders.claims(db, run_id, version)

# Each filter's URL parameter and widget key: a copied link opens the same filters.
FILTER_PARAMS = {
    "system": "f-system",
    "verdict": "f-verdict",
    "severity": "f-severity",
    "type": "f-type",
    "tag": "f-tag",
    "case": "f-case",
    "citation": "f-citation",
    "overridden": "f-overridden",
}
CITATION_CHOICES = ["any", "verified", "unverified", "none"]
YES_NO = ["any", "yes", "no"]
all_tags = sorted({t for c in report.cases for t in c.tags})
choices = {
    "system": sorted(df["system"].unique()),
    "verdict": [v.value for v in Verdict],
    "severity": [s.value for s in SEVERITIES_DESC],
    "type": [t.value for t in HallucinationType],
    "tag": all_tags,
    "case": [c.case_id for c in report.cases],
    "citation": CITATION_CHOICES,
    "overridden": YES_NO,
}
for param, widget in FILTER_PARAMS.items():
    links.seed(widget, param, choices[param], multi=param not in ("citation", "overridden"))

with st.expander("Filters", expanded=True):
    c1, c2, c3, c4 = st.columns(4)
    systems = c1.multiselect("System", choices["system"], key="f-system")
    verdicts = c2.multiselect("Verdict", choices["verdict"], key="f-verdict")
    severities = c3.multiselect("Severity", choices["severity"], key="f-severity")
    types = c4.multiselect("Type", choices["type"], key="f-type")
    c5, c6, c7, c8 = st.columns(4)
    tags = c5.multiselect("Case tag", all_tags, key="f-tag")
    cases = c6.multiselect("Case", choices["case"], key="f-case")
    citation = c7.selectbox(
        "Citation",
        CITATION_CHOICES,
        key="f-citation",
        help="verified: every quote was found in its source; none: the claim cites nothing.",
    )
    overridden = c8.selectbox("Overridden", YES_NO, key="f-overridden")

f = ClaimFilter(
    systems=systems,
    verdicts=verdicts,
    severities=severities,
    types=types,
    tags=tags,
    cases=cases,
    citation=citation,
    overridden=overridden,
)
shown = filter_claims(df, f)
st.caption(
    f"{len(shown)} of {len(df)} claims match"
    + (f"; showing the first {SHOW_ROWS}" if len(shown) > SHOW_ROWS else "")
)
event = st.dataframe(
    shown.head(SHOW_ROWS),
    hide_index=True,
    on_select="rerun",
    selection_mode="single-row",
    key="claims-table",
    column_order=TABLE_COLUMNS,
    column_config=TABLE_CONFIG,
)

options = shown["claim_id"].head(PICK_ROWS).tolist()
rows = event.selection.rows if event and event.selection else []
row = shown["claim_id"].iloc[rows[0]] if rows else None
selected = row or links.value("claim")  # the URL's claim: linked, or the one just reviewed
linked = "claims_drawn" not in st.session_state  # the first draw honours a copied link
st.session_state["claims_drawn"] = True
keep = linked or selected == st.session_state.get(review_form.LAST_REVIEWED)
if keep and selected and selected not in options and selected in set(df["claim_id"]):
    # A claim reviewed out of the filters (or linked) stays in view until another is picked.
    st.caption(
        state.plain(f"{selected} no longer matches the filters; shown until you pick another.")
    )
    options = [selected, *options]
if options:
    index = options.index(selected) if selected in options else 0
    selected = st.selectbox(
        "Inspect claim",
        options,
        index=index,
        key=f"pick-{row or ''}",
        help="Or select a row in the table.",
    )
if selected is None:
    st.info("No claim matches the filters.")
    st.stop()

links.publish(
    system=systems, verdict=verdicts, severity=severities, type=types, tag=tags, case=cases,
    citation=None if citation == "any" else citation,
    overridden=None if overridden == "any" else overridden, claim=selected,
)  # fmt: skip
claim = next(c for a in report.analyses for c in a.claims if c.claim_id == selected)
st.subheader("Evidence")
history = [o for o in loaders.overrides(db, run_id, version) if o.claim_id == selected]
components.evidence(report, claim, key="ex", review=history[-1] if history else None)
if history:
    st.caption("Review history (newest last; blank: kept as it was)")
    done = [o.model_dump(exclude={"id", "run_id", "claim_id"}, mode="json") for o in history]
    st.dataframe(  # never "None" on screen: an unset field is blank
        [{k: "" if v is None else v for k, v in row.items()} for row in done], hide_index=True
    )
st.subheader("Override")
review_form.review_form(db, run_id, claim, key=f"ov-{selected}")
state.show_flash()  # beside the form that caused it
