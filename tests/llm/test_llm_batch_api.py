"""`halgate run --batch-api`: submit, pending, collect, report; failures; per-line errors.

Against the shared fake's Batch API (``/v1/files``, ``/v1/batches``; tests/fake_openai/
batches.py), whose batches answer each line with the same reply logic as live calls.
"""

from __future__ import annotations

import json
from pathlib import Path

from halgate.cli.app import app
from halgate.inputs.suite import load_suite
from halgate.judges.cascade import CascadeJudge
from halgate.judges.llm.cache import JudgeCache
from halgate.judges.llm.judge import make_llm_judge
from halgate.judges.llm_batch import EXIT_BATCH_PENDING
from halgate.judges.llm_batch.jobs import BatchJobs
from halgate.judges.offline.judge import OfflineJudge
from halgate.models import Mode
from halgate.reports.json_report import load_report, validate_report_data
from halgate.run.engine import plan_tasks
from typer.testing import CliRunner

from ..conftest import EXAMPLE_SUITE
from .llm_helpers import KEY, Q2, run_args


def run(fake, tmp_path: Path, suite: Path, *extra: str, judge: str = "llm"):
    """`halgate run --batch-api` against the fake (one case per request unless told)."""
    out = tmp_path / "report.json"
    args = run_args(suite, fake, tmp_path / "h.db", out, "--batch-api", *extra, judge=judge)
    if "--max-batch" not in extra:
        args += ["--max-batch", "1"]
    return CliRunner().invoke(app, args)


def batches(tmp_path: Path, *extra: str):
    """`halgate batches` with the key for the endpoint the batches were sent to (a key is
    only sent to the endpoint it is configured for)."""
    with BatchJobs(tmp_path / "h.db") as jobs:
        urls = {j.base_url for j in jobs.jobs() if j.base_url}
    where = ["--base-url", urls.pop()] if len(urls) == 1 and "--base-url" not in extra else []
    args = ["batches", "--db", str(tmp_path / "h.db"), "--api-key", KEY, *where, *extra]
    return CliRunner().invoke(app, args)


def collect(tmp_path: Path, batch_id: str):
    args = ["batches", "collect", batch_id, "--db", str(tmp_path / "h.db"), "--api-key", KEY]
    return CliRunner().invoke(app, args)


