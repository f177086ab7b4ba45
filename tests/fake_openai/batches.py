"""The fake's Batch API: ``/v1/files`` and ``/v1/batches``, processing each batch's lines with
the same reply logic (and the same script) as live chat completions.

Upload a JSONL file (``POST /v1/files``, multipart, purpose ``batch``), create a batch from it
(``POST /v1/batches``: endpoint ``/v1/chat/completions``, completion window ``24h``), poll it
(``GET /v1/batches/{id}``) and download its output and error files
(``GET /v1/files/{id}/content``). A batch shows ``in_progress`` for ``polls`` GETs, then ends
as ``outcome`` says: ``completed`` (every line answered), ``failed`` (validation failed:
no output), ``expired`` / ``cancelled`` (the first ``finished_lines`` answered, the rest in
the error file). A batch whose input is malformed (a line not for the batch's endpoint,
custom ids repeated) fails validation whatever ``outcome`` says.

Lines are answered when the batch ends, each through the script like a live request: a
scripted ``status`` (HTTP error) or ``drop`` hits only the lines whose messages match and
puts them in the error file; any other behaviour shapes the line's reply as it would a live
one. Processed lines are recorded in ``lines``, never among the live ``completions()``.
"""

from __future__ import annotations

import json
import threading
import time
from email.parser import BytesParser
from email.policy import default as email_policy
from typing import Any

from .replies import completion

ENDPOINT = "/v1/chat/completions"
ENDED = ("completed", "failed", "expired", "cancelled")


class FakeBatches:
    """The state of the fake's files and batches, and how its batches end."""

    def __init__(self) -> None:
        self.enabled = True  # False: a server without the Batch API (404 everywhere)
        self.polls = 0  # GETs of a batch that still show in_progress before it ends
        self.outcome = "completed"  # completed | failed | expired | cancelled
        self.finished_lines = 0  # expired / cancelled: lines answered before the end
        self.create_delay = 0.0  # seconds between creating a batch and replying (a kill window)
        self.padding = (0, 0)  # (lines, bytes each) of other requests' replies in each output
        self.files: dict[str, dict[str, Any]] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.lines: list[Any] = []  # Recorded, one per request line answered
        self.calls: list[tuple[str, str]] = []  # (method, path) of every Batch API request
        self._seen: dict[str, int] = {}
        self._n = 0
        self._lock = threading.Lock()

    def _id(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}-fake{self._n:04d}"

    def add_file(self, content: bytes, filename: str, purpose: str) -> dict[str, Any]:
        """Store a file; its metadata as the files API returns it."""
        meta = {
            "id": self._id("file"),
            "object": "file",
            "bytes": len(content),
            "created_at": int(time.time()),
            "filename": filename,
            "purpose": purpose,
            "status": "processed",
        }
        self.files[meta["id"]] = {"meta": meta, "content": content}
        return meta


def is_batch_api(path: str) -> bool:
    """Does a request path belong to the fake's Batch API?"""
    parts = path.split("?")[0].strip("/").split("/")
    return len(parts) >= 2 and parts[1] in ("files", "batches")


def serve(handler: Any, fake: Any, method: str, body: bytes) -> None:
    """Answer one Batch API request (``handler`` is the fake's request handler)."""
    state: FakeBatches = fake.batch_api
    parts = handler.path.split("?")[0].strip("/").split("/")[1:]  # after "v1"
    state.calls.append((method, "/" + "/".join(parts)))
    if not state.enabled:
        handler._json(404, _error("not found"))
        return
    with state._lock:
        reply = _route(state, fake, handler, method, parts, body)
    if reply is None:
        return  # already written (file content)
    if parts == ["batches"] and method == "POST" and state.create_delay:
        time.sleep(state.create_delay)  # created, not yet answered: the client may die here
    code, data = reply
    handler._json(code, data)


def _route(
    state: FakeBatches, fake: Any, handler: Any, method: str, parts: list[str], body: bytes
) -> tuple[int, Any] | None:
    if parts == ["files"] and method == "POST":
        form = _multipart(handler.headers.get("Content-Type", ""), body)
        if "file" not in form or form.get("purpose", (None, b""))[1] != b"batch":
            return 400, _error("a file with purpose 'batch' is required")
        filename, content = form["file"]
        return 200, state.add_file(content, filename or "upload.jsonl", "batch")
    if parts[0] == "files" and len(parts) >= 2:
        stored = state.files.get(parts[1])
        if stored is None:
            return 404, _error(f"no such file: {parts[1]}")
        if len(parts) == 3 and parts[2] == "content":
            _raw(handler, stored["content"])
            return None
        return 200, stored["meta"]
    if parts == ["batches"] and method == "POST":
        return _create(state, json.loads(body or b"{}"))
    if parts == ["batches"]:
        data = [_public(b) for b in state.batches.values()]
        return 200, {"object": "list", "data": data, "has_more": False}
    batch = state.batches.get(parts[1]) if len(parts) >= 2 else None
    if batch is None:
        return 404, _error(f"no such batch: {parts[1:]}")
    if len(parts) == 3 and parts[2] == "cancel" and method == "POST":
        if batch["status"] not in ENDED:
            _end(state, fake, batch, "cancelled")
        return 200, _public(batch)
    if method == "GET":
        state._seen[batch["id"]] = seen = state._seen.get(batch["id"], 0) + 1
        if batch["status"] not in ENDED:
            if seen > state.polls:
                _end(state, fake, batch, state.outcome)
            else:
                batch["status"] = "in_progress"
                batch["in_progress_at"] = batch["in_progress_at"] or int(time.time())
        return 200, _public(batch)
    return 404, _error("not found")


