"""The review forms of a claim (confirm or overturn) and of a whole item (an audit label, a
pair preference), with Triage's keyboard shortcuts.

Writes happen in the submit callbacks, before the page redraws, and every refusal is a flash
message drawn beside the form.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from halgate import HalgateError
from halgate.dashboard import loaders, state
from halgate.models import ClaimJudgement, HallucinationType, Severity, Verdict

KEEP = "(keep)"
# Triage's keyboard flow: Streamlit has no page-wide key handler, so each form button carries
# its own shortcut. Alt combinations reach the page while the comment box has the focus too
# (a plain letter would be typed into it); C and R are Streamlit's own.
KEYS = {"confirm": "Alt+Y", "overturn": "Alt+O", "skip": "Alt+N"}
EMPTY_ASKED = "confirm_without_comment_asked"
LAST_REVIEWED = "last_reviewed_claim"  # the explorer keeps it in view though it left the filter
KEY_HELP = (
    f"Keyboard: **{KEYS['confirm']}** confirm the judge (on a pair or an audited answer: record "
    f"the choice) · **{KEYS['overturn']}** overturn with the new verdict, type or severity "
    f"chosen · **{KEYS['skip']}** skip to the next item · **Tab** moves between the comment, "
    "the choices and the buttons; in a list type the first letters and press **Enter**, in "
    "A / B / TIE use the **arrow keys**."
)


def _key(name: str, keys: bool) -> str | None:
    """The shortcut of a form button when the page offers the keyboard flow."""
    return KEYS[name] if keys else None


def _clear_review(key: str) -> None:
    """Empty the review form after its write (in the callback, before the widgets redraw).

    The form is not ``clear_on_submit``: that would also wipe a submit that was refused.
    """
    st.session_state[f"{key}-comment"] = ""
    for suffix in ("verdict", "type", "severity"):
        st.session_state[f"{key}-{suffix}"] = KEEP


def _choice(label: str, options: list[str], key: str) -> str | None:
    value = st.selectbox(label, [KEEP, *options], key=key)
    return None if value == KEEP else value


def review_form(
    db: str,
    run_id: str,
    claim: ClaimJudgement,
    key: str,
    on_skip: Callable[[], None] | None = None,
    keys: bool = False,
) -> None:
    """Confirm or overturn a claim (new verdict/type/severity) with a comment, or skip it;
    with ``keys`` the buttons answer to the ``KEYS`` shortcuts too.

    Writes happen in the submit callbacks, which Streamlit runs before the page redraws, so a
    banner drawn after this form already shows the decision with the new override. The form
    is cleared only after a recorded review: a refused one keeps what the reviewer typed.
    """
    # Not Ctrl+Enter in the comment: it would press the first button, Confirm, even when the
    # reviewer has just chosen a new verdict to overturn with (the shortcuts say which).
    with st.form(key=f"{key}-form", enter_to_submit=False):
        comment = f"{key}-comment"
        st.text_area("Comment (why)", key=comment, placeholder="What in the source decides it?")
        c1, c2, c3 = st.columns(3)
        with c1:
            _choice("New verdict", [v.value for v in Verdict], f"{key}-verdict")
        with c2:
            _choice("New type", [t.value for t in HallucinationType], f"{key}-type")
        with c3:
            _choice("New severity", [s.value for s in Severity], f"{key}-severity")
        b1, b2, b3 = st.columns(3)
        b1.form_submit_button(
            "Confirm judge",
            on_click=_submit,
            args=(db, run_id, claim.claim_id, key, False, keys),
            type="primary",
            shortcut=_key("confirm", keys),
        )
        b2.form_submit_button(
            "Overturn",
            on_click=_submit,
            args=(db, run_id, claim.claim_id, key, True, keys),
            shortcut=_key("overturn", keys),
        )
        if on_skip is not None:
            b3.form_submit_button("Skip", on_click=on_skip, shortcut=_key("skip", keys))


def _confirm_unexplained(claim_id: str) -> bool:
    """True on the second empty-comment confirm of a claim; the first asks (else Alt+Y twice
    confirms the next claim, never read, with a comment nobody wrote)."""
    if st.session_state.get(EMPTY_ASKED) == claim_id:
        return True
    st.session_state[EMPTY_ASKED] = claim_id
    state.flash(
        f"No comment for {claim_id}: press Confirm judge ({KEYS['confirm']}) again to confirm "
        "without one, or type why first.",
        "warning",
    )
    return False


def _reviewer_allowed() -> str | None:
    """The reviewer's identity, or None after a flash saying why they may not review here."""
    reviewer = state.reviewer()
    if not reviewer:
        state.flash("Enter your name in the sidebar (or log in) before reviewing.", "error")
        return None
    if refusal := state.review_refusal():
        state.flash(refusal, "error")
        return None
    return reviewer


