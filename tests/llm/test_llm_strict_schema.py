"""Against a server that answers strictly by the JSON Schema it receives (as vLLM's guided
decoding, llama.cpp's grammars and OpenAI's strict mode do), every reply parses: the schema
admits only the request's answer, document and case ids, so there is nothing to repair. Its
texts are arbitrary, so claims come back unlocated and quotes unverified, recorded as such,
never as harness errors; and an unchanged re-run makes no calls.

The server is tests/fake_openai/ in ``strict-schema`` mode (tests/fake_openai/strict.py): it
reads no prompt, walks the schema in ``response_format`` and refuses, with 400, a schema that
strict mode could not take.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.llm.parse import parse_batch_reply, parse_reply
from halgate.judges.llm.reply_schemas import (
    PAIRWISE_FORMAT,
    ClaimsOutput,
    PairwiseOutput,
    ReplyShape,
    batch_format,
    claims_format,
)
from halgate.judges.registry import create_judge
from halgate.models import Mode
from halgate.resources import data_path
from halgate.run.engine import run_suite

from ..conftest import load_fake_openai

KEY = "sk-halgate-strict-0123456789abcdef"
EXAMPLE = Path(str(data_path("examples", "acme-helpdesk")))

pytestmark = pytest.mark.usefixtures("isolated_llm_env")


@pytest.fixture
def strict_server():
    server = load_fake_openai().FakeOpenAI(mode="strict-schema").start()
    yield server
    server.stop()


def _run(server, db: Path, suite: Path = EXAMPLE, mode: Mode | None = None, **options):
    judge = create_judge(
        "llm", base_url=server.url, api_key=KEY, db=str(db), mode=mode and mode.value, **options
    )
    return run_suite(load_suite(suite), judge, Policy(), **({"mode": mode} if mode else {}))


def _stable(report) -> list:
    return [
        (a.case_id, a.system, [c.model_dump(mode="json") for c in a.claims])
        for a in report.analyses
    ]


@pytest.mark.parametrize("options", [{}, {"max_batch": 1}], ids=["batched", "one-per-request"])
def test_the_example_suite_has_no_harness_error_and_a_rerun_no_call(
    strict_server, tmp_path, options
):
    report = _run(strict_server, tmp_path / "h.db", **options)
    requests = strict_server.completions()
    assert requests and {r.outcome for r in requests} == {"answered"}  # no schema refused
    for r in requests:
        fmt = r.body["response_format"]
        assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert [a.harness_error for a in report.analyses if a.harness_error] == []
    assert report.decision.status.value != "HARNESS_ERROR"
    assert report.usage["calls"] == len(requests) and not report.usage.get("repairs")
    if not options:
        assert report.usage["batched"] > 0  # the batch path was taken
    claims = [c for a in report.analyses for c in a.claims]
    assert claims
    # Arbitrary texts: recorded as unlocated claims and unverified quotes, not as errors.
    assert {c.signals["span_match"] for c in claims} == {"unlocated"}
    citations = [q for c in claims for q in c.citations]
    assert citations and not any(q.verified for q in citations)
    assert report.usage["checks_unlocated_claim_spans"] == len(claims)
    assert report.usage["checks_unverified_quotes"] == len(citations)

    again = _run(strict_server, tmp_path / "h.db", **options)
    assert len(strict_server.completions()) == len(requests)  # nothing asked twice
    assert again.usage["calls"] == 0 and again.usage["cached"] == len(requests)
    assert _stable(again) == _stable(report)


def test_pairwise_under_a_strict_server_has_no_harness_error(strict_server, tiny_suite, tmp_path):
    report = _run(strict_server, tmp_path / "h.db", tiny_suite, Mode.PAIRWISE)
    assert len(strict_server.completions()) == 6
    assert [a.harness_error for a in report.analyses if a.harness_error] == []
    assert len(report.pairwise) == 3


SHAPES = [
    ReplyShape(("A",), ("d",)),
    ReplyShape(("A", "B"), ("leaflet", "policy", "q1:reference")),
    ReplyShape(("A",), ()),
]


@pytest.mark.parametrize("seed", range(25))
def test_whatever_the_schema_admits_parses(seed: int) -> None:
    """The walk's replies are valid by construction; the parser takes every one of them."""
    fake = load_fake_openai()
    rng = random.Random(seed)
    for shape in SHAPES:
        reply = fake.schema_instance(claims_format(shape).schema, rng)
        parsed = parse_reply(json.dumps(reply), "claims", shape)
        assert isinstance(parsed, ClaimsOutput) and list(parsed.answers) == list(shape.answer_ids)
        for claim in (c for a in parsed.answers.values() for c in a.claims):
            assert all(q.doc_id in shape.doc_ids for q in claim.citations)
    cases = tuple((f"C{i + 1}", s) for i, s in enumerate(SHAPES))
    reply = fake.schema_instance(batch_format(cases).schema, rng)
    split = parse_batch_reply(json.dumps(reply), dict(cases))
    assert all(isinstance(c, ClaimsOutput) for c in split.cases.values())
    pair = fake.schema_instance(PAIRWISE_FORMAT.schema, rng)
    assert isinstance(parse_reply(json.dumps(pair), "pairwise"), PairwiseOutput)


def test_the_strict_server_refuses_what_strict_mode_cannot_take() -> None:
    fake = load_fake_openai()
    open_keys = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert "additionalProperties" in fake.strict_schema_problem(open_keys)
    optional = dict(open_keys, additionalProperties=False, required=[])
    assert "every property must be required" in fake.strict_schema_problem(optional)
    tuple_items = {
        "type": "object",
        "additionalProperties": False,
        "required": ["t"],
        "properties": {"t": {"type": "array", "prefixItems": [{"type": "string"}]}},
    }
    assert "prefixItems" in fake.strict_schema_problem(tuple_items)
    # The schema of old, an array of answers with any string as answer_id, was strict-safe
    # in form, yet admitted replies no parser could map: the walk shows it.
    old = {
        "type": "object",
        "additionalProperties": False,
        "required": ["answers"],
        "properties": {
            "answers": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["answer_id"],
                    "properties": {"answer_id": {"type": "string"}},
                },
            }
        },
    }
    assert fake.strict_schema_problem(old) is None
    ids = {
        a["answer_id"]
        for seed in range(20)
        for a in fake.schema_instance(old, random.Random(seed))["answers"]
    }
    assert ids - {"A", "B"}  # any string: nothing a repair could fix


def test_the_cli_run_and_rerun_against_a_strict_server(strict_server, tmp_path):
    """The same through `halgate run --judge llm --base-url ...`: no harness error (exit code
    not 2), and the unchanged re-run is answered from the cache."""
    from halgate.cli.app import app
    from typer.testing import CliRunner

    reports = []
    for i in range(2):
        out = tmp_path / f"r{i}.json"
        args = ["run", str(EXAMPLE), "--judge", "llm", "--base-url", strict_server.url]
        args += ["--api-key", KEY, "--db", str(tmp_path / "h.db"), "--out", str(out), "-q"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code in (0, 1, 3), result.output
        reports.append(json.loads(out.read_text()))
    first, again = reports
    assert [a["harness_error"] for a in first["analyses"] if a["harness_error"]] == []
    assert first["usage"]["calls"] == len(strict_server.completions()) > 0
    assert again["usage"]["calls"] == 0 and again["usage"]["cached"] == first["usage"]["calls"]
