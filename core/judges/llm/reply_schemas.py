"""The replies the LLM judge asks for: the reply models, and each request's own schema.

The pydantic models below are the single definition of a reply. A request's reply model is
specialised from them (``reply_model``, ``create_model``) so that it admits only usable
replies: ``answers`` is an object with exactly one required entry per answer id of the
request, a citation's ``doc_id`` is an enum of the case's document ids (a case without
documents cites nothing), and a batch's ``cases`` holds one required entry per case id, each
with that case's own ids (``batch_reply_model``). That model's JSON Schema is sent as the
``response_format`` in strict mode and validates the reply. So a server that follows the
schema exactly (vLLM guided decoding, llama.cpp grammars, OpenAI strict mode) can only write
replies that parse. The parser maps every one of them to the generic records
(``ClaimsOutput``: answer id -> claims).

Strict mode shapes every object: every field required (nullable ones take ``null``), no
defaults, unknown keys refused (``additionalProperties: false``); ids are enums, never
``const`` or ``prefixItems``.

Building models per request is slow (milliseconds), and every request has its own ids. So
``claims_format`` and ``batch_format`` take the schema pydantic generates for a placeholder
shape, once, and put the request's ids into it; tests/llm/test_llm_reply_schemas.py checks
that this equals ``reply_model(shape).model_json_schema()`` (and the batch's) exactly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Literal, cast

import jsonschema
from pydantic import BaseModel, ConfigDict, Field, create_model

from ...models import HallucinationType, Severity, Verdict


class _Reply(BaseModel):
    """A part of a reply: every field required, nothing else allowed."""

    model_config = ConfigDict(extra="forbid")


class CitationOut(_Reply):
    """A verbatim quote from one source document backing the claim."""

    doc_id: str
    quote: str


class ClaimOut(_Reply):
    """One claim of the answer and its verdict against the sources."""

    text: str = Field(min_length=1)
    verdict: Verdict
    hallucination_type: HallucinationType | None
    severity: Severity | None
    confidence: float = Field(ge=0, le=1)
    rationale: str
    citations: list[CitationOut]


class AnswerOut(_Reply):
    """The claims of one answer."""

    claim_count: int = Field(ge=0)
    claims: list[ClaimOut]


class ClaimsOutput(_Reply):
    """Reply of the compare, gate and consistency prompts: each answer's claims by its id."""

    answers: dict[str, AnswerOut]


class BatchOutput(_Reply):
    """Reply of the batched prompts: each case's reply by its case id."""

    cases: dict[str, ClaimsOutput]


class PairwiseOutput(_Reply):
    """Reply of the pairwise prompt."""

    preference: Literal["A", "B", "TIE"]
    justification: str = Field(min_length=1)
    confidence: float = Field(ge=0, le=1)
    tie_breaker: str | None


OutputKind = Literal["claims", "pairwise"]


@dataclass(frozen=True)
class ReplyShape:
    """What one case's reply must hold: its answer ids, and the document ids it may cite."""

    answer_ids: tuple[str, ...]
    doc_ids: tuple[str, ...]


@dataclass(frozen=True)
class ReplyFormat:
    """A request's reply schema (sent as the response format) and its validator."""

    name: str
    schema: dict[str, Any]
    validator: jsonschema.Draft202012Validator


def _format(name: str, schema: dict[str, Any]) -> ReplyFormat:
    return ReplyFormat(name, schema, jsonschema.Draft202012Validator(schema))


def _ids(name: str, values: tuple[str, ...]) -> type[Enum]:
    """A string enum of the given ids, as the schema's ``enum`` of a field."""
    members = {f"v{i}": v for i, v in enumerate(dict.fromkeys(values))}
    return cast(type[Enum], Enum(name, members, type=str))


def _keyed(name: str, doc: str, keys: tuple[str, ...], value: type[BaseModel]) -> type[BaseModel]:
    """An object with exactly one required property per key, each holding a ``value``."""
    fields: dict[str, Any] = {f"k{i}": (value, Field(alias=k)) for i, k in enumerate(keys)}
    return create_model(name, __base__=_Reply, __doc__=doc, **fields)


def reply_model(shape: ReplyShape, prefix: str = "") -> type[BaseModel]:
    """The reply model of one case, specialised from the models above (names ``prefix``-ed)."""
    citations: Any = (list[CitationOut], Field(max_length=0))
    if shape.doc_ids:
        doc_id = _ids(f"{prefix}DocId", shape.doc_ids)
        citation = create_model(
            f"{prefix}Citation",
            __base__=CitationOut,
            __doc__=CitationOut.__doc__,
            doc_id=(doc_id, ...),
        )
        citations = (list[citation], ...)  # type: ignore[valid-type]
    claim = create_model(
        f"{prefix}Claim", __base__=ClaimOut, __doc__=ClaimOut.__doc__, citations=citations
    )
    answer = create_model(
        f"{prefix}Answer",
        __base__=AnswerOut,
        __doc__=AnswerOut.__doc__,
        claims=(list[claim], ...),  # type: ignore[valid-type]
    )
    answers = _keyed(f"{prefix}Answers", "One entry per answer id.", shape.answer_ids, answer)
    return create_model(
        f"{prefix}ClaimsOutput",
        __base__=_Reply,
        __doc__=ClaimsOutput.__doc__,
        answers=(answers, ...),
    )


