"""A real local HTTP server that speaks the OpenAI chat-completions API, for tests and demos.

Only the far side of the wire is fake: halgate's LLM judge talks to it through the real
``openai`` client over real sockets. Tests script it per request with a queue of behaviours
(valid reply, malformed or truncated JSON, wrong enum values, 429 with Retry-After, 500,
slow reply, dropped connection, a huge body), optionally matched on request content; every
request is recorded. Without a script it answers like a plausible, modest judge: it splits
each answer into sentences and judges each by word overlap with the document sentences,
quoting the best.
Batched requests (several ``<case>`` blocks) are answered per case, and a scripted
``wrong_enum`` or ``omit_case`` with a ``match`` hits only the cases whose block matches.

By hand::

    python -m tests.fake_openai --port 8765 --mode echo-supported
    halgate run data/examples/acme-helpdesk --judge llm --base-url http://127.0.0.1:8765/v1

Modes: ``overlap`` (default), ``echo-supported`` (every sentence SUPPORTED), ``prefer-a``
(pairwise: always prefers whatever is shown first — a position-biased judge), ``flaky``
(changes some verdicts on the repeats halgate's ``judge_samples`` asks for), ``gullible``
(obeys an "ignore the instructions" sentence that appears OUTSIDE the data blocks, the way
a model would if an answer escaped its delimiters), ``strict-schema`` (reads no prompt and
answers exactly by the JSON Schema in ``response_format``, as a schema-following decoder
does: enum values, arbitrary strings; a schema strict mode cannot take is refused with 400;
see ``strict.py``).

It also speaks the Batch API (``/v1/files``, ``/v1/batches``; see ``batches.py``): a batch's
lines are answered with the same reply logic and script as live requests, after
``fake.batch_api.polls`` polls, ending as ``fake.batch_api.outcome`` says.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .batches import FakeBatches, is_batch_api, serve
from .replies import CASE, case_blocks, completion, default_reply, parse_blocks
from .strict import schema_instance, strict_reply, strict_schema_problem


@dataclass
class Behaviour:
    """One scripted response: what to do, for which requests, how many times."""

    # reply | json | status | drop | slow | wrong_enum | truncate | omit_case | huge | default
    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    match: str | None = None  # substring of the request's user message
    times: int | None = 1  # None: forever


@dataclass
class Recorded:
    """A request the server received and what became of it."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    outcome: str = "pending"  # answered | status NNN | dropped | huge: ...

    @property
    def user(self) -> str:
        """The first user message (what a judge request is about)."""
        msgs = self.body.get("messages", [])
        return next((m["content"] for m in msgs if m.get("role") == "user"), "")

    @property
    def system(self) -> str:
        """The system message."""
        msgs = self.body.get("messages", [])
        return next((m["content"] for m in msgs if m.get("role") == "system"), "")


