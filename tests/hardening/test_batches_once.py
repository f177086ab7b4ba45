"""#32 guarantee 3 (batches exactly once), against the shared fake's Batch API: the intent is
recorded with a client id (sent as batch metadata) before the upload; a run killed with
SIGKILL after the provider created its batch adopts that batch on restart, so every request
is billed once; no batch is submitted when its record cannot be written; a pending batch is
only ever polled, with a key, at the endpoint it was sent to."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from halgate.cli.app import app
from halgate.judges.llm_batch import EXIT_BATCH_PENDING
from halgate.judges.llm_batch.jobs import BatchJobs
from typer.testing import CliRunner

from ..llm.llm_helpers import KEY, run_args


def _args(fake, tmp_path: Path, suite: Path) -> list[str]:
    out = tmp_path / "report.json"
    return [*run_args(suite, fake, tmp_path / "h.db", out, "--batch-api"), "--max-batch", "1"]


def _lines_billed(fake) -> int:
    """Requests the provider accepted, over every batch it created (what it bills)."""
    return sum(len(b["_lines"]) for b in fake.batch_api.batches.values())


def test_a_run_killed_after_the_batch_was_created_adopts_it_on_restart(
    fake_openai, tmp_path, tiny_suite
):
    fake_openai.batch_api.create_delay = 30.0  # the provider created it; the reply is late
    cmd = [sys.executable, "-m", "halgate.cli", *_args(fake_openai, tmp_path, tiny_suite)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not fake_openai.batch_api.batches and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fake_openai.batch_api.batches, "the run never created its batch"
        os.kill(proc.pid, signal.SIGKILL)  # the probe: kill -9 in the window
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    (created,) = fake_openai.batch_api.batches.values()
    with BatchJobs(tmp_path / "h.db") as jobs:  # only the intent survived the kill
        (intent,) = jobs.jobs()
    assert intent.state == "submitting"
    assert created["metadata"]["halgate_client_id"] == intent.batch_id.removeprefix("intent:")

    fake_openai.batch_api.create_delay = 0.0
    again = CliRunner().invoke(app, _args(fake_openai, tmp_path, tiny_suite))
    # Adopted, polled (the fake ends a batch on its first poll), collected and decided.
    assert again.exit_code == 1, again.output  # the tiny suite's candidate FAILS the gate
    # The counters: one upload, one batch, three requests billed once, nothing live.
    posts = [c for c in fake_openai.batch_api.calls if c[0] == "POST"]
    print(f"kill -9 probe: {len(fake_openai.batch_api.batches)} batch(es), "
          f"{_lines_billed(fake_openai)} request(s) billed, POSTs {posts}")  # fmt: skip
    assert len(fake_openai.batch_api.batches) == 1
    assert _lines_billed(fake_openai) == 3
    assert posts == [("POST", "/files"), ("POST", "/batches")]
    assert fake_openai.completions() == []
    with BatchJobs(tmp_path / "h.db") as jobs:
        assert [j.batch_id for j in jobs.jobs()] == [created["id"]]


def test_an_intent_the_provider_never_saw_is_dropped_and_submitted_once(
    fake_openai, tmp_path, tiny_suite
):
    with BatchJobs(tmp_path / "h.db") as jobs:  # a run killed before its upload
        jobs.add_intent("halgate-lost", "m", fake_openai.url, ["k1"], None)
    result = CliRunner().invoke(app, _args(fake_openai, tmp_path, tiny_suite))
    assert result.exit_code == EXIT_BATCH_PENDING, result.output
    assert len(fake_openai.batch_api.batches) == 1
    with BatchJobs(tmp_path / "h.db") as jobs:
        assert [j.state for j in jobs.jobs()] == ["pending"]


def test_no_batch_is_submitted_when_its_record_cannot_be_written(fake_openai, tmp_path, tiny_suite):
    """The probe's full disk: SQLite refuses the write (here a trigger refuses it as a full
    disk would); before, the batch was created first and orphaned, with a traceback, exit 1."""
    db = tmp_path / "h.db"
    BatchJobs(db).close()
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TRIGGER full BEFORE INSERT ON llm_batches "
        "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )
    conn.commit()
    conn.close()
    result = CliRunner().invoke(app, _args(fake_openai, tmp_path, tiny_suite))
    assert result.exit_code == 4, result.output
    assert "nothing was submitted" in result.output and "Traceback" not in result.output
    assert fake_openai.batch_api.calls == []
    assert fake_openai.batch_api.batches == {}


def test_a_pending_batch_is_polled_only_at_its_own_endpoint(fake_openai, tmp_path):
    """Medium: `halgate batches` sent the configured key to every batch's recorded URL."""
    other = fake_openai.url.replace("127.0.0.1", "localhost")
    with BatchJobs(tmp_path / "h.db") as jobs:
        jobs.add("batch-elsewhere", "file-1", "in_progress", "m", other, ["k"], None)
    args = ["batches", "--db", str(tmp_path / "h.db"), "--api-key", KEY]
    result = CliRunner().invoke(app, [*args, "--base-url", fake_openai.url])
    assert result.exit_code == 0, result.output
    assert fake_openai.batch_api.calls == []  # no key went to the other endpoint's batch
    assert "not polled" in result.output and other in result.output