def batch_reply_model(cases: tuple[tuple[str, ReplyShape], ...]) -> type[BaseModel]:
    """The reply model of a batch: one required entry per case id, each its case's model."""
    parts = [(label, reply_model(shape, f"{label}_")) for label, shape in cases]
    fields: dict[str, Any] = {
        f"k{i}": (model, Field(alias=label)) for i, (label, model) in enumerate(parts)
    }
    keyed = create_model("Cases", __base__=_Reply, __doc__="One entry per case id.", **fields)
    return create_model(
        "BatchOutput", __base__=_Reply, __doc__=BatchOutput.__doc__, cases=(keyed, ...)
    )


# --------------------------------------------------------------------------- fast path

_ID = "ID"  # the placeholder id of the template shapes (replaced, never searched for)
_DEFS = "#/$defs/"
# The definitions that belong to one case (the others, Verdict & co, are shared in a batch).
_CASE_DEFS = ("ClaimsOutput", "Answers", "Answer", "Claim", "Citation", "DocId")


@lru_cache(maxsize=2)
def _case_template(with_docs: bool) -> dict[str, Any]:
    """The generated schema of a one-answer case with placeholder ids."""
    return reply_model(ReplyShape((_ID,), (_ID,) if with_docs else ())).model_json_schema()


@lru_cache(maxsize=1)
def _batch_template() -> dict[str, Any]:
    """The generated schema of a one-case batch with a placeholder case id."""
    return batch_reply_model(((_ID, ReplyShape((_ID,), ())),)).model_json_schema()


def _case_schema(shape: ReplyShape) -> dict[str, Any]:
    """``reply_model(shape).model_json_schema()``, from the template."""
    schema = copy.deepcopy(_case_template(bool(shape.doc_ids)))
    defs = schema["$defs"]
    if shape.doc_ids:
        defs["DocId"]["enum"] = list(dict.fromkeys(shape.doc_ids))
    answers = defs["Answers"]
    entry = answers["properties"][_ID]
    answers["properties"] = {a: dict(entry) for a in shape.answer_ids}
    answers["required"] = list(shape.answer_ids)
    return schema


def _prefixed(node: Any, prefix: str) -> Any:
    """A case's schema part with its own definitions renamed (refs and titles) for a batch."""
    if isinstance(node, list):
        return [_prefixed(v, prefix) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _prefixed(v, prefix) for k, v in node.items()}
    ref = out.get("$ref")
    if isinstance(ref, str) and ref.removeprefix(_DEFS) in _CASE_DEFS:
        out["$ref"] = _DEFS + prefix + ref.removeprefix(_DEFS)
    if out.get("title") in _CASE_DEFS and "type" in out:
        out["title"] = prefix + out["title"]
    return out


def _batch_schema(cases: tuple[tuple[str, ReplyShape], ...]) -> dict[str, Any]:
    """``batch_reply_model(cases).model_json_schema()``, from the templates."""
    schema = copy.deepcopy(_batch_template())
    defs = {"Cases": schema["$defs"]["Cases"]}  # each case brings its own (and the shared)
    keyed = defs["Cases"]
    keyed["properties"], keyed["required"] = {}, []
    for label, shape in cases:
        one = _case_schema(shape)
        prefix = f"{label}_"
        for name, part in one.pop("$defs").items():
            defs[prefix + name if name in _CASE_DEFS else name] = _prefixed(part, prefix)
        defs[prefix + "ClaimsOutput"] = _prefixed(one, prefix)
        keyed["properties"][label] = {"$ref": f"{_DEFS}{prefix}ClaimsOutput"}
        keyed["required"].append(label)
    schema["$defs"] = defs
    return schema


@lru_cache(maxsize=4096)
def claims_format(shape: ReplyShape) -> ReplyFormat:
    """The reply format of a one-case claims request."""
    return _format("halgate_claims", _case_schema(shape))


@lru_cache(maxsize=512)
def batch_format(cases: tuple[tuple[str, ReplyShape], ...]) -> ReplyFormat:
    """The reply format of a batch: one required entry per case id, each its case's reply."""
    return _format("halgate_claims_batch", _batch_schema(cases))


PAIRWISE_FORMAT = _format("halgate_pairwise", PairwiseOutput.model_json_schema())


def reply_format(kind: OutputKind, shape: ReplyShape | None) -> ReplyFormat:
    """The reply format of a request of this kind (claims requests need their shape)."""
    if kind == "pairwise":
        return PAIRWISE_FORMAT
    if shape is None:
        raise ValueError("a claims request needs its reply shape")
    return claims_format(shape)
