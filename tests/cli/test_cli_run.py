"""`halgate run` end to end: exit codes, schema-valid reports, the three offline modes."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.registry import create_judge
from halgate.models import Mode
from halgate.reports.schemas import load_schema
from halgate.reports.summary import summary_text
from halgate.run.engine import run_suite

from ..conftest import EXAMPLE_SUITE


def halgate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "halgate.cli", *args], capture_output=True, text=True
    )


def test_example_suite_fails_the_gate_and_writes_a_valid_report(tmp_path):
    out = tmp_path / "r.json"
    proc = halgate("run", str(EXAMPLE_SUITE), "--out", str(out), "-q", "--no-save")
    assert proc.returncode in (1, 3), proc.stderr
    assert "Gate: FAILED" in proc.stdout or "Gate: NEEDS_REVIEW" in proc.stdout
    assert "block_on_severity" in proc.stdout and "med-" in proc.stdout  # names severe claims
    data = json.loads(out.read_text())
    jsonschema.validate(data, load_schema("run_report"))
    assert data["comparison"]["regression_detected"] is True


def test_usage_error_exits_4_without_traceback():
    proc = halgate("run", str(EXAMPLE_SUITE), "--mode", "nonsense")
    assert proc.returncode == 4 and "Traceback" not in proc.stderr


def test_unknown_system_is_a_clear_error(tiny_suite):
    proc = halgate("run", str(tiny_suite), "--candidate", "v9", "-q", "--no-save")
    assert proc.returncode == 4
    assert "system 'v9' has no answers/v9.jsonl" in proc.stderr


def test_tiny_suite_compare_catches_dose_and_pregnancy_errors(tiny_suite):
    report = run_suite(load_suite(tiny_suite), create_judge("offline"), Policy())
    cand = {a.case_id: a for a in report.analyses if a.system == "candidate"}
    assert cand["q1"].counts.CONTRADICTED == 1  # 200 mg vs 100 mg
    assert cand["q2"].hallucination_rate == 1.0  # "can be used" vs "must not be used"
    assert cand["q3"].hallucination_rate == 0.0
    assert report.decision.status.value == "FAILED"
    assert report.rates["baseline"].micro_rate == 0.0


def test_consistency_mode_scores_against_reference_and_flags_empty(tiny_suite):
    path = tiny_suite / "answers" / "candidate.jsonl"
    lines = path.read_text().splitlines()
    lines[2] = json.dumps({"case_id": "q3", "answer": "   "})
    path.write_text("\n".join(lines) + "\n")
    report = run_suite(
        load_suite(tiny_suite), create_judge("offline"), Policy(), mode=Mode.CONSISTENCY
    )
    by_case = {a.case_id: a for a in report.analyses}
    assert report.systems == ["candidate"]
    assert by_case["q1"].consistency_score == 0.0 and by_case["q1"].hallucination_flag
    assert by_case["q3"].error_message == "empty output" and by_case["q3"].claims == []
    assert "Mean consistency score" in summary_text(report)


def test_gate_mode_judges_one_system_against_documents(tiny_suite):
    report = run_suite(
        load_suite(tiny_suite),
        create_judge("offline"),
        Policy(decide_on="estimate"),
        mode=Mode.GATE,
        system="baseline",
    )
    assert report.comparison is None and report.systems == ["baseline"]
    assert report.rates["baseline"].micro_rate == 0.0
    assert report.decision.status.value == "PASSED"


def test_runs_are_deterministic(tiny_suite):
    suite = load_suite(tiny_suite)
    a = run_suite(suite, create_judge("offline"), Policy())
    b = run_suite(suite, create_judge("offline"), Policy())
    assert [x.model_dump() for x in a.analyses] == [x.model_dump() for x in b.analyses]
    assert a.comparison == b.comparison


def test_default_judge_is_offline_unless_an_endpoint_is_configured(tmp_path, monkeypatch):
    from halgate.judges.llm.config import default_judge_name

    monkeypatch.chdir(tmp_path)
    assert default_judge_name({}) == "offline"
    assert default_judge_name({"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}) == "llm"
    (tmp_path / "halgate.toml").write_text('[llm]\nbase_url = "http://127.0.0.1:9/v1"\n')
    assert default_judge_name({}) == "llm"


def test_gate_mode_summary_speaks_gate_vocabulary(tiny_suite):
    report = run_suite(
        load_suite(tiny_suite),
        create_judge("offline"),
        Policy(),
        mode=Mode.GATE,
        system="candidate",
    )
    text = summary_text(report)
    assert "Claims against the references: VERIFIED 1, FABRICATED 2, UNVERIFIABLE 0" in text


def _zip_folder(folder, target, top: str | None = None):
    """``zip -r``: the folder's files, under one top-level folder when ``top`` is given."""
    import zipfile

    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                rel = f.relative_to(folder).as_posix()
                z.write(f, f"{top}/{rel}" if top else rel)
    return target


def test_run_takes_the_zipped_suite_the_dashboard_takes(tiny_suite, tmp_path):
    folder = halgate("run", str(tiny_suite), "-q", "--no-save", "--out", str(tmp_path / "a"))
    zipped = _zip_folder(tiny_suite, tmp_path / "suite.zip", top="tiny")
    proc = halgate("run", str(zipped), "-q", "--no-save", "--out", str(tmp_path / "b"))
    assert proc.returncode == folder.returncode, proc.stderr
    a, b = (json.loads((tmp_path / n).read_text()) for n in "ab")
    assert b["suite"]["content_hash"] == a["suite"]["content_hash"]
    assert b["suite"]["path"] == str(zipped.resolve())  # never the scratch folder
    assert [x["claims"] for x in b["analyses"]] == [x["claims"] for x in a["analyses"]]


def test_a_bad_zipped_suite_names_the_zip_and_the_file_never_a_scratch_folder(tiny_suite, tmp_path):
    flat = tmp_path / "flat"
    flat.mkdir()
    for f in tiny_suite.rglob("*"):
        if f.is_file():
            (flat / f.relative_to(tiny_suite)).parent.mkdir(parents=True, exist_ok=True)
            (flat / f.relative_to(tiny_suite)).write_bytes(f.read_bytes())
    (flat / "cases.jsonl").write_text('{"case_id": \n', encoding="utf-8")
    zipped = _zip_folder(flat, tmp_path / "bad.zip")
    proc = halgate("run", str(zipped), "-q", "--no-save")
    assert proc.returncode == 4, proc.stderr
    assert f"{zipped}: cases.jsonl:1" in proc.stderr and "halgate-suite-" not in proc.stderr
    evil = tmp_path / "evil.zip"
    import zipfile

    with zipfile.ZipFile(evil, "w") as z:
        z.writestr("../escape.txt", "x")
    proc = halgate("run", str(evil), "-q", "--no-save")
    assert proc.returncode == 4 and "path leaves the suite folder" in proc.stderr
    assert not (tmp_path / "escape.txt").exists()


def test_a_missing_db_folder_is_refused_before_judging(tiny_suite, tmp_path):
    db = tmp_path / "no-such-folder" / "h.db"
    dry = halgate("run", str(tiny_suite), "--db", str(db), "--dry-run")
    assert dry.returncode == 4, dry.stdout  # checked before anything is judged
    proc = halgate("run", str(tiny_suite), "-q", "--db", str(db), "--out", str(tmp_path / "r"))
    assert proc.returncode == 4
    assert f"folder {db.parent} does not exist" in proc.stderr and "mkdir -p" in proc.stderr
    assert not (tmp_path / "r").exists() and not db.parent.exists()
