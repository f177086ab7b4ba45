"""Sign-off: the release manager's final word, recorded against the decision it was made on.

Only release managers may sign off: ``state.sign_off_managers()`` (the server's
configuration, the store's roles table and the login's groups claim, never the run's
policy), the rule ``halgate signoff`` applies too; the store
refuses anyone else and the page shows its message. Approving a decision other than PASSED
needs the acknowledgement box ticked (the store refuses it otherwise, as ``halgate signoff``
without ``--override-gate``). Each sign-off is marked in force (the newest, not stale),
superseded, or stale (an override followed it). Without a login the form is off unless the
server allows unauthenticated sign-off (``halgate.review.check_sign_off_identity``).
"""

from __future__ import annotations

import streamlit as st
from halgate import HalgateError
from halgate.dashboard import components, loaders, state

OVERRIDE_GATE = "so-override-gate"

db, run_id, version, report = components.open_run_page("Sign-off", flash=False)
components.banner(report.decision, compact=True)  # the form is what this page is for

counts = loaders.queue(db, run_id, version).counts
st.metric(
    "Open reviews", counts.pending, help="Claims and pairs in the review queue without a review."
)
if counts.pending:
    st.warning(f"{counts.pending} item(s) still await a reviewer; signing off now records that.")

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
                "preference": o.preference.value if o.preference else "",
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
managers = state.sign_off_managers()
signed = loaders.signoffs(db, run_id)
if signed and not any(s.in_force for s in signed):
    st.warning("No sign-off is in force: overrides were recorded after the newest one.")
for s in reversed(signed):
    line = (
        f"{s.decision.value} by {s.reviewer} at {s.created_at} on decision "
        f"{s.decision_status.value}{' (gate overridden)' if s.override_gate else ''}: {s.comment}"
    )
    if s.stale:
        st.warning(state.plain("STALE (overrides were recorded after it) · " + line))
    elif not s.in_force:
        st.info(state.plain("SUPERSEDED · " + line))
    elif s.decision.value == "APPROVED":
        st.success(state.plain("IN FORCE · " + line))
    else:
        st.error(state.plain("IN FORCE · " + line))
if not signed:
    st.caption("Not signed off yet.")


def _sign(decision: str) -> None:
    """Record the sign-off (a callback, so the list above is fresh on the redraw)."""
    who = state.reviewer()
    comment = str(st.session_state.get("so-comment") or "").strip()
    refusal = state.sign_off_refusal()
    if refusal:
        state.flash(refusal, "error")
        return
    if not who:
        state.flash("Enter your name in the sidebar (or log in) before signing off.", "error")
        return
    acknowledged = bool(st.session_state.get(OVERRIDE_GATE))
    try:
        with state.open_store() as store:
            store.sign_off(
                run_id,
                decision,
                who,
                comment,
                release_managers=state.sign_off_managers(),
                override_gate=acknowledged,
            )
    except HalgateError as exc:
        state.flash(str(exc), "error")
        return
    st.session_state["so-comment"] = ""  # only now: a refused sign-off keeps the comment
    st.session_state[OVERRIDE_GATE] = False
    loaders.invalidate()
    state.flash(f"{decision.upper()} recorded by {who}.")


st.caption(
    state.plain("Release managers: " + (", ".join(managers) if managers else "none configured"))
    + (" · and members of the login's release-manager groups" if state.roles_from_login() else "")
)
refused = state.sign_off_refusal()
if refused:
    st.warning(state.plain(refused))
with st.form("signoff"):
    st.text_area("Comment", key="so-comment")
    if report.decision.status.value != "PASSED":
        st.checkbox(
            f"I approve although the gate's decision is {report.decision.status.value}, not "
            "PASSED (override the gate; recorded with the sign-off, say why in the comment)",
            key=OVERRIDE_GATE,
        )
    a, r = st.columns(2)
    off = refused is not None
    a.form_submit_button("Approve", type="primary", on_click=_sign, args=("approve",), disabled=off)
    r.form_submit_button("Reject", on_click=_sign, args=("reject",), disabled=off)
state.show_flash()  # beside the buttons that caused it, not at the top of the page
