"""How well the judge reads these documents: the self-test of the selected run's suite.

Claims of known truth are generated from the suite's own documents and judged as answers to
its cases (``halgate selftest``); the page shows the targets, each transform's share read
right and the worst readings, so a user can see where not to trust the gate. A report
written with ``halgate selftest --out FILE`` can be opened instead (a suite on another
machine, another judge).
"""

from __future__ import annotations

import streamlit as st
from halgate import HalgateError, SelftestReport, selftest_suite
from halgate.dashboard import components, loaders, state
from halgate.inputs import allowed_suite_folder
from halgate.selftest import share_text
from pydantic import ValidationError

TITLE = "How well the judge reads these documents"


@st.cache_data(show_spinner="Generating claims from the documents and judging them...")
def _run(path: str, content_hash: str, seed: int, per_document: int) -> SelftestReport:
    """The self-test of a suite folder; the content hash keys the cache to the files."""
    del content_hash  # only a cache key: an edited suite is tested again
    return selftest_suite(path, seed=seed, per_document=per_document)


def _suite_folder() -> tuple[str, str] | None:
    """(folder, content hash) of the selected run's suite when it lies under the suite roots
    (the dashboard reads no other folder), else None."""
    run_id = state.selected_run()
    if run_id is None:
        return None
    suite = loaders.judged_report(state.db_path(), run_id).suite
    try:
        return str(allowed_suite_folder(suite.path)), suite.content_hash
    except HalgateError:
        return None


def _report() -> SelftestReport | None:
    suite_path = _suite_folder()
    with st.form("selftest"):
        c1, c2 = st.columns(2)
        seed = c1.number_input("Seed", min_value=0, value=0, step=1)
        per_doc = c2.number_input("Sentences per document", min_value=1, max_value=50, value=6)
        upload = st.file_uploader("...or open a report (halgate selftest --out FILE)", type="json")
        go = st.form_submit_button("Run the self-test", type="primary")
    if upload is not None:
        try:
            return SelftestReport.model_validate_json(upload.getvalue())
        except ValidationError as exc:
            st.error(
                state.plain(f"{upload.name}: not a self-test report: {exc.errors()[0]['msg']}")
            )
            return None
    if suite_path is None:
        st.info(
            "Select a run whose suite folder is under this server's suite roots, or open a "
            "report written "
            "with `halgate selftest SUITE --out FILE`."
        )
        return None
    if not go and "selftest_shown" not in st.session_state:
        st.caption(state.plain(f"Suite: {suite_path[0]}"))
        return None
    st.session_state["selftest_shown"] = True
    try:
        return _run(*suite_path, int(seed), int(per_doc))
    except HalgateError as exc:
        st.error(state.plain(str(exc)))
        return None


def _show(r: SelftestReport) -> None:
    st.caption(
        state.plain(
            f"{r.source}: {r.documents} documents, {r.sentences} sentences, {len(r.items)} "
            f"generated claims, judge {r.judge}, seed {r.seed}, {r.seconds:.1f} s"
        )
    )
    missed = [t for t in r.targets if t.met is False]
    if missed:
        st.warning(f"{len(missed)} of {len(r.targets)} targets missed: trust the gate less there.")
    else:
        st.success("Every target with generated claims is met.")
    st.subheader("Targets")
    st.dataframe(
        [
            {
                "target": t.name,
                "observed": share_text(t.observed),
                "goal": t.goal,
                "claims": t.claims,
                "met": {True: "yes", False: "NO", None: "no claims"}[t.met],
            }
            for t in r.targets
        ],
        hide_index=True,
    )
    st.subheader("Per transform")
    st.dataframe(
        [
            {
                "transform": t.transform,
                "keeps truth": t.preserves_truth,
                "claims": t.claims,
                "read right": share_text(t.share_right),
                "contradicted": t.contradicted,
                "false alarms": t.false_alarms if t.preserves_truth else None,
                "severities": ", ".join(f"{k} {v}" for k, v in sorted(t.severities.items())),
                "what it does": t.description,
            }
            for t in r.transforms
        ],
        hide_index=True,
    )
    st.subheader("Per risk level")
    st.dataframe(
        [
            {
                "risk level": k.risk_level,
                "faithful read right": share_text(k.preserving_right),
                "changes caught": share_text(k.changing_caught),
                "CRITICAL/HIGH": share_text(k.changing_severe),
                "queued": share_text(k.changing_queued),
            }
            for k in r.risks
        ],
        hide_index=True,
    )
    st.subheader("Worst readings")
    for i in r.worst:
        verdict = i.verdict.value if i.verdict else "no claim"
        sev = f" / {i.severity.value}" if i.severity else ""
        with st.expander(state.plain(f"{i.transform} on {i.case_id}: {verdict}{sev}")):
            st.text(
                f"source: {i.source}\nclaim:  {i.claim}\nwhy:    {i.rationale}"
                + (f"\nrule:   {i.rule}" if i.rule else "")
            )


components.page_setup()
st.title(TITLE)
st.caption(
    "Claims of known truth generated from the suite's own documents (copies, rewrites, "
    "polarity flips, changed values, swapped names, dropped conditions), judged as answers "
    "to its cases. See docs/selftest.md."
)
report = _report()
if report is not None:
    _show(report)
