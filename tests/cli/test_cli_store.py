"""The review commands end to end: runs, show, review, override, gate, signoff, export, audit."""

from __future__ import annotations

import json
import subprocess
import sys

import junitparser
import pytest
from halgate.cli.app import app
from halgate.store import Store
from typer.main import get_command
from typer.testing import CliRunner

from ..conftest import EXAMPLE_SUITE, build_report, disagreeing_pair

runner = CliRunner()
RUN = "20260101T000000Z-aaaaaa"


def cli(*args: str, env: dict | None = None):
    return runner.invoke(app, [str(a) for a in args], env=env)


@pytest.fixture
def db(store_db):
    """A database holding one FAILED run (two CRITICAL contradictions in the candidate)."""
    with Store(store_db) as store:
        store.save_run(build_report(run_id=RUN))
    return store_db


def test_gate_exit_code_follows_overrides_failed_to_passed(db):
    assert cli("gate", RUN, "--db", db).exit_code == 1
    for claim in ("q1/candidate/0", "q2/candidate/0"):
        r = cli(
            "override",
            RUN,
            claim,
            "--verdict",
            "SUPPORTED",
            "-m",
            "source agrees",
            "-r",
            "ana",
            "--db",
            db,
        )
        assert r.exit_code == 0, r.output
    r = cli("gate", RUN, "--db", db)
    assert r.exit_code == 0 and "Gate: PASSED (exit code 0)" in r.output


def test_gate_exit_code_follows_overrides_passed_to_failed(store_db):
    with Store(store_db) as store:
        store.save_run(build_report(run_id=RUN, candidate={}))
    assert cli("gate", RUN, "--db", store_db).exit_code == 0
    r = cli(
        "override",
        RUN,
        "q1/candidate/0",
        "--verdict",
        "contradicted",
        "--type",
        "distortion",
        "--severity",
        "critical",
        "-m",
        "200 mg is wrong",
        "-r",
        "bo",
        "--db",
        store_db,
    )
    assert "gate now: FAILED (exit code 1)" in r.output
    assert cli("gate", RUN, "--db", store_db).exit_code == 1


def test_gate_needs_review_exits_3_until_the_queue_is_reviewed(store_db):
    with Store(store_db) as store:
        store.save_run(
            build_report(
                run_id=RUN,
                max_rate_increase=1.0,
                max_contradiction_rate=None,
                block_on_severity=None,
            )
        )
    r = cli("gate", RUN, "--db", store_db)
    assert r.exit_code == 3 and "2 claim(s) await review" in r.output
    assert "[PENDING] q1/candidate/0" in cli("review", RUN, "--db", store_db).output
    for claim in ("q1/candidate/0", "q2/candidate/0"):
        cli("override", RUN, claim, "-m", "confirmed", "-r", "ana", "--db", store_db)
    assert cli("gate", RUN, "--db", store_db).exit_code == 0
    pending = cli("review", RUN, "--pending", "--db", store_db).output
    assert pending.startswith("every queued claim is reviewed\n[PENDING] audit:")
    assert "audit sample: 0 of 6 answers labelled, 6 pending" in pending  # apart from the gate


def test_runs_and_show_list_overrides_and_judge_agreement(db):
    cli(
        "override",
        RUN,
        "q1/candidate/0",
        "--verdict",
        "SUPPORTED",
        "-m",
        "fine",
        "-r",
        "ana",
        "--db",
        db,
    )
    cli("override", RUN, "q2/candidate/0", "-m", "really contradicted", "-r", "bo", "--db", db)
    runs = cli("runs", "--db", db)
    assert runs.exit_code == 0 and RUN in runs.output and "FAILED" in runs.output
    show = cli("show", RUN[:12], "--db", db)  # a unique prefix is enough
    assert show.exit_code == 0
    assert "Overrides (2):" in show.output
    assert "q1/candidate/0 verdict=SUPPORTED by ana" in show.output
    assert "q2/candidate/0 confirmed by bo" in show.output
    assert "Judge agreement: 50.0% of 2 reviewed claim(s)" in show.output
    assert "CONTRADICTED 50.0% (1/2)" in show.output


