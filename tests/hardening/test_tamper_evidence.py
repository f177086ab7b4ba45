"""#32 guarantee 4 (tamper-evidence that is checked): a run edited with sqlite3 after a
release manager approved it is ALTERED on every read: show, gate (exit 4), export."""

from __future__ import annotations

import json
import sqlite3

import halgate.cli  # noqa: F401  (registers the commands)
import pytest
from halgate.cli.app import app
from halgate.errors import RunAlteredError
from halgate.store import Store
from typer.testing import CliRunner

from ..conftest import build_report


@pytest.fixture
def approved_failed_run(tmp_path):
    """A FAILED run approved (overriding the gate) by release manager rita."""
    db = tmp_path / "h.db"
    with Store(db) as store:
        run_id = store.save_run(build_report())
        assert store.effective_report(run_id).decision.status.value == "FAILED"
        store.sign_off(run_id, "approve", "rita", "ship it", ["rita"], override_gate=True)
    return db, run_id


def _all_supported(db, run_id, also_hash: bool = False) -> None:
    """The probe: rewrite runs.report and claims with sqlite3, every claim SUPPORTED."""
    conn = sqlite3.connect(db)
    (text,) = conn.execute("SELECT report FROM runs WHERE run_id = ?", [run_id]).fetchone()
    report = json.loads(text)
    for analysis in report["analyses"]:
        for c in analysis["claims"]:
            c.update(verdict="SUPPORTED", hallucination_type=None, severity=None)
    new = json.dumps(report)
    conn.execute("UPDATE runs SET report = ? WHERE run_id = ?", [new, run_id])
    conn.execute(
        "UPDATE claims SET verdict = 'SUPPORTED', severity = NULL WHERE run_id = ?", [run_id]
    )
    if also_hash:  # the careful forger fixes the runs table's hash too
        from halgate.models import RunReport
        from halgate.review.effective import report_hash

        digest = report_hash(RunReport.model_validate_json(new))
        conn.execute("UPDATE runs SET report_hash = ? WHERE run_id = ?", [digest, run_id])
    conn.commit()
    conn.close()


def _cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_an_untouched_run_reads_as_before(approved_failed_run):
    db, run_id = approved_failed_run
    result = _cli("gate", run_id, "--db", db)
    assert result.exit_code == 1  # FAILED, the approval does not change the gate's code
    assert "ALTERED" not in _cli("show", run_id, "--db", db).output


@pytest.mark.parametrize("also_hash", [False, True], ids=["report", "report-and-hash"])
def test_a_rewritten_report_is_altered_in_gate_show_and_export(approved_failed_run, also_hash):
    db, run_id = approved_failed_run
    _all_supported(db, run_id, also_hash)
    gate = _cli("gate", run_id, "--db", db)
    assert gate.exit_code == 4, gate.output  # was 0: the forged run passed
    assert f"run {run_id} is ALTERED" in gate.output
    assert "sign-off(s) #1 (APPROVED by rita) are ALTERED too and void" in gate.output
    show = _cli("show", run_id, "--db", db)
    assert show.exit_code == 4 and "ALTERED" in show.output
    assert "in force" not in show.output
    for fmt in ("json", "markdown", "html", "junit", "csv"):
        exported = _cli("export", run_id, "--db", db, "-f", fmt)
        assert exported.exit_code == 4 and "ALTERED" in exported.output, fmt


def test_the_store_refuses_every_read_of_an_altered_run(approved_failed_run):
    db, run_id = approved_failed_run
    _all_supported(db, run_id, also_hash=True)
    with Store(db) as store:
        for read in (store.load_report, store.effective_report, store.reviewed_run):
            with pytest.raises(RunAlteredError, match="sign-off #1 \\(APPROVED by rita\\)"):
                read(run_id)


def test_a_sign_off_records_the_report_hash_it_approved(approved_failed_run):
    from halgate.review.effective import report_hash

    db, run_id = approved_failed_run
    with Store(db) as store:
        (signed,) = store.signoffs(run_id)
        assert signed.report_hash == report_hash(store.load_report(run_id))
        assert signed.in_force
