"""How a reply of the LLM judge is checked before anything trusts it.

A reply is validated with ``jsonschema`` against its request's own schema
(``reply_schemas``: only the request's answer, document and case ids are admitted), then
parsed by the reply models into the same records for every request (``ClaimsOutput``:
answer id -> claims; ``PairwiseOutput``). A reply that fails either check yields a
``ParseFailure`` whose message is quoted back to the model in a repair request. Whatever the
schema admits parses, whatever its texts say: the post-checks judge those.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, cast

import jsonschema
from pydantic import ValidationError

from .reply_schemas import (
    ClaimsOutput,
    OutputKind,
    PairwiseOutput,
    ReplyFormat,
    ReplyShape,
    reply_format,
)


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
    text: str, kind: OutputKind, shape: ReplyShape | None = None
) -> ClaimsOutput | PairwiseOutput | ParseFailure:
    """Validate a reply against its request's schema and parse it; a failure explains itself.

    Whatever the schema admits parses: claims map to ``ClaimsOutput`` (answer id -> claims,
    doc ids as plain strings), whatever their texts say; the post-checks judge those.
    """
    fmt = reply_format(kind, shape)
    try:
        data = extract_json(text)
    except json.JSONDecodeError as exc:
        return ParseFailure(f"the reply is not valid JSON ({exc.msg} at position {exc.pos})")
    failure = _schema_failure(fmt, data)
    if failure is not None:
        return failure
    model = PairwiseOutput if kind == "pairwise" else ClaimsOutput
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        return ParseFailure(f"invalid value at {first['loc']}: {first['msg']}")


def _schema_failure(fmt: ReplyFormat, data: Any) -> ParseFailure | None:
    errors = list(fmt.validator.iter_errors(data))
    error = jsonschema.exceptions.best_match(errors)
    if error is None:
        return None
    where = "/".join(map(str, error.absolute_path)) or "(root)"
    # A wrong id breaks two rules at one place ('Z' unexpected, 'A' required): say both.
    also = [e.message for e in errors if e.absolute_path == error.absolute_path]
    said = "; ".join(m[:300] for m in dict.fromkeys([error.message, *also[:3]]))
    return ParseFailure(f"schema violation at {where}: {said}")


@dataclass(frozen=True)
class BatchReply:
    """A batched reply split per case: each case parsed on its own, or why it was not.

    ``entries`` keeps each case's part of the reply, itself a one-case reply
    (``{"answers": ..}``), so a case that failed can be repaired alone, quoting its own error.
    """

    cases: dict[str, ClaimsOutput | ParseFailure]
    entries: dict[str, str]


def parse_batch_reply(text: str, expected: dict[str, ReplyShape]) -> BatchReply | ParseFailure:
    """Split a batched reply by case id (``expected``: case label -> its shape) and parse each.

    Only a reply that is not JSON, or has no ``cases`` object, fails as a whole; a case that
    is missing or invalid fails alone and leaves the others usable.
    """
    try:
        data = extract_json(text)
    except json.JSONDecodeError as exc:
        return ParseFailure(f"the reply is not valid JSON ({exc.msg} at position {exc.pos})")
    items = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(items, dict):
        return ParseFailure('the reply must be an object with a "cases" object keyed by case id')
    cases: dict[str, ClaimsOutput | ParseFailure] = {}
    entries: dict[str, str] = {}
    for label, shape in expected.items():
        if label not in items:
            cases[label] = ParseFailure(f"case {label} is missing from the reply")
            continue
        entries[label] = json.dumps(items[label], ensure_ascii=False)
        parsed = parse_reply(entries[label], "claims", shape)
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
