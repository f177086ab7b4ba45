"""Sign-off: the release manager's final word, recorded against the decision it was made on.

Only release managers may sign off: ``halgate.review.release_managers()`` (the server's
configuration, never the run's policy), the rule ``halgate signoff`` applies too; the store
refuses anyone else and the page shows its message. A sign-off followed by an override is
shown as stale.
"""

from __future__ import annotations

import streamlit as st
from halgate import HalgateError
from halgate.dashboard import components, loaders, state
from halgate.review import release_managers

db, run_id, version, report = components.open_run_page("Sign-off")
components.banner(report.decision)

counts = loaders.queue(db, run_id, version).counts
st.metric("Open reviews", counts.pending, help="Claims in the review queue without a review.")
if counts.pending:
    st.warning(f"{counts.pending} claim(s) still await a reviewer; signing off now records that.")

st.subheader("Overrides")
history = loaders.overrides(db, run_id, version)
if history:
    st.dataframe(
        [
            {
                "when": o.created_at,
                "reviewer": o.reviewer,
                "claim": o.claim_id,
                "verdict": o.verdict.value if o.verdict else "(kept)",
                "type": o.hallucination_type.value if o.hallucination_type else "",
                "severity": o.severity.value if o.severity else "",
                "comment": o.comment,
            }
            for o in history
        ],
        hide_index=True,
    )
    by = sorted({o.reviewer for o in history})
    st.caption(state.plain(f"{len(history)} override(s) by {', '.join(by)}"))
else:
    st.caption("No overrides yet.")

st.subheader("Sign-offs")
managers = release_managers()
signed = loaders.signoffs(db, run_id)
for s in reversed(signed):
    line = (
        f"{s.decision.value} by {s.reviewer} at {s.created_at} on decision "
        f"{s.decision_status.value}: {s.comment}"
    )
    if s.stale:
        st.warning(state.plain("STALE (overrides were recorded after it) · " + line))
    elif s.decision.value == "APPROVED":
        st.success(state.plain(line))
    else:
        st.error(state.plain(line))
if not signed:
    st.caption("Not signed off yet.")


def _sign(decision: str) -> None:
    """Record the sign-off (a callback, so the list above is fresh on the redraw)."""
    who = state.reviewer()
    comment = str(st.session_state.get("so-comment") or "").strip()
    if not who:
        state.flash("Enter your name in the sidebar (or log in) before signing off.", "error")
        return
    try:
        with state.open_store() as store:
            store.sign_off(run_id, decision, who, comment)
    except HalgateError as exc:
        state.flash(str(exc), "error")
        return
    st.session_state["so-comment"] = ""  # only now: a refused sign-off keeps the comment
    loaders.invalidate()
    state.flash(f"{decision.upper()} recorded by {who}.")


st.caption(
    state.plain("Release managers: " + (", ".join(managers) if managers else "none configured"))
)
with st.form("signoff"):
    st.text_area("Comment", key="so-comment")
    a, r = st.columns(2)
    a.form_submit_button("Approve", type="primary", on_click=_sign, args=("approve",))
    r.form_submit_button("Reject", on_click=_sign, args=("reject",))
