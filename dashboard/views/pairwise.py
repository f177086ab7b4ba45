"""Pairwise: output A beside output B, the preference, and both position-swapped verdicts.

A pair whose two verdicts (A first, then B first) disagree is flagged for human review. The
page reads the report's ``pairwise`` records by field name, so it works with any record
shape that carries these fields.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from halgate.dashboard import components, loaders, state
from halgate.highlight import highlight_answer

components.page_setup()
st.title("Pairwise")
picked = components.require_run()
if picked is None:
    st.stop()
db, run_id = picked
report = loaders.effective_report(db, run_id, loaders.run_version(db, run_id))
pairs: list[Any] = list(getattr(report, "pairwise", None) or [])
if not pairs:
    st.info("This run has no pairwise results (run a suite in pairwise mode to compare A and B).")
    st.stop()


def get(obj: Any, *names: str, default: Any = None) -> Any:
    """The first present field among ``names`` (records may be models or dicts)."""
    for name in names:
        value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)
        if value is not None:
            return value
    return default


def text(value: Any) -> str:
    """A field as display text (enums by value)."""
    return str(getattr(value, "value", value))


flagged = [p for p in pairs if get(p, "disagreement", "needs_review", default=False)]
st.metric("Position-swap disagreements", f"{len(flagged)} of {len(pairs)}")
only = st.toggle("Only disagreements", value=False)
shown = flagged if only else pairs
if not shown:
    st.success("The two orderings agree on every pair.")
    st.stop()
case_ids = [text(get(p, "case_id", default=f"#{i}")) for i, p in enumerate(shown)]
index = st.selectbox("Case", range(len(shown)), format_func=lambda i: case_ids[i])
pair = shown[index]
case_id = case_ids[index]
systems = report.systems + ["A", "B"]
a_name, b_name = (
    text(get(pair, "system_a", default=systems[0])),
    text(get(pair, "system_b", default=systems[1])),
)

if get(pair, "disagreement", "needs_review", default=False):
    st.warning("The two position-swapped verdicts disagree: this pair needs a human.")
c1, c2, c3 = st.columns(3)
c1.metric("Preference", text(get(pair, "preference", "winner", default="—")))
confidence = get(pair, "confidence")
c2.metric("Confidence", "—" if confidence is None else text(confidence))
c3.metric("Tie-breaker", text(get(pair, "tie_breaker", default="—")))
v1, v2 = st.columns(2)
v1.metric("Verdict with A shown first", text(get(pair, "verdict_ab", "first", default="—")))
v2.metric("Verdict with B shown first", text(get(pair, "verdict_ba", "second", default="—")))

left, right = st.columns(2)
for col, name, label in ((left, a_name, "A"), (right, b_name, "B")):
    with col:
        st.markdown(f"**{label}** · {state.plain(name)}")
        answer = get(pair, f"answer_{label.lower()}") or report.answers.get(name, {}).get(
            case_id, ""
        )
        st.html(highlight_answer(str(answer), []))
st.caption("Justification")
st.text(text(get(pair, "justification", "rationale", default="")))
