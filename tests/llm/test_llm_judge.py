"""The LLM judge against a real local OpenAI-compatible server (tests/fake_openai/).

Nothing on our side is patched: the real `openai` client talks HTTP to the fake, which is
scripted per test (malformed replies, wrong enums, 429, 500, dropped connections, slow
replies) and records every request. These tests specify the one-case-per-request path, so
the helpers turn batching off (``max_batch=1``); tests/test_llm_batch.py specifies batching.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.reports.schemas import load_schema
from halgate.run.engine import run_suite

from ..conftest import TINY_CASES, write_jsonl
from .llm_helpers import Q1, Q2, Q3, about, analyses, cli, judge

pytestmark = pytest.mark.usefixtures("isolated_llm_env")


# --------------------------------------------------------------------------- happy path


def test_cli_run_writes_a_schema_valid_report_with_one_call_per_case(
    tiny_suite, fake_openai, tmp_path
):
    result, out = cli(tiny_suite, fake_openai, tmp_path)
    assert result.exit_code in (1, 3), result.output
    data = json.loads(out.read_text())
    jsonschema.validate(data, load_schema("run_report"))
    assert data["judge"]["name"] == "llm" and data["judge"]["prompt_version"] == "compare-v2"
    requests = fake_openai.completions()
    assert len(requests) == 3  # both answers of a case in one call
    assert data["usage"]["calls"] == 3 and data["usage"]["prompt_tokens"] > 0
    assert all(r.body["temperature"] == 0 for r in requests)
    assert all(r.body["response_format"]["type"] == "json_schema" for r in requests)
    # Cases run concurrently, so find the calls of the leaflet's cases by their documents.
    leaflet = [r.user for r in requests if '<document id="leaflet"' in r.user]
    assert leaflet and all(u.count('<document id="leaflet"') == 1 for u in leaflet)  # once
    assert all('<answer id="A">' in r.user and '<answer id="B">' in r.user for r in requests)
    by = {(a["case_id"], a["system"]): a for a in data["analyses"]}
    dose = by[("q1", "candidate")]["claims"][0]
    assert dose["verdict"] == "CONTRADICTED" and dose["severity"] == "CRITICAL"
    assert dose["citations"][0]["verified"] is True
    assert by[("q1", "baseline")]["claims"][0]["verdict"] == "SUPPORTED"
    assert by[("q1", "baseline")]["usage"]["calls"] == 1


def test_claims_are_located_as_spans_and_scored(tiny_suite, fake_openai, tmp_path):
    report = run_suite(load_suite(tiny_suite), judge(fake_openai, tmp_path), Policy())
    answers = report.answers
    for a in report.analyses:
        for c in a.claims:
            assert answers[a.system][a.case_id][c.start : c.end] == c.text
            assert 0.0 <= c.score <= 1.0 and c.signals["span_match"] == "exact"


# --------------------------------------------------------------------------- repair


@pytest.mark.parametrize(
    "kind, params, error_words",
    [
        ("reply", {"content": '{"answers": {"A": {"claim_count": '}, "not valid JSON"),
        ("truncate", {"finish_reason": "length"}, "not valid JSON"),
        ("wrong_enum", {"verdict": "TRUE"}, "'TRUE' is not one of"),
        ("reply", {"content": '```json\n{"answers": {}}\n```'}, "'A' is a required property"),
    ],
)
def test_invalid_first_reply_is_repaired_with_the_error_quoted(
    tiny_suite, fake_openai, tmp_path, kind, params, error_words
):
    fake_openai.script(kind, match=Q1, **params)
    report = run_suite(load_suite(tiny_suite), judge(fake_openai, tmp_path), Policy())
    assert report.decision.status.value != "HARNESS_ERROR"
    q1 = about(fake_openai, Q1)
    assert len(q1) == 2
    repair = q1[1].body["messages"]
    assert repair[-2]["role"] == "assistant" and repair[-1]["role"] == "user"
    assert error_words in repair[-1]["content"]
    usage = analyses(report)[("q1", "baseline")].usage
    assert usage["calls"] == 2 and usage["repairs"] == 1


def test_permanently_broken_case_is_a_harness_error_and_the_rest_completes(
    tiny_suite, fake_openai, tmp_path
):
    fake_openai.script("wrong_enum", match=Q2, times=None)
    result, out = cli(tiny_suite, fake_openai, tmp_path)
    assert result.exit_code == 2, result.output
    data = json.loads(out.read_text())
    jsonschema.validate(data, load_schema("run_report"))
    by = {(a["case_id"], a["system"]): a for a in data["analyses"]}
    broken = by[("q2", "candidate")]
    assert "invalid judge output after 2 repair(s)" in broken["harness_error"]
    assert '"TRUE"' in broken["raw_output"]  # kept for diagnosis
    assert len(about(fake_openai, Q2)) == 3  # first try + 2 repairs
    assert by[("q1", "candidate")]["harness_error"] is None and by[("q1", "candidate")]["claims"]
    assert data["decision"]["status"] == "HARNESS_ERROR"


# --------------------------------------------------------------------------- transport


@pytest.mark.parametrize(
    "kind, params, outcome",
    [
        ("status", {"status": 429, "retry_after": 1}, "status 429"),
        ("status", {"status": 500}, "status 500"),
        ("status", {"status": 503}, "status 503"),
        ("drop", {}, "dropped"),
    ],
)
def test_transport_faults_are_retried(tiny_suite, fake_openai, tmp_path, kind, params, outcome):
    fake_openai.script(kind, match=Q1, **params)
    report = run_suite(load_suite(tiny_suite), judge(fake_openai, tmp_path), Policy())
    assert report.decision.status.value != "HARNESS_ERROR"
    assert [r.outcome for r in about(fake_openai, Q1)] == [outcome, "answered"]


def test_retry_after_is_honoured(tiny_suite, fake_openai, tmp_path):
    import time

    fake_openai.script("status", match=Q1, status=429, retry_after=2)
    t0 = time.perf_counter()
    run_suite(load_suite(tiny_suite), judge(fake_openai, tmp_path), Policy())
    assert time.perf_counter() - t0 >= 1.9


def test_slow_reply_times_out_and_is_retried(tiny_suite, fake_openai, tmp_path):
    fake_openai.script("slow", match=Q3, seconds=2.5)
    j = judge(fake_openai, tmp_path, timeout=1.0)
    report = run_suite(load_suite(tiny_suite), j, Policy())
    assert report.decision.status.value != "HARNESS_ERROR"
    assert len(about(fake_openai, Q3)) == 2


def test_exhausted_retries_become_a_harness_error_for_that_case_only(
    tiny_suite, fake_openai, tmp_path
):
    fake_openai.script("status", match=Q3, times=None, status=500)
    j = judge(fake_openai, tmp_path, max_retries=1)
    report = run_suite(load_suite(tiny_suite), j, Policy())
    by = analyses(report)
    assert "InternalServerError (HTTP 500)" in by[("q3", "candidate")].harness_error
    assert by[("q1", "candidate")].harness_error is None
    assert report.decision.status.value == "HARNESS_ERROR"
    assert len(about(fake_openai, Q3)) == 2  # one try + one retry


def test_server_without_json_schema_support_gets_json_object(tiny_suite, fake_openai, tmp_path):
    fake_openai.supports_json_schema = False
    j = judge(fake_openai, tmp_path, concurrency=1)
    report = run_suite(load_suite(tiny_suite), j, Policy())
    assert report.decision.status.value != "HARNESS_ERROR"
    formats = [r.body["response_format"]["type"] for r in fake_openai.completions()]
    assert formats == ["json_schema", "json_object", "json_object", "json_object"]


# --------------------------------------------------------------------------- cache


def test_unchanged_rerun_makes_zero_calls_and_gives_the_same_verdicts(
    tiny_suite, fake_openai, tmp_path
):
    suite = load_suite(tiny_suite)
    first = run_suite(suite, judge(fake_openai, tmp_path), Policy())
    calls = len(fake_openai.completions())
    second = run_suite(suite, judge(fake_openai, tmp_path), Policy())
    assert len(fake_openai.completions()) == calls == 3
    assert second.usage.get("calls") == 0 and second.usage["cached"] == 3
    assert [a.claims for a in first.analyses] == [a.claims for a in second.analyses]
    assert first.decision == second.decision


def test_changed_answer_or_model_misses_the_cache(tiny_suite, fake_openai, tmp_path):
    run_suite(load_suite(tiny_suite), judge(fake_openai, tmp_path), Policy())
    rows = [{"case_id": "q3", "answer": "Refunds take 30 days."}]
    rows = [
        {"case_id": c["case_id"], "answer": a}
        for c, a in zip(
            TINY_CASES,
            [
                "The maximum daily dose is 200 mg.",
                "Zelparin can be used during pregnancy.",
                "Refunds take 30 days.",
            ],
            strict=True,
        )
    ]
    write_jsonl(tiny_suite / "answers" / "candidate.jsonl", rows)
    run_suite(load_suite(tiny_suite), judge(fake_openai, tmp_path), Policy())
    assert len(fake_openai.completions()) == 4  # only q3 changed
    run_suite(load_suite(tiny_suite), judge(fake_openai, tmp_path, model="other"), Policy())
    assert len(fake_openai.completions()) == 7
