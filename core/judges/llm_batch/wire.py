"""The Batch API's files: the requests as JSONL lines, and the replies read back from them.

A request line is the very chat request a live call would send (same messages, temperature
0, the request's own JSON Schema as a strict ``json_schema`` response format), with the
request's cache key as its ``custom_id``, so a reply finds its way back into the cache.
An output or error line is ``{"custom_id", "response": {"status_code", "body"}, "error"}``;
a line answered 200 has a chat.completion body, read by the same function as a live reply.
Anything else is that request's error, and only its case becomes a harness error.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterable, Sequence
from typing import Any, Final

from ..llm.ask import PlannedCall, Prefetched
from ..llm.client import TransportError, read_completion
from ..llm.config import redact

ENDPOINT: Final = "/v1/chat/completions"
COMPLETION_WINDOW: Final = "24h"
# The provider's limits on one input file (OpenAI: 50,000 requests, 200 MB), with room.
MAX_REQUESTS = 50_000
MAX_BYTES = 190 * 2**20


def request_line(call: PlannedCall, model: str) -> dict[str, Any]:
    """One input line: the call's chat request, keyed by the call's cache key."""
    fmt = call.reply_format()
    return {
        "custom_id": call.key,
        "method": "POST",
        "url": ENDPOINT,
        "body": {
            "model": model,
            "messages": call.messages,
            "temperature": 0,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": fmt.name, "schema": fmt.schema, "strict": True},
            },
        },
    }


def input_files(
    calls: Sequence[PlannedCall],
    model: str,
    max_requests: int = MAX_REQUESTS,
    max_bytes: int = MAX_BYTES,
) -> list[tuple[list[str], bytes]]:
    """The calls as JSONL files within the provider's limits: (keys, file content) each."""
    files: list[tuple[list[str], bytes]] = []
    keys: list[str] = []
    lines: list[bytes] = []
    size = 0
    for call in calls:
        line = (json.dumps(request_line(call, model), ensure_ascii=False) + "\n").encode()
        if lines and (len(lines) >= max_requests or size + len(line) > max_bytes):
            files.append((keys, b"".join(lines)))
            keys, lines, size = [], [], 0
        keys.append(call.key)
        lines.append(line)
        size += len(line)
    if lines:
        files.append((keys, b"".join(lines)))
    return files


def read_output(
    lines: Iterable[str], secret: str | None = None, wanted: Container[str] | None = None
) -> dict[str, Prefetched]:
    """The replies of an output or error file by request key (``custom_id``), from its
    lines (read as they arrive: the file is never held whole); only keys in ``wanted``.

    A line that is not JSON or names no request cannot be traced to a case and is skipped;
    its request then counts as having no output line.
    """
    out: dict[str, Prefetched] = {}
    for raw in lines:
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if not isinstance(item, dict) or not isinstance(item.get("custom_id"), str):
            continue
        if wanted is None or item["custom_id"] in wanted:
            out[item["custom_id"]] = read_line(item, secret)
    return out


def read_line(item: dict[str, Any], secret: str | None = None) -> Prefetched:
    """One output line as a reply (answered 200) or as that request's error."""
    response = item.get("response") if isinstance(item.get("response"), dict) else None
    status = response.get("status_code") if response else None
    if item.get("error") or response is None or status != 200:
        why = _line_error(item.get("error"), response)
        return Prefetched(None, redact(f"the Batch API could not answer: {why}", secret))
    body = response.get("body")
    try:
        reply = read_completion(body if isinstance(body, str) else json.dumps(body))
    except TransportError as exc:
        return Prefetched(None, redact(f"the Batch API sent a bad reply: {exc}", secret))
    usage = {
        "calls": 1,
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "batch_api_calls": 1,
    }
    return Prefetched(redact(reply.text, secret), None, usage)


def _line_error(error: Any, response: dict[str, Any] | None) -> str:
    """One line naming why a request of a batch failed (code, message, HTTP status)."""
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        return "; ".join(str(x) for x in (code, message) if x)[:300] or "error"
    if response is not None:
        body = response.get("body")
        detail = ""
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            detail = f": {str(body['error'].get('message') or '')[:300]}"
        return f"HTTP {response.get('status_code')}{detail}"
    return "no response"
