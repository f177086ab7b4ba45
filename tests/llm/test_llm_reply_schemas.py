"""The LLM judge's reply schemas are generated per request from its pydantic reply models:
``answers`` holds exactly one required entry per answer id, ``doc_id`` is an enum of the
case's documents, a batch's ``cases`` one required entry per case id. The schema sent as the
response format is the request's model's, strict-mode shaped, and it refuses what the
hand-written schemas of old refused, and more: ids the request does not have."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.llm.parse import ParseFailure, parse_batch_reply, parse_reply, repair_message
from halgate.judges.llm.reply_schemas import (
    PAIRWISE_FORMAT,
    AnswerOut,
    CitationOut,
    ClaimOut,
    ClaimsOutput,
    PairwiseOutput,
    ReplyShape,
    batch_format,
    batch_reply_model,
    claims_format,
    reply_model,
)
from halgate.judges.registry import create_judge
from halgate.models import Mode
from halgate.run.engine import run_suite

from ..conftest import load_fake_openai

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
CLAIMS = {"answers": {"A": {"claim_count": 1, "claims": [CLAIM]}}}
PAIRWISE = {"preference": "A", "justification": "j", "confidence": 0.5, "tie_breaker": None}
ONE = ReplyShape(("A",), ("d",))
TWO = ReplyShape(("A", "B"), ("leaflet", "policy", "x:reference"))
NO_DOCS = ReplyShape(("A",), ())
BATCH = (("C1", ONE), ("C2", TWO), ("C3", NO_DOCS))
SCHEMAS = {
    "one": claims_format(ONE).schema,
    "two": claims_format(TWO).schema,
    "no_docs": claims_format(NO_DOCS).schema,
    "batch": batch_format(BATCH).schema,
    "pairwise": PAIRWISE_FORMAT.schema,
}


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _answers(schema: dict, root: dict | None = None) -> dict:
    return _resolve(schema, (root or schema)["properties"]["answers"])


def _doc_ids(schema: dict, answers: dict) -> list[str] | None:
    """The doc_id enum of one case's claims (None when it may cite nothing)."""
    answer = _resolve(schema, next(iter(answers["properties"].values())))
    claim = _resolve(schema, answer["properties"]["claims"]["items"])
    citations = claim["properties"]["citations"]
    if citations.get("maxItems") == 0:
        return None
    citation = _resolve(schema, citations["items"])
    return _resolve(schema, citation["properties"]["doc_id"])["enum"]


def test_the_reply_models_are_specialised_from_the_generic_ones() -> None:
    """Subclasses of the reply models built with create_model, never schemas by hand."""
    answers = reply_model(TWO).model_fields["answers"].annotation
    answer = next(iter(answers.model_fields.values())).annotation
    claim = answer.model_fields["claims"].annotation.__args__[0]
    citation = claim.model_fields["citations"].annotation.__args__[0]
    assert issubclass(answer, AnswerOut) and issubclass(claim, ClaimOut)
    assert issubclass(citation, CitationOut)


SHAPES = [
    ONE,
    TWO,
    NO_DOCS,
    ReplyShape(("A", "B"), ("d", "d")),  # an id twice: once in the enum
    ReplyShape(("B",), ('a "quoted" id', "ünïcode", "C1_DocId")),
]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_the_schema_sent_is_exactly_the_specialised_models(shape: ReplyShape) -> None:
    """The fast path (the generated schema of a placeholder shape, with the ids put in) is
    what pydantic generates for the request's own model."""
    fmt = claims_format(shape)
    assert fmt.name == "halgate_claims"
    assert fmt.schema == reply_model(shape).model_json_schema()
    assert claims_format(shape) is fmt  # built once per shape


@pytest.mark.parametrize(
    "cases",
    [
        BATCH,
        (("C1", TWO), ("C2", TWO)),
        (("C1", ONE),),
        tuple((f"C{i}", s) for i, s in enumerate(SHAPES)),
    ],
    ids=["mixed", "same", "one", "all"],
)
def test_the_batch_schema_sent_is_exactly_the_specialised_models(cases) -> None:
    fmt = batch_format(cases)
    assert fmt.name == "halgate_claims_batch"
    assert fmt.schema == batch_reply_model(cases).model_json_schema()


def test_the_pairwise_schema_is_the_models() -> None:
    assert PAIRWISE_FORMAT.schema == PairwiseOutput.model_json_schema()


