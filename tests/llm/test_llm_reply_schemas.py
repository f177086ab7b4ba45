"""The LLM judge's reply schemas are generated from its pydantic reply models: the schema
sent as the response format is the model's, strict-mode shaped, and it refuses what the
hand-written schemas it replaced refused."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.llm.parse import (
    REPLY_MODELS,
    SCHEMAS,
    BatchOutput,
    ClaimsOutput,
    PairwiseOutput,
    ParseFailure,
    parse_batch_reply,
    parse_reply,
    repair_message,
)
from halgate.judges.registry import create_judge
from halgate.models import Mode
from halgate.run.engine import run_suite

KEY = "sk-halgate-schemas-0123456789abcdef"

CLAIM = {
    "text": "x",
    "verdict": "UNSUPPORTED",
    "hallucination_type": "FABRICATION",
    "severity": "HIGH",
    "confidence": 0.9,
    "rationale": "r",
    "citations": [{"doc_id": "d", "quote": "q"}],
}
CLAIMS = {"answers": [{"answer_id": "A", "claim_count": 1, "claims": [CLAIM]}]}
PAIRWISE = {"preference": "A", "justification": "j", "confidence": 0.5, "tie_breaker": None}


def test_the_schemas_are_generated_from_the_reply_models() -> None:
    assert REPLY_MODELS == {
        "claims": ClaimsOutput,
        "pairwise": PairwiseOutput,
        "claims_batch": BatchOutput,
    }
    for kind, model in REPLY_MODELS.items():
        assert SCHEMAS[kind] == model.model_json_schema(), kind


def _objects(node: Any):
    """Every object schema in a schema (root, $defs, nested)."""
    if isinstance(node, dict):
        if node.get("type") == "object":
            yield node
        for value in node.values():
            yield from _objects(value)
    elif isinstance(node, list):
        for value in node:
            yield from _objects(value)


def _nodes(node: Any):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_the_schemas_fit_strict_structured_outputs(kind: str) -> None:
    """Strict mode: every object closed and with every property required, no defaults, and no
    $ref beside other keywords (the API does not accept them)."""
    schema = SCHEMAS[kind]
    objects = list(_objects(schema))
    assert objects
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert sorted(obj["required"]) == sorted(obj["properties"])
    for node in _nodes(schema):
        assert "default" not in node
        assert "$ref" not in node or set(node) == {"$ref"}


def _sent_schemas(fake) -> dict[str, dict]:
    out = {}
    for r in fake.completions():
        fmt = r.body["response_format"]["json_schema"]
        assert fmt["strict"] is True
        out[fmt["name"]] = fmt["schema"]
    return out


@pytest.mark.usefixtures("isolated_llm_env")
@pytest.mark.parametrize("max_batch, kind", [(1, "claims"), (8, "claims_batch")])
def test_the_schema_sent_is_the_models(tiny_suite, fake_openai, tmp_path, max_batch, kind):
    llm = create_judge(
        "llm", base_url=fake_openai.url, api_key=KEY, db=str(tmp_path / "h.db"), max_batch=max_batch
    )
    run_suite(load_suite(tiny_suite), llm, Policy())
    sent = _sent_schemas(fake_openai)
    assert sent == {f"halgate_{kind}": REPLY_MODELS[kind].model_json_schema()}


@pytest.mark.usefixtures("isolated_llm_env")
def test_the_pairwise_schema_sent_is_the_models(tiny_suite, fake_openai, tmp_path):
    llm = create_judge(
        "llm", base_url=fake_openai.url, api_key=KEY, db=str(tmp_path / "h.db"), mode="pairwise"
    )
    run_suite(load_suite(tiny_suite), llm, Policy(), mode=Mode.PAIRWISE)
    assert _sent_schemas(fake_openai) == {"halgate_pairwise": PairwiseOutput.model_json_schema()}


def _claim_with(**change: Any) -> dict:
    reply = copy.deepcopy(CLAIMS)
    claim = reply["answers"][0]["claims"][0]
    for key, value in change.items():
        if value is _DROP:
            del claim[key]
        else:
            claim[key] = value
    return reply


_DROP = object()


def test_a_valid_reply_parses() -> None:
    assert isinstance(parse_reply(json.dumps(CLAIMS), "claims", ["A"]), ClaimsOutput)
    assert isinstance(parse_reply(json.dumps(PAIRWISE), "pairwise"), PairwiseOutput)
    nulls = _claim_with(hallucination_type=None, severity=None, citations=[])
    assert isinstance(parse_reply(json.dumps(nulls), "claims", ["A"]), ClaimsOutput)


@pytest.mark.parametrize(
    "reply, kind, words",
    [
        # a missing field (nullable ones too: strict mode wants every field present)
        (_claim_with(rationale=_DROP), "claims", "'rationale' is a required property"),
        (_claim_with(severity=_DROP), "claims", "'severity' is a required property"),
        (_claim_with(citations=_DROP), "claims", "'citations' is a required property"),
        ({"answers": [{"answer_id": "A", "claims": []}]}, "claims", "'claim_count' is a"),
        ({k: v for k, v in PAIRWISE.items() if k != "tie_breaker"}, "pairwise", "'tie_breaker'"),
        # a wrong enum value
        (_claim_with(verdict="TRUE"), "claims", "'TRUE' is not one of"),
        (_claim_with(hallucination_type="LIE"), "claims", "'LIE' is not one of"),
        (_claim_with(severity="SEVERE"), "claims", "'SEVERE' is not one of"),
        (dict(PAIRWISE, preference="C"), "pairwise", "'C' is not one of ['A', 'B', 'TIE']"),
        # an extra key, at any depth
        (dict(CLAIMS, note="hi"), "claims", "('note' was unexpected)"),
        (_claim_with(note="hi"), "claims", "('note' was unexpected)"),
        (
            _claim_with(citations=[{"doc_id": "d", "quote": "q", "page": 1}]),
            "claims",
            "('page' was unexpected)",
        ),
        (dict(PAIRWISE, winner="A"), "pairwise", "('winner' was unexpected)"),
        # ranges and lengths
        (_claim_with(confidence=1.7), "claims", "1.7 is greater than the maximum of 1"),
        (_claim_with(text=""), "claims", "should be non-empty"),
        (dict(PAIRWISE, justification=""), "pairwise", "should be non-empty"),
        (
            {"answers": [{"answer_id": "A", "claim_count": -1, "claims": []}]},
            "claims",
            "-1 is less than the minimum of 0",
        ),
    ],
)
def test_the_schema_refuses_what_the_hand_written_one_refused(reply, kind, words) -> None:
    failure = parse_reply(json.dumps(reply), kind, ["A"] if kind == "claims" else None)
    assert isinstance(failure, ParseFailure)
    assert failure.message.startswith("schema violation at ") and words in failure.message
    assert failure.message in repair_message(failure)  # quoted back to the model verbatim


def test_a_batched_case_with_an_extra_key_fails_alone() -> None:
    good = {"case_id": "C1", "answers": CLAIMS["answers"]}
    bad = {"case_id": "C2", "answers": _claim_with(note="hi")["answers"]}
    reply = parse_batch_reply(json.dumps({"cases": [good, bad]}), {"C1": ["A"], "C2": ["A"]})
    assert not isinstance(reply, ParseFailure)
    assert isinstance(reply.cases["C1"], ClaimsOutput)
    failure = reply.cases["C2"]
    assert isinstance(failure, ParseFailure) and "'note' was unexpected" in failure.message