def _submit(
    db: str, run_id: str, claim_id: str, key: str, overturn: bool, ask_empty: bool = False
) -> None:
    """Record the override the form describes (a callback: runs before the next render).

    ``ask_empty`` (Triage's keyboard flow): a confirm without a comment asks once first.
    """
    reviewer = _reviewer_allowed()
    if not reviewer:
        return
    picked = {
        field: None
        if st.session_state.get(f"{key}-{suffix}") in (None, KEEP)
        else st.session_state[f"{key}-{suffix}"]
        for field, suffix in (
            ("verdict", "verdict"),
            ("hallucination_type", "type"),
            ("severity", "severity"),
        )
    }
    comment = str(st.session_state.get(f"{key}-comment") or "").strip()
    if overturn and not any(picked.values()):
        state.flash("To overturn, choose a new verdict, type or severity.", "error")
        return
    if not overturn:
        if not comment and ask_empty and not _confirm_unexplained(claim_id):
            return
        picked = dict.fromkeys(picked)
        comment = comment or "confirmed the judge's verdict"
    if not comment:
        state.flash("Say why in the comment: an overturn needs a reason.", "error")
        return
    try:
        with state.open_store() as store:
            store.add_override(run_id, claim_id, comment=comment, reviewer=reviewer, **picked)
    except HalgateError as exc:
        state.flash(str(exc), "error")
        return
    st.session_state.pop(EMPTY_ASKED, None)
    st.session_state[LAST_REVIEWED] = claim_id
    _clear_review(key)
    loaders.invalidate()
    # Derive the reviewed run now, before the rerun lists runs: listing would otherwise
    # re-read and rescore the whole run just for its summary.
    loaders.reviewed(db, run_id, loaders.run_version(db, run_id))
    what = "overturned" if overturn else "confirmed"
    state.flash(f"{claim_id} {what} by {reviewer}.")


def record_decision(
    db: str, run_id: str, review_id: str, key: str, field: str, missing: str, said: str
) -> None:
    """Record the whole-item decision a form describes (an audit label, a pair preference)
    in the override `field` (a callback: runs before the redraw). `missing` is the message
    when nothing was chosen; `said` the confirmation, with {review_id}, {choice}, {lower}
    (the choice in lowercase) and {reviewer}."""
    reviewer = _reviewer_allowed()
    if not reviewer:
        return
    choice = st.session_state.get(f"{key}-{field}")
    comment = str(st.session_state.get(f"{key}-comment") or "").strip()
    if choice is None:
        state.flash(missing, "error")
        return
    if not comment:
        state.flash("Say why in the comment: a decision needs a reason.", "error")
        return
    try:
        with state.open_store() as store:
            store.add_override(
                run_id, review_id, comment=comment, reviewer=reviewer, **{field: str(choice)}
            )
    except HalgateError as exc:
        state.flash(str(exc), "error")
        return
    st.session_state[f"{key}-comment"] = ""
    st.session_state[f"{key}-{field}"] = None
    loaders.invalidate()
    loaders.reviewed(db, run_id, loaders.run_version(db, run_id))
    text = str(choice)
    state.flash(
        said.format(review_id=review_id, choice=text, lower=text.lower(), reviewer=reviewer)
    )
