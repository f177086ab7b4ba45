"""What the LLM judge must answer, and how a reply is checked before anything trusts it.

The reply models below are the single definition of each reply: their JSON Schemas
(``Model.model_json_schema()``) are sent as the ``response_format`` in strict mode and used
to validate the reply with ``jsonschema``; the models then parse it. To stay strict-mode
compatible every field is required (nullable ones take ``null``), no field has a default and
unknown keys are refused (``additionalProperties: false``). A reply that fails either check
yields a ``ParseFailure`` whose message is quoted back to the model in a repair request.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal, cast

import jsonschema
from pydantic import BaseModel, ConfigDict, Field, ValidationError

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
    """The claims of one answer, by its answer id (A, B)."""

    answer_id: str
    claim_count: int = Field(ge=0)
    claims: list[ClaimOut]


class ClaimsOutput(_Reply):
    """Reply of the compare, gate and consistency prompts."""

    answers: list[AnswerOut]


class CaseOut(_Reply):
    """The answers of one case of a batch, by its case id."""

    case_id: str
    answers: list[AnswerOut]


class BatchOutput(_Reply):
    """Reply of the batched prompts: one entry per case."""

    cases: list[CaseOut]


class PairwiseOutput(_Reply):
    """Reply of the pairwise prompt."""

    preference: Literal["A", "B", "TIE"]
    justification: str = Field(min_length=1)
    confidence: float = Field(ge=0, le=1)
    tie_breaker: str | None


REPLY_MODELS: dict[str, type[_Reply]] = {
    "claims": ClaimsOutput,
    "pairwise": PairwiseOutput,
    "claims_batch": BatchOutput,
}
SCHEMAS: dict[str, dict[str, Any]] = {
    kind: model.model_json_schema() for kind, model in REPLY_MODELS.items()
}
# Built once: constructing a validator costs more than validating a typical reply.
_VALIDATORS = {kind: jsonschema.Draft202012Validator(schema) for kind, schema in SCHEMAS.items()}
OutputKind = Literal["claims", "pairwise"]


@dataclass(frozen=True)
class ParseFailure:
    """Why a reply was rejected, phrased so it can be quoted to the model in a repair."""

    message: str


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def extract_json(text: str) -> Any:
    """The JSON value in a reply, tolerating code fences and chatter around one object."""
    fenced = _FENCE.match(text)
    body = fenced.group(1) if fenced else text.strip()
    try:
        return json.loads(body)
    except json.JSONDecodeError as first:
        start, end = body.find("{"), body.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(body[start : end + 1])
            except json.JSONDecodeError:
                pass
        raise first


def parse_reply(
    text: str, kind: OutputKind, answer_ids: list[str] | None = None
) -> ClaimsOutput | PairwiseOutput | ParseFailure:
    """Validate a reply against its schema and parse it; a failure explains itself."""
    try:
        data = extract_json(text)
    except json.JSONDecodeError as exc:
        return ParseFailure(f"the reply is not valid JSON ({exc.msg} at position {exc.pos})")
    error = jsonschema.exceptions.best_match(_VALIDATORS[kind].iter_errors(data))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "(root)"
        return ParseFailure(f"schema violation at {where}: {error.message[:300]}")
    model = PairwiseOutput if kind == "pairwise" else ClaimsOutput
    try:
        parsed = model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        return ParseFailure(f"invalid value at {first['loc']}: {first['msg']}")
    if isinstance(parsed, ClaimsOutput) and answer_ids is not None:
        got = [a.answer_id for a in parsed.answers]
        if sorted(got) != sorted(answer_ids):
            return ParseFailure(
                f"answers must have answer_id exactly {answer_ids} (one entry each); got {got}"
            )
    return parsed


@dataclass(frozen=True)
class BatchReply:
    """A batched reply split per case: each case parsed on its own, or why it was not.

    ``entries`` keeps each case's part of the reply as a one-case reply (``{"answers": ..}``),
    so a case that failed can be repaired alone, quoting its own error.
    """

    cases: dict[str, ClaimsOutput | ParseFailure]
    entries: dict[str, str]


def parse_batch_reply(text: str, expected: dict[str, list[str]]) -> BatchReply | ParseFailure:
    """Split a batched reply by case id (``expected``: case label -> answer ids) and parse each.

    Only a reply that is not JSON, or has no ``cases`` list, fails as a whole; a case that is
    missing, repeated or invalid fails alone and leaves the others usable.
    """
    try:
        data = extract_json(text)
    except json.JSONDecodeError as exc:
        return ParseFailure(f"the reply is not valid JSON ({exc.msg} at position {exc.pos})")
    items = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return ParseFailure('the reply must be an object with a "cases" list')
    by_id: dict[str, list[Any]] = {}
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("case_id"), str):
            by_id.setdefault(item["case_id"], []).append(item)
    cases: dict[str, ClaimsOutput | ParseFailure] = {}
    entries: dict[str, str] = {}
    for label, answer_ids in expected.items():
        found = by_id.get(label, [])
        if len(found) != 1:
            cases[label] = ParseFailure(
                f"case {label} must appear exactly once in the reply; it appears {len(found)} times"
            )
            continue
        entries[label] = json.dumps({"answers": found[0].get("answers")}, ensure_ascii=False)
        parsed = parse_reply(entries[label], "claims", answer_ids)
        ok = not isinstance(parsed, ParseFailure)
        cases[label] = cast(ClaimsOutput, parsed) if ok else cast(ParseFailure, parsed)
    return BatchReply(cases=cases, entries=entries)


def repair_message(failure: ParseFailure) -> str:
    """The user turn that asks the model to fix its previous reply."""
    return (
        f"Your previous reply could not be used: {failure.message}. "
        "Reply again with only the corrected JSON object, following the required format "
        "exactly (all fields present, enum values spelled as given)."
    )
