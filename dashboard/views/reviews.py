"""My reviews: the reviewer's own overrides across every run, newest first.

Who "I" am is the sidebar's identity (the logged-in user, else the typed name); which
overrides are mine, their order and whether each is still in force is
``Store.reviews_by`` (``halgate.review.own_reviews``), the rule ``halgate reviews`` prints
too. A run picked here opens in Triage.
"""

from __future__ import annotations

import streamlit as st
from halgate.dashboard import components, loaders, state
from halgate.present import OWN_REVIEW_COLUMNS, own_review_rows

components.page_setup()
st.title("My reviews")
state.show_flash()
db = state.db_path()
me = state.reviewer()
if me is None:
    st.info("Enter your name in the sidebar (or log in) to see the reviews you recorded.")
    st.stop()

mine = loaders.my_reviews(db, me)
if not mine:
    st.info(state.plain(f"No reviews by {me} in this database yet."))
    st.stop()

runs = list(dict.fromkeys(r.override.run_id for r in mine))
superseded = sum(1 for r in mine if not r.in_force)
st.caption(
    state.plain(
        f"{len(mine)} review(s) by {me} in {len(runs)} run(s), newest first"
        + (f"; {superseded} superseded by a later review" if superseded else "")
    )
)
st.dataframe(
    own_review_rows(mine),
    hide_index=True,
    column_order=OWN_REVIEW_COLUMNS,
    column_config={  # about 980 px: whole at 1440 px beside the sidebar
        "when (UTC)": st.column_config.TextColumn(width=140),
        "run": st.column_config.TextColumn(width=175),
        "suite": st.column_config.TextColumn(width=70),
        "item": st.column_config.TextColumn(width=135),
        "kind": st.column_config.TextColumn(width=50),
        "decision": st.column_config.TextColumn(width=150),
        "in force": st.column_config.CheckboxColumn(
            width=60, help="No later review of the same item, by anyone."
        ),
        "comment": st.column_config.TextColumn(width=190),
    },
    key="my-reviews",
)
pick = st.selectbox("Open a run of mine in Triage", runs, key="my-reviews-run")
if st.button("Open in Triage", type="primary"):
    state.select_run(pick)
    st.switch_page("views/triage.py")