def listed(tmp_path: Path, *extra: str) -> list[dict]:
    result = batches(tmp_path, "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_submit_pending_collect_report_and_a_free_rerun(fake_openai, tmp_path, tiny_suite):
    submitted = run(fake_openai, tmp_path, tiny_suite)
    assert submitted.exit_code == EXIT_BATCH_PENDING == 5, submitted.output
    assert "pending: batch " in submitted.output and "halgate batches collect" in submitted.output
    assert fake_openai.completions() == []  # nothing live
    assert fake_openai.batch_api.calls == [("POST", "/files"), ("POST", "/batches")]
    assert not (tmp_path / "report.json").exists()

    # The uploaded JSONL: one chat request per call, keyed by its cache key, schema'd.
    (upload,) = fake_openai.batch_api.files.values()
    lines = [json.loads(x) for x in upload["content"].decode().splitlines()]
    assert upload["meta"]["purpose"] == "batch" and len(lines) == 3
    for line in lines:
        assert line["method"] == "POST" and line["url"] == "/v1/chat/completions"
        assert len(line["custom_id"]) == 64  # the request's cache key
        body = line["body"]
        assert body["temperature"] == 0 and body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["strict"] is True
        assert KEY not in json.dumps(line)

    text = batches(tmp_path).output
    assert "here: not collected yet  provider: completed: 3 of 3 request(s) done" in text
    assert "pending  completed" not in text and "ready: halgate" in text
    (batch,) = listed(tmp_path)
    assert batch["state"] == "pending" and batch["requests"] == 3
    assert batch["status"] == "completed"  # polled: the fake ends it on the first poll
    assert batch["suite"] == str(tiny_suite.resolve())

    done = collect(tmp_path, batch["batch_id"])
    assert done.exit_code in (1, 3), done.output  # the gate's code: the candidate regressed
    assert fake_openai.completions() == []  # every reply came from the batch
    assert len(fake_openai.batch_api.lines) == 3
    data = json.loads((tmp_path / "report.json").read_text())
    validate_report_data(data)
    report = load_report(tmp_path / "report.json")
    assert report.usage["calls"] == report.usage["batch_api_calls"] == 3
    assert report.judge.options["batch_api"] is True
    assert not any(a.harness_error for a in report.analyses)
    assert "saved to" in done.output
    keys = JudgeCache(tmp_path / "h.db").keys()
    assert {line["custom_id"] for line in lines} <= keys
    assert listed(tmp_path) == []  # finished: no longer open
    assert listed(tmp_path, "--all")[0]["state"] == "done"

    polls = len(fake_openai.batch_api.calls)
    again = run(fake_openai, tmp_path, tiny_suite)
    assert again.exit_code == done.exit_code
    assert fake_openai.completions() == [] and len(fake_openai.batch_api.lines) == 3
    assert len(fake_openai.batch_api.calls) == polls  # cached: the Batch API is not asked
    assert load_report(tmp_path / "report.json").usage["calls"] == 0


def test_re_running_the_command_polls_until_the_batch_has_completed(
    fake_openai, tmp_path, tiny_suite
):
    fake_openai.batch_api.polls = 2
    assert run(fake_openai, tmp_path, tiny_suite).exit_code == 5
    first = run(fake_openai, tmp_path, tiny_suite)
    assert first.exit_code == 5 and "is in_progress" in first.output
    assert run(fake_openai, tmp_path, tiny_suite).exit_code == 5
    assert len(fake_openai.batch_api.batches) == 1  # the same batch, never resubmitted
    finished = run(fake_openai, tmp_path, tiny_suite)
    assert finished.exit_code in (1, 3), finished.output
    assert fake_openai.completions() == []


def test_a_failed_batch_is_a_clear_error_and_the_next_run_submits_again(
    fake_openai, tmp_path, tiny_suite
):
    fake_openai.batch_api.outcome = "failed"
    assert run(fake_openai, tmp_path, tiny_suite).exit_code == 5
    (batch,) = listed(tmp_path)
    failed = collect(tmp_path, batch["batch_id"])
    assert failed.exit_code == 4
    assert f"batch {batch['batch_id']} failed at the provider" in failed.output
    assert "0 of 3 request(s) finished" in failed.output and "new batch" in failed.output
    assert listed(tmp_path)[0]["state"] == "failed"
    fake_openai.batch_api.outcome = "completed"
    resubmitted = run(fake_openai, tmp_path, tiny_suite)
    assert resubmitted.exit_code == 5 and len(fake_openai.batch_api.batches) == 2
    assert run(fake_openai, tmp_path, tiny_suite).exit_code in (1, 3)


def test_an_expired_batch_keeps_what_finished_and_resubmits_only_the_rest(
    fake_openai, tmp_path, tiny_suite
):
    fake_openai.batch_api.outcome, fake_openai.batch_api.finished_lines = "expired", 2
    assert run(fake_openai, tmp_path, tiny_suite).exit_code == 5
    expired = run(fake_openai, tmp_path, tiny_suite)
    assert expired.exit_code == 4 and "expired at the provider" in expired.output
    assert "2 of 3 request(s) finished and are kept" in expired.output
    fake_openai.batch_api.outcome = "completed"
    assert run(fake_openai, tmp_path, tiny_suite).exit_code == 5
    second = list(fake_openai.batch_api.batches.values())[-1]
    assert second["request_counts"]["total"] == 1  # only the request that had not finished
    assert run(fake_openai, tmp_path, tiny_suite).exit_code in (1, 3)
    report = load_report(tmp_path / "report.json")
    assert report.usage["batch_api_calls"] == 3 and fake_openai.completions() == []


def test_a_request_that_failed_in_the_batch_is_a_harness_error_of_its_case_only(
    fake_openai, tmp_path, tiny_suite
):
    fake_openai.script("status", match=Q2, status=500)
    assert run(fake_openai, tmp_path, tiny_suite).exit_code == 5
    done = run(fake_openai, tmp_path, tiny_suite)
    assert done.exit_code == 2, done.output  # HARNESS_ERROR
    report = load_report(tmp_path / "report.json")
    errors = {(a.case_id, a.system): a.harness_error for a in report.analyses if a.harness_error}
    assert set(errors) == {("q2", "baseline"), ("q2", "candidate")}
    assert all("Batch API could not answer: HTTP 500" in e for e in errors.values())
    assert fake_openai.completions() == []  # not retried live
    assert report.usage["batch_api_calls"] == 2
    # The next run asks only that request again, in a new batch.
    assert run(fake_openai, tmp_path, tiny_suite).exit_code == 5
    assert list(fake_openai.batch_api.batches.values())[-1]["request_counts"]["total"] == 1


def test_an_invalid_reply_in_the_batch_is_repaired_live(fake_openai, tmp_path, tiny_suite):
    fake_openai.script("wrong_enum", match=Q2)
    assert run(fake_openai, tmp_path, tiny_suite).exit_code == 5
    done = run(fake_openai, tmp_path, tiny_suite)
    assert done.exit_code in (1, 3), done.output
    (repair,) = fake_openai.completions()
    assert Q2 in repair.user and repair.body["messages"][-1]["role"] == "user"
    assert "could not be used" in repair.body["messages"][-1]["content"]
    report = load_report(tmp_path / "report.json")
    assert not any(a.harness_error for a in report.analyses)
    assert report.usage["repairs"] == 1 and report.usage["calls"] == 4


def test_small_cases_packed_together_travel_as_one_batch_line(fake_openai, tmp_path, tiny_suite):
    assert run(fake_openai, tmp_path, tiny_suite, "--max-batch", "8").exit_code == 5
    (upload,) = fake_openai.batch_api.files.values()
    assert len(upload["content"].decode().splitlines()) == 1  # three small cases, one request
    assert run(fake_openai, tmp_path, tiny_suite, "--max-batch", "8").exit_code in (1, 3)
    report = load_report(tmp_path / "report.json")
    assert report.usage["batch_api_calls"] == 1 and report.usage["batched"] == 3


def unsure_cases(suite: Path) -> int:
    """How many of the suite's compare cases the offline judge is unsure of (the cascade's
    own rule), counted here rather than written down: it moves when the model is refitted."""
    offline = OfflineJudge()
    cascade = CascadeJudge(offline, make_llm_judge(api_key=KEY, base_url="http://127.0.0.1:9"))
    tasks = plan_tasks(load_suite(suite), Mode.COMPARE, ["baseline", "candidate"])
    judged = zip(tasks, offline.judge(tasks), strict=True)
    return sum(bool(cascade.unsure_answers(t, r)) for t, r in judged)


def test_the_cascade_sends_only_its_unsure_answers_through_the_batch_api(fake_openai, tmp_path):
    assert run(fake_openai, tmp_path, EXAMPLE_SUITE, judge="cascade").exit_code == 5
    (batch,) = listed(tmp_path)
    done = collect(tmp_path, batch["batch_id"])
    assert done.exit_code in (1, 2, 3), done.output
    report = load_report(tmp_path / "report.json")
    unsure = unsure_cases(EXAMPLE_SUITE)
    assert 0 < unsure < 53
    assert report.usage["batch_api_calls"] == batch["requests"] == unsure
    assert report.judge.name == "cascade" and fake_openai.completions() == []


def test_a_dry_run_says_the_calls_would_be_batched(tmp_path, tiny_suite):
    args = ["run", str(tiny_suite), "--judge", "llm", "--batch-api", "--dry-run"]
    args += ["--base-url", "http://127.0.0.1:9/v1", "--db", str(tmp_path / "h.db")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and "via the Batch API" in result.output


def test_batches_explains_an_unknown_id_and_an_empty_database(tmp_path):
    assert "no open Batch API batches" in batches(tmp_path).output
    unknown = collect(tmp_path, "batch-nope")
    assert unknown.exit_code == 4 and "no batch 'batch-nope'" in unknown.output


def test_the_batch_api_needs_a_server_that_offers_it(fake_openai, tmp_path, tiny_suite):
    fake_openai.batch_api.enabled = False  # 404 on /v1/files and /v1/batches
    result = run(fake_openai, tmp_path, tiny_suite)
    assert result.exit_code == 4 and "upload the batch file" in result.output
    assert KEY not in result.output