def _create(state: FakeBatches, req: dict[str, Any]) -> tuple[int, Any]:
    if req.get("endpoint") != ENDPOINT:
        return 400, _error(f"endpoint must be {ENDPOINT}")
    if req.get("completion_window") != "24h":
        return 400, _error("completion_window must be 24h")
    stored = state.files.get(req.get("input_file_id", ""))
    if stored is None or stored["meta"]["purpose"] != "batch":
        return 400, _error("input_file_id must name a file uploaded with purpose 'batch'")
    lines = [json.loads(x) for x in stored["content"].decode().splitlines() if x.strip()]
    now = int(time.time())
    batch = {
        "id": state._id("batch"),
        "object": "batch",
        "endpoint": ENDPOINT,
        "errors": None,
        "input_file_id": stored["meta"]["id"],
        "completion_window": "24h",
        "status": "validating",
        "output_file_id": None,
        "error_file_id": None,
        "created_at": now,
        "in_progress_at": None,
        "expires_at": now + 86400,
        "finalizing_at": None,
        "completed_at": None,
        "failed_at": None,
        "expired_at": None,
        "cancelling_at": None,
        "cancelled_at": None,
        "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
        "metadata": req.get("metadata"),
        "_lines": lines,
    }
    state.batches[batch["id"]] = batch
    return 200, _public(batch)


def _end(state: FakeBatches, fake: Any, batch: dict[str, Any], outcome: str) -> None:
    """Process a batch's lines and end it as ``outcome`` (validation can still fail it)."""
    lines = batch["_lines"]
    problem = _validation_problem(lines)
    now = int(time.time())
    if problem or outcome == "failed":
        message = problem or "the fake was told to fail this batch"
        batch.update(status="failed", failed_at=now)
        batch["errors"] = {
            "object": "list",
            "data": [{"code": "invalid_request", "message": message, "line": 1, "param": None}],
        }
        batch["request_counts"] = {"total": len(lines), "completed": 0, "failed": 0}
        return
    answer = len(lines) if outcome == "completed" else min(state.finished_lines, len(lines))
    ok, bad = [], []
    for i, line in enumerate(lines):
        if i >= answer:
            bad.append(_line(line, None, {"code": f"batch_{outcome}", "message": f"{outcome}"}))
            continue
        response, error = _answer(fake, state, line)
        (ok if error is None and response["status_code"] == 200 else bad).append(
            _line(line, response, error)
        )
    lines_, size = state.padding
    pad = {"response": {"status_code": 200, "body": {}}, "padding": "x" * size}
    written = ok + [{"custom_id": f"other-{i}", **pad} for i in range(lines_)]
    if written:
        output = state.add_file(_jsonl(written), "output.jsonl", "batch_output")
        batch["output_file_id"] = output["id"]
    if bad:
        batch["error_file_id"] = state.add_file(_jsonl(bad), "errors.jsonl", "batch_output")["id"]
    batch["request_counts"] = {"total": len(lines), "completed": len(ok), "failed": len(bad)}
    batch["status"] = outcome
    batch[f"{outcome}_at"] = now


def _answer(
    fake: Any, state: FakeBatches, line: dict[str, Any]
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """One line answered through the script, as the live endpoint would answer it."""
    from . import Behaviour, Recorded, _Handler

    record = Recorded(line.get("url", ENDPOINT), {}, line["body"])
    behaviour = Behaviour("default")
    with fake._lock:
        for b in fake._script:
            if b.match is None or b.match in json.dumps(record.body["messages"]):
                if b.times is not None:
                    b.times -= 1
                    if b.times <= 0:
                        fake._script.remove(b)
                behaviour = b
                break
    state.lines.append(record)
    rid = f"req-{len(state.lines):05d}"
    if behaviour.kind == "drop":
        record.outcome = "batch: dropped"
        return None, {"code": "server_error", "message": "the fake dropped this request"}
    if behaviour.kind == "status":
        code = behaviour.params.get("status", 500)
        record.outcome = f"batch: status {code}"
        message = behaviour.params.get("message", f"fake error {code}")
        body = {"error": {"message": message, "type": "server_error"}}
        return {"status_code": code, "request_id": rid, "body": body}, None
    content = _Handler._content(fake, record, behaviour)
    record.outcome = "batch: answered"
    body = completion(record.body, content, behaviour.params.get("finish_reason", "stop"))
    return {"status_code": 200, "request_id": rid, "body": body}, None


def _validation_problem(lines: list[dict[str, Any]]) -> str | None:
    ids = [x.get("custom_id") for x in lines]
    if len(set(ids)) != len(ids):
        return "custom_id values must be unique within a batch"
    for i, x in enumerate(lines, 1):
        if x.get("url") != ENDPOINT or x.get("method") != "POST" or "body" not in x:
            return f"line {i}: expected a POST to {ENDPOINT} with a body"
    return None


def _line(line: dict[str, Any], response: Any, error: Any) -> dict[str, Any]:
    return {
        "id": f"batch_req_{line.get('custom_id', '')[:12]}",
        "custom_id": line.get("custom_id"),
        "response": response,
        "error": error,
    }


def _jsonl(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def _public(batch: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in batch.items() if not k.startswith("_")}


def _error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error"}}


def _multipart(content_type: str, body: bytes) -> dict[str, tuple[str | None, bytes]]:
    """The fields of a multipart/form-data body: name -> (filename, content)."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = BytesParser(policy=email_policy).parsebytes(head + body)
    fields: dict[str, tuple[str | None, bytes]] = {}
    if not message.is_multipart():
        return fields
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        if isinstance(name, str):
            fields[name] = (part.get_filename(), payload if isinstance(payload, bytes) else b"")
    return fields


def _raw(handler: Any, content: bytes) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Content-Length", str(len(content)))
    handler.end_headers()
    handler.wfile.write(content)
