"""#32 Medium and Low probes: redaction of encoded keys, atomic exports, run order by store
time, reports with no cases, Markdown control characters, case-insensitive risk levels, the
LLM settings read by the checked reader, a bounded --port, and the dashboard's error line."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

import halgate.cli  # noqa: F401  (registers the commands)
import pytest
from halgate.cli.app import app
from halgate.errors import ReportError, UsageError
from halgate.judges.llm.config import read_config, redact
from halgate.models import Case
from halgate.reports import parse_report
from halgate.store import Store
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from ..conftest import REPO, build_report

KEY = "sk-proj-abcdef0123456789/ghijKLMN"


@pytest.mark.parametrize(
    "echo",
    [
        KEY,
        json.dumps(KEY).replace("/", "\\/"),  # a JSON layer's / escape
        "".join(f"\\u{ord(c):04x}" for c in KEY),  # every character \u-escaped
        "".join(f"\\u{ord(c):04X}" if i % 2 else c for i, c in enumerate(KEY)),  # mixed
        KEY.replace("/", "%2F"),  # a URL's percent escape
    ],
)
def test_redaction_removes_every_encoding_of_the_whole_key(echo):
    text = redact(f"error: invalid key {echo} given", KEY)
    assert text == "error: invalid key *** given" or text == 'error: invalid key "***" given'


@pytest.fixture
def stored(tmp_path):
    db = tmp_path / "h.db"
    with Store(db) as store:
        run_id = store.save_run(build_report())
    return db, run_id


def test_an_export_never_writes_through_a_planted_link(stored, tmp_path):
    db, run_id = stored
    target = tmp_path / "victim.txt"
    target.write_text("keep me")
    link = tmp_path / "out.md"
    link.symlink_to(target)
    result = CliRunner().invoke(
        app, ["export", run_id, "--db", str(db), "-f", "markdown", "-o", str(link)]
    )
    assert result.exit_code == 0, result.output
    assert target.read_text() == "keep me"
    assert not link.is_symlink() and "halgate gate" in link.read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_failed_export_leaves_the_good_file_whole(tmp_path):
    """A write that fails part-way (here the file-size limit of the process, a real EFBIG
    from the kernel, as a full disk gives ENOSPC) keeps the file it was replacing."""
    db = tmp_path / "h.db"
    long = ["The maximum daily dose is 100 mg. " * 1500] * 3  # an HTML page of ~150 KB
    with Store(db) as store:
        run_id = store.save_run(build_report(candidate_answers=long))
    good = tmp_path / "report.html"
    assert (
        CliRunner()
        .invoke(app, ["export", run_id, "--db", str(db), "-f", "html", "-o", str(good)])
        .exit_code
        == 0
    )
    before = good.read_bytes()
    code = textwrap.dedent(
        f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))  # above the -shm file
        from halgate.cli import main
        sys.argv = ["halgate", "export", {run_id!r}, "--db", {str(db)!r}, "-f", "html",
                    "-o", {str(good)!r}]
        main()
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 4, done.stderr
    assert "cannot write" in done.stderr
    assert good.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_runs_are_listed_by_when_they_were_stored_not_by_their_own_date(stored):
    db, first = stored
    forged = build_report(run_id="20990101T000000Z-ffffff")
    forged = forged.model_copy(update={"created_at": "2099-01-01T00:00:00+00:00"})
    with Store(db) as store:
        store.save_run(forged)
        later = store.save_run(build_report(run_id="20260105T000000Z-cccccc"))
        rows = store.list_runs()
    assert [r.run_id for r in rows] == [later, forged.run_id, first]
    assert rows[1].created_at == "2099-01-01T00:00:00+00:00"  # kept, as its own field
    assert rows[0].saved_at > rows[1].saved_at > rows[2].saved_at


def test_a_report_with_analyses_but_no_cases_is_refused():
    data = json.loads(build_report().model_dump_json())
    data["cases"] = []
    with pytest.raises(ReportError, match="analyses/0/case_id: case 'q1' is not in cases"):
        parse_report(json.dumps(data), "upload.json")


def test_the_markdown_export_carries_no_control_characters(tmp_path):
    answers = ["Take 100 mg\x00 daily.\x1b[31m red\x07"] * 3
    db = tmp_path / "h.db"
    with Store(db) as store:
        run_id = store.save_run(build_report(candidate_answers=answers))
    result = CliRunner().invoke(app, ["export", run_id, "--db", str(db), "-f", "markdown"])
    assert result.exit_code == 0
    assert "Take 100 mg daily. red" in result.output
    assert not any(ch in result.output for ch in "\x00\x1b\x07")


def test_a_risk_level_is_read_in_any_case():
    assert Case(case_id="c", question="q", risk_level="critical").risk_level == "CRITICAL"


@pytest.mark.parametrize(
    "content",
    [b"llm = 5\n", "[llm]\nmodel = 'caf\xe9'\n".encode("latin-1")],
    ids=["not-a-table", "latin-1"],
)
def test_llm_settings_are_read_by_the_checked_reader(tmp_path, content):
    path = tmp_path / "halgate.toml"
    path.write_bytes(content)
    with pytest.raises(UsageError, match=str(path)):
        read_config([path])


def test_a_port_out_of_range_is_a_usage_error():
    done = subprocess.run(
        [sys.executable, "-m", "halgate.cli", "dashboard", "--port", "99999"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 4 and "Traceback" not in done.stderr


def _dashboard(db, monkeypatch) -> AppTest:
    monkeypatch.setenv("HALGATE_DB", str(db))
    at = AppTest.from_file(str(REPO / "dashboard" / "app.py"), default_timeout=60)
    at.run()
    return at


def test_the_dashboard_on_a_file_that_is_not_a_database_names_the_problem(tmp_path, monkeypatch):
    bogus = tmp_path / "notes.db"
    bogus.write_text("these are my notes, not a database\n" * 100)
    at = _dashboard(bogus, monkeypatch)
    assert not at.exception
    assert any("cannot open the review database" in e.value.replace("\\", "") for e in at.error)


def test_the_dashboard_marks_an_altered_run(stored, monkeypatch):
    db, run_id = stored
    conn = sqlite3.connect(db)
    conn.execute("UPDATE runs SET report = replace(report, 'CONTRADICTED', 'SUPPORTED')")
    conn.commit()
    conn.close()
    at = _dashboard(db, monkeypatch)
    at.switch_page("views/overview.py").run()
    assert not at.exception
    assert any(f"run {run_id} is ALTERED" in e.value.replace("\\", "") for e in at.error)


def test_reads_survive_a_disk_that_cannot_take_a_byte(stored):
    """The probe's full disk: WAL mode could not create its side files, so every read
    command failed. Here the process may not grow any file (RLIMIT_FSIZE 0: the kernel's
    EFBIG, as a full disk gives ENOSPC); reads open the file read-only, a write says why."""
    db, run_id = stored
    code = textwrap.dedent(
        """
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        from halgate.cli import main
        sys.argv = ["halgate", *sys.argv[1:]]
        main()
        """
    )

    def halgate(*args: str) -> subprocess.CompletedProcess:
        cmd = [sys.executable, "-c", code, *args, "--db", str(db)]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120)

    assert not (db.parent / "h.db-shm").exists()  # closed cleanly: no side files left
    listed = halgate("runs", "--json")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)[0]["run_id"] == run_id
    assert halgate("show", run_id).returncode == 0
    assert halgate("gate", run_id).returncode == 1  # the fixture run FAILS: decided, not 4
    assert halgate("export", run_id, "-f", "markdown").returncode == 0
    wrote = halgate(
        "override", run_id, "q1/candidate/0", "--verdict", "SUPPORTED", "-m", "x", "-r", "ana"
    )
    assert wrote.returncode == 4 and "cannot write" in wrote.stderr, wrote.stderr
    assert "Traceback" not in wrote.stderr


def test_a_review_on_a_database_locked_past_the_busy_timeout_is_a_store_error(stored):
    """The Triage probe ended in an exception box: the raw sqlite3 error escaped the store."""
    from halgate.errors import StoreError

    db, run_id = stored
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        with Store(db, timeout=0.2) as store:
            with pytest.raises(StoreError, match="cannot write: database is locked"):
                store.add_override(
                    run_id, "q1/candidate/0", verdict="SUPPORTED", comment="x", reviewer="ana"
                )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