def test_signoff_refused_then_accepted_then_stale(db, monkeypatch):
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    r = cli("signoff", RUN, "--decision", "approve", "-r", "mallory", "-m", "ship", "--db", db)
    assert r.exit_code == 4 and "'mallory' is not a release manager" in r.output
    r = cli("signoff", RUN, "--decision", "reject", "-r", "rita", "-m", "critical", "--db", db)
    assert r.exit_code == 0 and "REJECTED by rita on decision FAILED" in r.output
    env = {"HALGATE_RELEASE_MANAGERS": "ops, lead"}
    r = cli("signoff", RUN, "--decision", "approve", "-r", "rita", "-m", "x", "--db", db, env=env)
    assert r.exit_code == 4 and "allowed: ops, lead" in r.output
    cli(
        "override",
        RUN,
        "q1/candidate/0",
        "--verdict",
        "SUPPORTED",
        "-m",
        "ok",
        "-r",
        "a",
        "--db",
        db,
    )
    assert "STALE" in cli("show", RUN, "--db", db).output
    assert "REJECTED (stale)" in cli("runs", "--db", db).output


@pytest.mark.parametrize("fmt", ["json", "markdown", "junit", "csv", "html"])
def test_export_writes_every_format(db, tmp_path, fmt):
    out = tmp_path / f"report.{fmt}"
    r = cli("export", RUN, "--format", fmt, "--out", out, "--db", db)
    assert r.exit_code == 0 and out.stat().st_size > 0
    if fmt == "junit":
        assert sum(s.failures for s in junitparser.JUnitXml.fromfile(str(out))) == 3


def test_export_to_stdout_and_audit(db):
    r = cli("export", RUN, "-f", "markdown", "--db", db)
    assert r.output.startswith("## ❌ halgate gate: FAILED")
    cli("override", RUN, "q1/candidate/0", "-m", "looked", "-r", "ana", "--db", db)
    log = cli("audit", RUN, "--db", db).output.splitlines()
    assert [line.split()[3] for line in log] == ["save_run", "override"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["gate", "nope"], "run 'nope' not found"),
        (["override", RUN, "q9/x/0", "-m", "c", "-r", "r"], "claim 'q9/x/0' not found"),
        (
            ["override", RUN, "q1/candidate/0", "--verdict", "meh", "-m", "c", "-r", "r"],
            "verdict 'meh' is not one of",
        ),
        (["show", RUN, "--db", "missing.db"], "no review database here"),
    ],
)
def test_errors_are_one_line_and_exit_4(db, args, message):
    if "--db" not in args:
        args = [*args, "--db", db]
    r = cli(*args)
    assert r.exit_code == 4 and message in r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