def test_answer_ids_are_required_keys_and_doc_ids_an_enum() -> None:
    for shape in (ONE, TWO, NO_DOCS):
        schema = claims_format(shape).schema
        answers = _answers(schema)
        assert list(answers["properties"]) == list(shape.answer_ids)
        assert answers["required"] == list(shape.answer_ids)
        assert answers["additionalProperties"] is False
        assert _doc_ids(schema, answers) == (list(shape.doc_ids) if shape.doc_ids else None)


def test_a_batch_has_one_required_entry_per_case_each_with_its_own_ids() -> None:
    schema = batch_format(BATCH).schema
    cases = _resolve(schema, schema["properties"]["cases"])
    assert cases["required"] == ["C1", "C2", "C3"] and cases["additionalProperties"] is False
    for label, shape in BATCH:
        answers = _answers(schema, _resolve(schema, cases["properties"][label]))
        assert answers["required"] == list(shape.answer_ids)
        assert _doc_ids(schema, answers) == (list(shape.doc_ids) if shape.doc_ids else None)


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


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_schemas_fit_strict_structured_outputs(name: str) -> None:
    """Strict mode: every object closed and with every property required, no defaults, no
    $ref beside other keywords, ids as enums (no const, no prefixItems)."""
    schema = SCHEMAS[name]
    objects = list(_objects(schema))
    assert objects and schema["type"] == "object"
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert sorted(obj["required"]) == sorted(obj["properties"])
    for node in _nodes(schema):
        assert "default" not in node and "const" not in node and "prefixItems" not in node
        assert "$ref" not in node or set(node) == {"$ref"}
    assert load_fake_openai().strict_schema_problem(schema) is None


_ID = re.compile(r'<(answer|document|case) id="([^"]*)"')


def _shape_of(block: str) -> ReplyShape:
    found = _ID.findall(block)
    answers = tuple(i for tag, i in found if tag == "answer")
    return ReplyShape(answers, tuple(dict.fromkeys(i for tag, i in found if tag == "document")))


def _expected_format(user: str):
    cases = load_fake_openai().case_blocks(user)
    if cases:
        return batch_format(tuple((label, _shape_of(body)) for label, body in cases))
    return claims_format(_shape_of(user))


@pytest.mark.usefixtures("isolated_llm_env")
@pytest.mark.parametrize("max_batch, name", [(1, "halgate_claims"), (8, "halgate_claims_batch")])
def test_the_schema_sent_is_the_requests_own(tiny_suite, fake_openai, tmp_path, max_batch, name):
    llm = create_judge(
        "llm", base_url=fake_openai.url, api_key=KEY, db=str(tmp_path / "h.db"), max_batch=max_batch
    )
    run_suite(load_suite(tiny_suite), llm, Policy())
    requests = fake_openai.completions()
    assert requests
    for r in requests:
        fmt = r.body["response_format"]["json_schema"]
        assert fmt["strict"] is True and fmt["name"] == name
        assert fmt["schema"] == _expected_format(r.user).schema


@pytest.mark.usefixtures("isolated_llm_env")
def test_the_pairwise_schema_sent_is_the_models(tiny_suite, fake_openai, tmp_path):
    llm = create_judge(
        "llm", base_url=fake_openai.url, api_key=KEY, db=str(tmp_path / "h.db"), mode="pairwise"
    )
    run_suite(load_suite(tiny_suite), llm, Policy(), mode=Mode.PAIRWISE)
    for r in fake_openai.completions():
        fmt = r.body["response_format"]["json_schema"]
        assert (fmt["name"], fmt["strict"]) == ("halgate_pairwise", True)
        assert fmt["schema"] == PairwiseOutput.model_json_schema()


_DROP = object()


def _claim_with(**change: Any) -> dict:
    reply = copy.deepcopy(CLAIMS)
    claim = reply["answers"]["A"]["claims"][0]
    for key, value in change.items():
        if value is _DROP:
            del claim[key]
        else:
            claim[key] = value
    return reply


