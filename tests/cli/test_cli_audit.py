"""The audit sample from the command line: `halgate review` lists it, `halgate override
RUN audit:CASE:SYSTEM --label hallucinated|faithful` labels it, `halgate show` and
`halgate gate` print the corrected estimate beside the judge's (issue #11 item 3)."""

from __future__ import annotations

from halgate.cli.app import app
from halgate.review import audit_review_ids
from halgate.store import Store
from typer.testing import CliRunner

from ..conftest import AUDIT_GATED, build_report

runner = CliRunner()
RUN = "20260107T000000Z-aaaaaa"
# The tiny suite's truth: only the candidate's answers to q1 and q2 are hallucinated.
TRUTH = {"q1": "hallucinated", "q2": "hallucinated", "q3": "faithful"}


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _saved(store_db, **knobs) -> list[str]:
    report = build_report(run_id=RUN, **knobs)
    with Store(store_db) as store:
        store.save_run(report)
    return audit_review_ids(report)


def _label(store_db, rid: str):
    case_id, system = rid.split(":")[1:]
    label = TRUTH[case_id] if system == "candidate" else "faithful"
    return cli(
        "override", RUN, rid, "--label", label, "-m", "read it", "-r", "ana", "--db", store_db
    )


def test_review_lists_the_audit_sample_with_whole_answers_and_claims(store_db):
    ids = _saved(store_db)
    out = cli("review", RUN, "--db", store_db).output
    assert "[PENDING] audit:q1:candidate  judge: HALLUCINATED" in out
    assert "    answer: The maximum daily dose is 200 mg." in out
    assert "    claim 0 CONTRADICTED CRITICAL: The maximum daily dose is 200 mg." in out
    assert f"audit sample: 0 of {len(ids)} answers labelled, {len(ids)} pending" in out
    assert "Audit sample: 0 of 6 answers labelled" in cli("show", RUN, "--db", store_db).output


def test_override_labels_an_audited_answer_and_show_prints_the_corrected_rate(store_db):
    ids = _saved(store_db)
    r = _label(store_db, "audit:q1:candidate")
    assert r.exit_code == 0, r.output
    assert "audit:q1:candidate label=HALLUCINATED by ana" in r.output
    listed = cli("review", RUN, "--pending", "--db", store_db).output
    assert "audit:q1:candidate" not in listed and "1 of 6 answers labelled" in listed
    shown = cli("show", RUN, "--db", store_db).output
    assert "Review-corrected answers with a hallucination" in shown
    assert "audit: 1 of 3 answers labelled (incomplete)" in shown
    for rid in (i for i in ids if i != "audit:q1:candidate"):
        assert _label(store_db, rid).exit_code == 0
    shown = cli("show", RUN, "--db", store_db).output
    assert "candidate     judge  66.7% -> corrected  66.7%" in shown
    assert "audit: 3 of 3 answers labelled (complete)" in shown
    assert "judge precision 100.0%, recall 100.0%" in shown
    assert "paired over 3 cases" in shown


def test_gate_on_corrected_holds_the_gate_until_the_audit_is_labelled(store_db):
    ids = _saved(store_db, **AUDIT_GATED)
    for claim in ("q1/candidate/0", "q2/candidate/0"):  # the severity queue, done first
        cli("override", RUN, claim, "-m", "confirmed", "-r", "ana", "--db", store_db)
    r = cli("gate", RUN, "--db", store_db)
    assert r.exit_code == 3, r.output
    assert "[NEEDS_REVIEW] gate_on_corrected: audit sample incomplete" in r.output
    assert "Audit sample: 0 of 6 answers labelled" in r.output
    for rid in ids:
        assert _label(store_db, rid).exit_code == 0
    r = cli("gate", RUN, "--db", store_db)
    assert r.exit_code == 0, r.output
    assert "review-corrected (gated measure)" in r.output
    assert "Audit sample: 6 of 6 answers labelled" in r.output


def test_bad_audit_overrides_are_refused_with_exit_4(store_db):
    ids = _saved(store_db)
    r = cli("override", RUN, ids[0], "-m", "x", "-r", "ana", "--db", store_db)
    assert r.exit_code == 4 and "--label hallucinated" in r.output
    r = cli("override", RUN, ids[0], "--label", "perhaps", "-m", "x", "-r", "a", "--db", store_db)
    assert r.exit_code == 4 and "HALLUCINATED, FAITHFUL" in r.output
    r = cli(
        "override", RUN, "audit:q9:x", "--label", "faithful", "-m", "x", "-r", "a", "--db", store_db
    )
    assert r.exit_code == 4 and "not in the audit sample" in r.output