def test_not_found_without_traceback_in_a_real_process(db):
    proc = subprocess.run(
        [sys.executable, "-m", "halgate.cli", "gate", "zzz", "--db", str(db)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 4 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith("error: run 'zzz' not found")


def test_run_saves_to_the_store_unless_told_not_to(tiny_suite, tmp_path):
    db = tmp_path / "runs.db"
    r = cli("run", tiny_suite, "-q", "--db", db)
    assert r.exit_code == 1 and f"saved to {db}" in r.output
    [row] = Store(db).list_runs()
    assert row.suite_name == "tiny" and row.judge_id.startswith("offline")
    other = tmp_path / "none.db"
    cli("run", tiny_suite, "-q", "--no-save", "--db", other)
    assert not other.exists()


def test_every_store_command_option_is_documented():
    group = get_command(app)
    for name in ("runs", "show", "review", "override", "gate", "signoff", "export", "audit", "run"):
        command = group.commands[name]
        assert command.help, name
        for p in command.params:
            if p.param_type_name == "option" and p.name != "help":
                assert p.help, f"{name} --{p.name} has no help"
        assert "--db" in cli(name, "--help").output


@pytest.mark.skipif(not EXAMPLE_SUITE.exists(), reason="example suite not present")
def test_example_suite_failed_to_passed_by_reviewing_the_queue(tmp_path, monkeypatch):
    """Acceptance: overturn the CRITICAL claims of the example suite, confirm the rest."""
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    policy = tmp_path / "policy.toml"
    policy.write_text(
        "max_rate_increase = 1.0\nmax_fabrication_rate = 1.0\nmax_contradiction_rate = 1.0\n"
        # 0 of 45 abstentions on both sides cannot show a rise under 5 points (Newcombe's
        # interval reaches ±7.9 %): the test lifts every rate limit the suite cannot decide
        "max_abstention_increase = 1.0\n"
    )
    db = tmp_path / "ex.db"
    r = cli("run", EXAMPLE_SUITE, "-q", "--policy", policy, "--db", db)
    assert r.exit_code == 1, r.output
    with Store(db) as store:
        [row] = store.list_runs()
        queue = store.review_queue(row.run_id)
    assert queue and any(i.claim.severity.value == "CRITICAL" for i in queue)
    for item in queue:
        change = ["--verdict", "SUPPORTED"] if item.claim.severity.value == "CRITICAL" else []
        r = cli(
            "override",
            row.run_id,
            item.claim.claim_id,
            *change,
            "-m",
            "reviewed",
            "-r",
            "ana",
            "--db",
            db,
        )
        assert r.exit_code == 0, r.output
    assert cli("gate", row.run_id, "--db", db).exit_code == 0
    show = cli("show", row.run_id, "--db", db).output
    assert f"Overrides ({len(queue)}):" in show and "Judge agreement:" in show
    r = cli("signoff", row.run_id, "--decision", "approve", "-r", "rita", "-m", "ok", "--db", db)
    assert r.exit_code == 0 and "on decision PASSED" in r.output


# --------------------------------------------------------------- issue #11: pairs, sign-off


def _pairwise_db(store_db):
    from halgate.scoring.rescore import rescore

    pair = disagreeing_pair("q1")
    report = rescore(build_report(run_id=RUN, candidate={}).model_copy(update={"pairwise": [pair]}))
    with Store(store_db) as store:
        store.save_run(report)
    return store_db


def test_a_disagreeing_pair_is_listed_by_review_and_decided_by_override(store_db):
    db = _pairwise_db(store_db)
    r = cli("gate", RUN, "--db", db)
    assert r.exit_code == 3 and "1 pair(s) await review" in r.output
    listed = cli("review", RUN, "--db", db).output
    assert "[PENDING] pairwise:q1" in listed
    assert "A: baseline" in listed and "B: candidate" in listed
    assert "A shown first: A" in listed and "B shown first: B" in listed
    assert "reconciled: TIE" in listed and "1 pending" in listed
    r = cli(
        "override", RUN, "pairwise:q1", "--preference", "B", "-m", "B is right", "-r", "ana",
        "--db", db,
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "pairwise:q1 preference=B by ana" in r.output and "gate now: PASSED" in r.output
    assert cli("gate", RUN, "--db", db).exit_code == 0
    listed = cli("review", RUN, "--db", db).output
    assert "[reviewed] pairwise:q1" in listed and "preference=B by ana" in listed
    pending = cli("review", RUN, "--pending", "--db", db).output
    assert pending.startswith("every queued item is reviewed\n[PENDING] audit:")  # audit apart
    r = cli(
        "override", RUN, "q1/candidate/0", "--preference", "A", "-m", "x", "-r", "a", "--db", db
    )
    assert r.exit_code == 4 and "pairwise" in r.output


def test_approving_a_run_that_did_not_pass_needs_override_gate(db, monkeypatch):
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    r = cli("signoff", RUN, "--decision", "approve", "-r", "rita", "-m", "ship", "--db", db)
    assert r.exit_code == 4 and "FAILED" in r.output and "--override-gate" in r.output
    assert "Sign-off: none" in cli("show", RUN, "--db", db).output
    r = cli(
        "signoff", RUN, "--decision", "approve", "--override-gate", "-r", "rita",
        "-m", "known issue, shipping", "--db", db,
    )  # fmt: skip
    assert r.exit_code == 0 and "overriding the gate" in r.output
    show = cli("show", RUN, "--db", db).output
    assert "Sign-off in force: #1 APPROVED by rita" in show
    assert "[in force]" in show and "gate overridden" in show
    cli("signoff", RUN, "--decision", "reject", "-r", "rita", "-m", "changed my mind", "--db", db)
    show = cli("show", RUN, "--db", db).output
    assert "Sign-off in force: #2 REJECTED by rita" in show and "[superseded]" in show
    cli("override", RUN, "q1/candidate/0", "-m", "confirmed", "-r", "ana", "--db", db)
    show = cli("show", RUN, "--db", db).output
    assert "Sign-off in force: none" in show and "[STALE" in show and "[in force]" not in show


# --------------------------------------------------------------- #11 both rates, #13 my reviews


def test_runs_shows_both_rates_with_changes_and_marks_the_gated_one(db):
    lines = cli("runs", "--db", db).output.splitlines()
    head, row, legend = lines[0].split(), lines[1].split(), lines[-1]
    assert head[6:10] == ["answers", "change", "claims", "change"]  # after "run id" .. effective
    # 2 of 3 candidate answers and claims hallucinated, none of the baseline's; answers gate
    assert row[5:9] == ["66.7%*", "+66.7%", "66.7%", "+66.7%"]
    assert "answers = answers with a hallucination" in legend
    assert "claims = claims hallucinated" in legend and "* = the measure the gate uses" in legend
    [listed] = json.loads(cli("runs", "--json", "--db", db).output)
    assert listed["answer_rate"] == pytest.approx(2 / 3) == listed["micro_rate"]
    assert (listed["answer_rate_change"], listed["gated_measure"]) == (
        pytest.approx(2 / 3),
        "answers",
    )


def test_runs_shows_n_a_for_a_rate_a_run_does_not_have(store_db):
    from halgate.models import Mode

    pairwise = build_report(run_id=RUN).model_copy(
        update={"mode": Mode.PAIRWISE, "analyses": [], "rates": {}, "comparison": None}
    )
    with Store(store_db) as store:
        store.save_run(pairwise)
    row = cli("runs", "--db", store_db).output.splitlines()[1].split()
    assert row[5:9] == ["n/a", "n/a", "n/a", "n/a"]


def test_reviews_lists_a_reviewers_own_overrides_newest_first(db):
    cli("override", RUN, "q1/candidate/0", "--verdict", "SUPPORTED", "-m", "ok", "-r", "ana",
        "--db", db)  # fmt: skip
    cli("override", RUN, "q1/candidate/0", "-m", "contradicted after all", "-r", "bo", "--db", db)
    cli("override", RUN, "q2/candidate/0", "-m", "right", "-r", "ana", "--db", db)
    r = cli("reviews", "-r", "ana", "--db", db)
    assert r.exit_code == 0, r.output
    first, second, total = r.output.splitlines()
    assert f"{RUN} (tiny)  q2/candidate/0 [claim] confirmed (in force): right" in first
    assert "q1/candidate/0 [claim] verdict=SUPPORTED (superseded): ok" in second
    assert total == "2 review(s) by ana in 1 run(s), newest first"
    limited = cli("reviews", "-r", "ana", "--limit", "1", "--db", db).output.splitlines()
    assert len(limited) == 2 and "q2/candidate/0" in limited[0]
    none = cli("reviews", "--db", db, env={"HALGATE_REVIEWER": "carol"})
    assert none.exit_code == 0 and none.output == "no reviews by carol in this database\n"