def test_a_valid_reply_parses_to_the_internal_records() -> None:
    parsed = parse_reply(json.dumps(CLAIMS), "claims", ONE)
    assert isinstance(parsed, ClaimsOutput) and list(parsed.answers) == ["A"]
    citation = parsed.answers["A"].claims[0].citations[0]
    assert type(citation.doc_id) is str and citation.doc_id == "d"  # a plain id, not an enum
    assert isinstance(parse_reply(json.dumps(PAIRWISE), "pairwise"), PairwiseOutput)
    nulls = _claim_with(hallucination_type=None, severity=None, citations=[])
    assert isinstance(parse_reply(json.dumps(nulls), "claims", ONE), ClaimsOutput)
    assert isinstance(parse_reply(json.dumps(nulls), "claims", NO_DOCS), ClaimsOutput)
    two = {"answers": {"B": CLAIMS["answers"]["A"], "A": CLAIMS["answers"]["A"]}}
    text = json.dumps(two).replace('"d"', '"x:reference"')
    assert list(parse_reply(text, "claims", TWO).answers) == ["B", "A"]  # any key order


@pytest.mark.parametrize(
    "reply, kind, words",
    [
        # a missing field (nullable ones too: strict mode wants every field present)
        (_claim_with(rationale=_DROP), "claims", "'rationale' is a required property"),
        (_claim_with(severity=_DROP), "claims", "'severity' is a required property"),
        (_claim_with(citations=_DROP), "claims", "'citations' is a required property"),
        ({"answers": {"A": {"claims": []}}}, "claims", "'claim_count' is a"),
        ({k: v for k, v in PAIRWISE.items() if k != "tie_breaker"}, "pairwise", "'tie_breaker'"),
        # a wrong enum value
        (_claim_with(verdict="TRUE"), "claims", "'TRUE' is not one of"),
        (_claim_with(hallucination_type="LIE"), "claims", "'LIE' is not one of"),
        (_claim_with(severity="SEVERE"), "claims", "'SEVERE' is not one of"),
        (dict(PAIRWISE, preference="C"), "pairwise", "'C' is not one of ['A', 'B', 'TIE']"),
        # an id the request does not have, or one it has left out
        (_claim_with(citations=[{"doc_id": "nope", "quote": "q"}]), "claims", "'nope' is not one"),
        ({"answers": {}}, "claims", "'A' is a required property"),
        ({"answers": []}, "claims", "is not of type 'object'"),
        ({"answers": dict(CLAIMS["answers"], B=CLAIMS["answers"]["A"])}, "claims", "'B' was"),
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
            {"answers": {"A": {"claim_count": -1, "claims": []}}},
            "claims",
            "-1 is less than the minimum of 0",
        ),
    ],
)
def test_the_schema_refuses_invalid_replies(reply, kind, words) -> None:
    failure = parse_reply(json.dumps(reply), kind, ONE if kind == "claims" else None)
    assert isinstance(failure, ParseFailure)
    assert failure.message.startswith("schema violation at ") and words in failure.message
    assert failure.message in repair_message(failure)  # quoted back to the model verbatim


def test_a_case_without_documents_may_cite_nothing() -> None:
    failure = parse_reply(json.dumps(CLAIMS), "claims", NO_DOCS)
    assert isinstance(failure, ParseFailure) and "is expected to be empty" in failure.message


def test_a_batched_case_with_an_extra_key_fails_alone() -> None:
    good = CLAIMS
    bad = _claim_with(note="hi")
    reply = parse_batch_reply(
        json.dumps({"cases": {"C1": good, "C2": bad}}), {"C1": ONE, "C2": ONE}
    )
    assert not isinstance(reply, ParseFailure)
    assert isinstance(reply.cases["C1"], ClaimsOutput)
    failure = reply.cases["C2"]
    assert isinstance(failure, ParseFailure) and "'note' was unexpected" in failure.message
    assert json.loads(reply.entries["C2"]) == bad  # its part, to repair alone


def test_a_batched_reply_missing_a_case_or_its_cases_object() -> None:
    reply = parse_batch_reply(json.dumps({"cases": {"C1": CLAIMS}}), {"C1": ONE, "C2": ONE})
    assert not isinstance(reply, ParseFailure) and isinstance(reply.cases["C1"], ClaimsOutput)
    missing = reply.cases["C2"]
    assert isinstance(missing, ParseFailure) and "C2 is missing" in missing.message
    assert "C2" not in reply.entries  # asked alone from scratch
    whole = parse_batch_reply(json.dumps({"cases": [CLAIMS]}), {"C1": ONE})
    assert isinstance(whole, ParseFailure) and '"cases" object' in whole.message