class FakeOpenAI:
    """The scripted server; start() binds 127.0.0.1 on a free (or given) port."""

    def __init__(self, port: int = 0, mode: str = "overlap", latency: float = 0.0) -> None:
        self.mode = mode
        self.latency = latency
        self.supports_json_schema = True
        self.requests: list[Recorded] = []
        self._script: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
        self._server.daemon_threads = True
        self._server.fake = self  # type: ignore[attr-defined]
        self._thread: threading.Thread | None = None
        self.batch_api = FakeBatches()  # /v1/files and /v1/batches (batches.py)

    @property
    def url(self) -> str:
        """Base URL to give the client (ends in /v1)."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeOpenAI:
        """Serve in a background thread."""
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and free the port."""
        self._server.shutdown()
        self._server.server_close()

    def script(self, kind: str, match: str | None = None, times: int | None = 1, **params: Any):
        """Queue a behaviour; the first queued one that matches a request is used."""
        with self._lock:
            self._script.append(Behaviour(kind, params, match, times))
        return self

    def completions(self) -> list[Recorded]:
        """Recorded chat-completion requests, in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def take(self, record: Recorded) -> Behaviour:
        """The behaviour for a request (consuming one use of it), else the default."""
        with self._lock:
            self.requests.append(record)
            for b in self._script:
                if b.match is None or b.match in json.dumps(record.body["messages"]):
                    if b.times is not None:
                        b.times -= 1
                        if b.times <= 0:
                            self._script.remove(b)
                    return b
        return Behaviour("default")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        fake: FakeOpenAI = self.server.fake  # type: ignore[attr-defined]
        if is_batch_api(self.path):
            serve(self, fake, "GET", b"")
            return
        if self.path.rstrip("/").endswith("/_stats"):  # for benchmarks running the fake apart
            self._json(200, {"completions": len(fake.completions())})
        elif self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "fake-judge", "object": "model"}]})
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        fake: FakeOpenAI = self.server.fake  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length", 0))
        if is_batch_api(self.path):
            serve(self, fake, "POST", self.rfile.read(length))
            return
        body = json.loads(self.rfile.read(length) or b"{}")
        record = Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            fake.requests.append(record)
            self._json(404, {"error": {"message": "not found"}})
            return
        behaviour = fake.take(record)
        if fake.latency:
            time.sleep(fake.latency)
        self._respond(fake, record, behaviour)

    def _respond(self, fake: FakeOpenAI, record: Recorded, b: Behaviour) -> None:
        fmt = (record.body.get("response_format") or {}).get("type")
        if fmt == "json_schema" and not fake.supports_json_schema:
            self._refuse(record, "response_format type 'json_schema' is not supported")
            return
        if fake.mode == "strict-schema" and b.kind == "default":
            problem = (
                strict_schema_problem(record.body["response_format"]["json_schema"]["schema"])
                if fmt == "json_schema"
                else "this server answers only with response_format type 'json_schema'"
            )
            if problem:
                self._refuse(record, f"Invalid schema for response_format: {problem}")
                return
        if b.kind == "drop":
            record.outcome = "dropped"
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if b.kind == "status":
            self._status(record, b.params)
            return
        if b.kind == "huge":
            self._huge(record, **b.params)
            return
        if b.kind == "slow":
            time.sleep(b.params.get("seconds", 1.0))
        content = self._content(fake, record, b)
        record.outcome = "answered"
        self._json(200, completion(record.body, content, b.params.get("finish_reason", "stop")))

    def _refuse(self, record: Recorded, message: str) -> None:
        record.outcome = "status 400"
        self._json(400, {"error": {"message": message, "type": "invalid_request_error"}})

    def _status(self, record: Recorded, params: dict[str, Any]) -> None:
        code = params.get("status", 500)
        record.outcome = f"status {code}"
        headers = {}
        if params.get("retry_after") is not None:
            headers["Retry-After"] = str(params["retry_after"])
        message = params.get("message", f"fake error {code}")
        self._json(code, {"error": {"message": message, "type": "server_error"}}, headers)

    @staticmethod
    def _content(fake: FakeOpenAI, record: Recorded, b: Behaviour) -> str:
        if b.kind == "reply":
            return b.params["content"]
        if b.kind == "json":
            return json.dumps(b.params["data"])
        if fake.mode == "strict-schema" and b.kind == "default":
            return strict_reply(record.body)
        reply = default_reply(record.body["messages"], b.params.get("mode", fake.mode))
        # In a batched reply, a scripted fault hits only the cases whose block matches.
        blocks = {ident: body for ident, body in case_blocks(record.user)}
        cases = reply.get("cases", {"": reply})
        hit = [
            ident
            for ident in cases
            if b.match is None or not ident or b.match in blocks.get(ident, "")
        ]
        if b.kind == "wrong_enum":
            for ans in (a for ident in hit for a in cases[ident].get("answers", {}).values()):
                for claim in ans["claims"]:
                    claim["verdict"] = b.params.get("verdict", "TRUE")
        if b.kind == "omit_case":  # a batched reply that forgets the matching case(s)
            reply["cases"] = {k: v for k, v in reply.get("cases", {}).items() if k not in hit}
        text = json.dumps(reply)
        if b.kind == "truncate":
            return text[: len(text) // 2]
        return text

    def _huge(
        self, record: Recorded, size: int = 64 * 2**20, declare: bool = False, gzip: bool = False
    ) -> None:
        """A 200 of ``size`` bytes (a JSON object padded with spaces) streamed in 64 KiB
        chunks: chunked, or under a Content-Length when ``declare``; gzip-encoded when
        ``gzip`` (then ``size`` is the decoded size and the wire carries a small fraction).
        The outcome records how much went out before the client hung up."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if declare:
            self.send_header("Content-Length", str(size))
        else:
            self.send_header("Transfer-Encoding", "chunked")
        if gzip:
            self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        packer = zlib.compressobj(9, zlib.DEFLATED, 31) if gzip else None
        piece, sent = b" " * 65536, 0
        try:
            while sent < size:
                data = piece[: size - sent]
                sent += len(data)
                if packer is not None:
                    data = packer.compress(data) + (packer.flush() if sent >= size else b"")
                if data and not declare:
                    data = b"%x\r\n%s\r\n" % (len(data), data)
                self.wfile.write(data)
            if not declare:
                self.wfile.write(b"0\r\n\r\n")
            record.outcome = f"huge: sent all {sent} bytes"
        except OSError:  # the client hung up: the point of the test
            record.outcome = f"huge: client hung up after {sent} bytes"
            self.close_connection = True

    def _json(self, code: int, data: Any, headers: dict[str, str] | None = None) -> None:
        raw = json.dumps(data).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        # Head and body in one write: two small writes on a keep-alive connection meet
        # Nagle + delayed ACK and cost ~40 ms each, which no real server would add.
        self._headers_buffer.append(b"\r\n" + raw)
        self.flush_headers()


__all__ = [
    "CASE",
    "Behaviour",
    "FakeBatches",
    "FakeOpenAI",
    "Recorded",
    "case_blocks",
    "default_reply",
    "parse_blocks",
    "schema_instance",
    "strict_reply",
    "strict_schema_problem",
]
