"""Review queue: the run's queue items for a team of reviewers, labelled blind.

A queue is the random audit sample (answers, labelled HALLUCINATED or FAITHFUL) or the
severe-claims triage (claims, labelled with a verdict). With ``reviews_per_item`` = n in the
policy, each item takes n reviewers' labels; nobody sees the others' labels before recording
their own (``halgate.review.visible_labels``). When the n labels differ the item is disputed
and a reviewer outside its panel, or a release manager, adjudicates it. The rules live in
``halgate.review``; the store keeps the labels (``Store.add_panel_label``, ``adjudicate``).
"""

from __future__ import annotations

from typing import Literal

import streamlit as st
from halgate import HalgateError
from halgate.dashboard import components, loaders, state
from halgate.models import PanelItem, Role
from halgate.review import label_choices, visible_labels

QUEUES: dict[str, Literal["audit", "triage"]] = {
    "Audit sample (random answers)": "audit",
    "Triage (severe claims)": "triage",
}

db, run_id, version, report = components.open_run_page("Review queue")
components.banner(report.decision, compact=True)
per_item = int(report.policy.get("reviews_per_item", 1))
st.caption(
    f"{per_item} reviewer(s) label each item without seeing the others' labels first; "
    "items they disagree on go to adjudication and hold the gate until decided."
)
who = state.reviewer()
refusal = state.review_refusal()
if refusal:
    st.warning(state.plain(refusal))
queue = QUEUES[st.radio("Queue", list(QUEUES), horizontal=True, key="tq-queue")]
mine_only = st.toggle("Only items assigned to me", key="tq-mine")


def _record(item_id: str, adjudicating: bool) -> None:
    """Record this session's label or adjudication (a callback: the page redraws fresh)."""
    key = f"tq-{'adj' if adjudicating else 'lab'}-{item_id}"
    label = st.session_state.get(key + "-label")
    comment = str(st.session_state.get(key + "-comment") or "").strip()
    if refusal or not who:
        state.flash(refusal or "Log in (or enter your name) before labelling.", "error")
        return
    try:
        with state.open_store() as store:
            if adjudicating:
                done = store.adjudicate(
                    run_id, item_id, str(label), comment, who, state.session_roles()
                )
            else:
                done = store.add_panel_label(run_id, item_id, str(label), comment, who)
    except HalgateError as exc:
        state.flash(str(exc), "error")
        return
    loaders.invalidate()
    state.flash(f"{item_id}: {done.state} (recorded by {who}).")


def _form(item: PanelItem, adjudicating: bool) -> None:
    key = f"tq-{'adj' if adjudicating else 'lab'}-{item.item_id}"
    with st.form(key):
        st.radio("Label", label_choices(item.item_id), key=key + "-label", horizontal=True)
        st.text_area("Comment (why)", key=key + "-comment")
        st.form_submit_button(
            "Adjudicate" if adjudicating else "Record my label",
            type="primary",
            on_click=_record,
            args=(item.item_id, adjudicating),
            disabled=refusal is not None,
        )


def _content(item_id: str) -> None:
    """What is being labelled: an audited answer's claims, or one claim (plain text)."""
    for a in report.analyses:
        for c in a.claims:
            whole = item_id == f"audit:{a.case_id}:{a.system}"
            if whole or c.claim_id == item_id:
                st.text(f"{c.claim_id} · judge: {c.verdict.value} · {c.text}")


def _actionable(item: PanelItem) -> bool:
    """This reviewer can act on the item: label it, or adjudicate its dispute."""
    labelled = any(x.reviewer == who for x in item.labels)
    if item.state == "open":
        return not labelled
    return item.state == "disputed" and (
        not labelled or Role.RELEASE_MANAGER in state.session_roles()
    )


def _item(item: PanelItem) -> None:
    """One item: what is labelled, the labels this reviewer may see, and the form."""
    st.markdown(f"**{state.plain(item.item_id)}** · {item.state}")
    assigned = ", ".join(item.assigned) or "nobody yet"
    st.caption(state.plain(f"Assigned: {assigned} · labels: {len(item.labels)} of {per_item}"))
    _content(item.item_id)
    shown = visible_labels(item, who)
    for x in shown:
        st.text(f"{x.reviewer}: {x.label} · {x.comment}")
    if item.labels and not shown:
        st.caption(f"{len(item.labels)} label(s) hidden until you record yours.")
    if item.label_in_force:
        by = f" (adjudicated by {item.adjudicator})" if item.adjudicator else ""
        st.success(state.plain(f"In force: {item.label_in_force}{by}"))
    if _actionable(item):
        _form(item, adjudicating=item.state == "disputed")
    elif item.state == "disputed":
        st.caption("In dispute: a third reviewer or a release manager adjudicates.")


with state.open_store() as store:
    ids = set(store.queue_item_ids(run_id, queue))
    items = [i for i in store.panel(run_id) if i.item_id in ids]
if mine_only:
    items = [i for i in items if who in i.assigned]
disputed = [i for i in items if i.state == "disputed"]
st.metric("In dispute", len(disputed), help="Items whose panel disagrees, awaiting adjudication.")
st.dataframe(
    [
        {
            "item": i.item_id,
            "state": i.state,
            "assigned": ", ".join(i.assigned),
            "labels": f"{len(i.labels)} of {per_item}",
            "in force": i.label_in_force or "",
        }
        for i in items
    ],
    hide_index=True,
    key="tq-table",
)
if items:
    order = sorted(items, key=lambda i: not _actionable(i))  # what this reviewer can do first
    by_id = {i.item_id: i for i in order}
    chosen = st.selectbox("Item", list(by_id), key=f"tq-item-{queue}")
    with st.container(border=True):
        _item(by_id[chosen])
else:
    st.caption("No items in this queue.")
state.show_flash()