def test_a_large_batch_output_is_read_line_by_line(fake_openai, tmp_path, tiny_suite):
    """Medium: a 300 MB output file took 1,063 MB (read whole, then split). Here 150 MB of
    other requests' replies ride along with the three this run asked for."""
    import json
    import textwrap

    fake_openai.batch_api.padding = (1500, 100_000)
    assert CliRunner().invoke(app, _args(fake_openai, tmp_path, tiny_suite)).exit_code == 5
    wrapper = textwrap.dedent(
        """
        import json, resource, subprocess, sys
        done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(json.dumps({"rc": done.returncode, "err": done.stderr[-2000:], "peak_mb": peak}))
        """
    )
    cmd = [sys.executable, "-m", "halgate.cli", *_args(fake_openai, tmp_path, tiny_suite)]
    done = subprocess.run([sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True)
    result = json.loads(done.stdout)
    print(f"150 MB batch output: peak {result['peak_mb']:.0f} MB")
    assert result["rc"] == 1, result  # collected and decided (the tiny candidate FAILS)
    assert result["peak_mb"] < 300


def test_an_api_key_given_on_the_command_line_is_blanked_in_proc_cmdline(
    fake_openai, tmp_path, tiny_suite
):
    """Low: --api-key was visible in /proc/PID/cmdline for the whole run."""
    fake_openai.batch_api.create_delay = 30.0  # keep the run alive, mid-request
    cmd = [sys.executable, "-m", "halgate.cli", *_args(fake_openai, tmp_path, tiny_suite)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not fake_openai.batch_api.batches and time.monotonic() < deadline:
            time.sleep(0.05)
        shown = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert b"--api-key" in shown and KEY.encode() not in shown
    assert b"*" * len(KEY) in shown


def test_collect_never_sends_the_environment_key_to_another_endpoint(
    fake_openai, tmp_path, tiny_suite, monkeypatch
):
    """The run named the fake with --base-url; the environment's key is OpenAI's."""
    submitted = CliRunner().invoke(app, _args(fake_openai, tmp_path, tiny_suite))
    assert submitted.exit_code == EXIT_BATCH_PENDING, submitted.output
    (created,) = fake_openai.batch_api.batches
    calls = list(fake_openai.batch_api.calls)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-key-of-another-provider")
    args = ["batches", "collect", created, "--db", str(tmp_path / "h.db")]
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 4, refused.output
    assert "the key configured here is for https://api.openai.com/v1" in refused.output
    assert fake_openai.batch_api.calls == calls  # nothing was sent
    collected = CliRunner().invoke(app, [*args, "--api-key", KEY])  # its own key: fine
    assert collected.exit_code == 1, collected.output
