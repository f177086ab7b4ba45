"""#32 guarantees 2 and 4, what makes the review record trustworthy.

Identity: a login's identity is its subject or a verified email, never a display name;
without a login, overrides and audit labels move the gate only where the switch that allows
unauthenticated sign-off allows them, and the dashboard says so.

Tamper-evidence that is checked: a run edited with sqlite3 after a release manager approved
it is ALTERED on every read: show, gate (exit 4), export.
"""

from __future__ import annotations

import json
import sqlite3

import halgate.cli  # noqa: F401  (registers the commands)
import pytest
from halgate.cli.app import app
from halgate.errors import PermissionDeniedError, RunAlteredError
from halgate.review import check_review_identity, login_identity
from halgate.store import Store
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from ..conftest import REPO, build_report

APP = REPO / "dashboard" / "app.py"


@pytest.mark.parametrize(
    ("user", "identity"),
    [
        ({"is_logged_in": True, "name": "rita"}, None),  # the probe: a display name only
        ({"is_logged_in": True, "email": "rita", "email_verified": False}, None),  # unverified
        ({"is_logged_in": True, "email": "rita", "sub": "u-93"}, "u-93"),  # unverified: subject
        ({"is_logged_in": True, "email": "rita@x.org", "email_verified": True}, "rita@x.org"),
        ({"is_logged_in": True, "sub": "u-93", "name": "rita"}, "u-93"),
        ({"is_logged_in": False, "email": "rita@x.org", "email_verified": True}, None),
    ],
)
def test_a_login_identity_is_a_verified_email_or_the_subject(user, identity):
    assert login_identity(user) == identity


def test_reviews_without_a_login_follow_the_sign_off_switch():
    check_review_identity(login_configured=False, logged_in=False, allow_unauthenticated=True)
    check_review_identity(login_configured=True, logged_in=True, allow_unauthenticated=False)
    with pytest.raises(PermissionDeniedError, match="reviews are off"):
        check_review_identity(login_configured=False, logged_in=False, allow_unauthenticated=False)
    with pytest.raises(PermissionDeniedError, match="log in first"):
        check_review_identity(login_configured=True, logged_in=False, allow_unauthenticated=True)


@pytest.fixture
def anonymous_app(dashboard_db, monkeypatch) -> AppTest:
    """The dashboard with no login and the unauthenticated switch off (the default)."""
    db, _ = dashboard_db
    monkeypatch.setenv("HALGATE_DB", str(db))
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    monkeypatch.delenv("HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF", raising=False)
    monkeypatch.chdir(db.parent)  # no halgate.toml here
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def test_an_anonymous_overturn_cannot_move_the_gate(anonymous_app, dashboard_db):
    """The probe: a typed name overturned a CRITICAL claim and the gate went FAILED → PASSED."""
    db, run_id = dashboard_db
    at = anonymous_app
    captions = " ".join(c.value for c in at.sidebar.caption)
    assert "Sign-off from the dashboard is off without a login." in captions
    assert "So are reviews: overrides and audit labels would move the gate" in captions
    at.sidebar.text_input(key="reviewer_name").input("rita").run()
    at.switch_page("views/triage.py").run()
    at.text_area[0].input("not a problem")
    key = next(s.key for s in at.selectbox if s.key and s.key.endswith("-verdict"))
    at.selectbox(key=key).set_value("SUPPORTED")
    next(b for b in at.button if b.label == "Overturn").click().run()
    assert not at.exception
    assert any("reviews are off" in e.value.replace("\\", "") for e in at.error)
    with Store(db) as store:
        assert store.override_history(run_id) == []
        assert store.effective_report(run_id).decision.status.value == "FAILED"


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
        judged = store.load_report(run_id).model_copy(update={"audit_seed": None})  # the store's
        assert signed.report_hash == report_hash(judged)
        assert signed.in_force
