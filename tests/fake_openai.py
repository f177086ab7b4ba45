"""A real local HTTP server that speaks the OpenAI chat-completions API, for tests and demos.

Only the far side of the wire is fake: halgate's LLM judge talks to it through the real
``openai`` client over real sockets. Tests script it per request with a queue of behaviours
(valid reply, malformed or truncated JSON, wrong enum values, 429 with Retry-After, 500,
slow reply, dropped connection), optionally matched on request content; every request is
recorded. Without a script it answers like a plausible, modest judge: it splits each answer
into sentences and judges each by word overlap with the document sentences, quoting the best.
Batched requests (several ``<case>`` blocks) are answered per case, and a scripted
``wrong_enum`` or ``omit_case`` with a ``match`` hits only the cases whose block matches.

By hand::

    python tests/fake_openai.py --port 8765 --mode echo-supported
    halgate run data/examples/acme-helpdesk --judge llm --base-url http://127.0.0.1:8765/v1

Modes: ``overlap`` (default), ``echo-supported`` (every sentence SUPPORTED), ``prefer-a``
(pairwise: always prefers whatever is shown first — a position-biased judge), ``gullible``
(obeys an "ignore the instructions" sentence that appears OUTSIDE the data blocks, the way
a model would if an answer escaped its delimiters).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CASE = re.compile(r"<case\b([^>]*)>\n?(.*?)\n?</case>", re.DOTALL)
BLOCK = re.compile(r"<(document|answer|question)\b([^>]*)>\n?(.*?)\n?</\1>", re.DOTALL)
ATTR_ID = re.compile(r'id="([^"]*)"')
SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")
NUMBER = re.compile(r"\d+(?:\.\d+)?")
NEGATION = {"not", "no", "never", "cannot", "nor"}
INJECTION = re.compile(r"ignore (all |the |previous )*instructions", re.IGNORECASE)


@dataclass
class Behaviour:
    """One scripted response: what to do, for which requests, how many times."""

    kind: str  # reply | json | status | drop | slow | wrong_enum | truncate | omit_case | default
    params: dict[str, Any] = field(default_factory=dict)
    match: str | None = None  # substring of the request's user message
    times: int | None = 1  # None: forever


@dataclass
class Recorded:
    """A request the server received and what became of it."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    outcome: str = "pending"  # answered | status NNN | dropped

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
        if self.path.rstrip("/").endswith("/_stats"):  # for benchmarks running the fake apart
            self._json(200, {"completions": len(fake.completions())})
        elif self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "fake-judge", "object": "model"}]})
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        fake: FakeOpenAI = self.server.fake  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length", 0))
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
            record.outcome = "status 400"
            msg = "response_format type 'json_schema' is not supported by this server"
            self._json(400, {"error": {"message": msg, "type": "invalid_request_error"}})
            return
        if b.kind == "drop":
            record.outcome = "dropped"
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if b.kind == "status":
            self._status(record, b.params)
            return
        if b.kind == "slow":
            time.sleep(b.params.get("seconds", 1.0))
        content = self._content(fake, record, b)
        record.outcome = "answered"
        self._json(200, completion(record.body, content, b.params.get("finish_reason", "stop")))

    def _status(self, record: Recorded, params: dict[str, Any]) -> None:
        code = params.get("status", 500)
        record.outcome = f"status {code}"
        headers = {}
        if params.get("retry_after") is not None:
            headers["Retry-After"] = str(params["retry_after"])
        message = params.get("message", f"fake error {code}")
        self._json(code, {"error": {"message": message, "type": "server_error"}}, headers)

    def _content(self, fake: FakeOpenAI, record: Recorded, b: Behaviour) -> str:
        if b.kind == "reply":
            return b.params["content"]
        if b.kind == "json":
            return json.dumps(b.params["data"])
        reply = default_reply(record.body["messages"], b.params.get("mode", fake.mode))
        # In a batched reply, a scripted fault hits only the cases whose block matches.
        blocks = {ident: body for ident, body in case_blocks(record.user)}
        hit = [
            c
            for c in reply.get("cases", [reply])
            if b.match is None or "case_id" not in c or b.match in blocks.get(c["case_id"], "")
        ]
        if b.kind == "wrong_enum":
            for ans in (a for c in hit for a in c.get("answers", [])):
                for claim in ans["claims"]:
                    claim["verdict"] = b.params.get("verdict", "TRUE")
        if b.kind == "omit_case":  # a batched reply that forgets the matching case(s)
            reply["cases"] = [c for c in reply.get("cases", []) if c not in hit]
        text = json.dumps(reply)
        if b.kind == "truncate":
            return text[: len(text) // 2]
        return text

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


def completion(body: dict[str, Any], content: str, finish_reason: str = "stop") -> dict[str, Any]:
    """A chat.completion object with token usage estimated from characters."""
    prompt_chars = sum(len(m.get("content") or "") for m in body.get("messages", []))
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake-judge"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_chars // 4,
            "completion_tokens": len(content) // 4,
            "total_tokens": prompt_chars // 4 + len(content) // 4,
        },
    }


# --------------------------------------------------------------------------- the fake "model"


def parse_blocks(user: str) -> tuple[dict[str, str], dict[str, str], str]:
    """(documents by id, answers by label, text outside every data block) of a request."""
    docs: dict[str, str] = {}
    answers: dict[str, str] = {}
    for m in BLOCK.finditer(user):
        ident = ATTR_ID.search(m.group(2))
        key = html.unescape(ident.group(1)) if ident else ""
        text = m.group(3).replace("&lt;", "<")
        if m.group(1) == "document":
            docs[key] = text
        elif m.group(1) == "answer":
            answers[key] = text
    return docs, answers, BLOCK.sub("", user)


def sentences(text: str) -> list[str]:
    """Sentences, split naively (the fake need not be clever, only plausible)."""
    parts = [p.strip() for p in SENTENCE.split(text) if p and p.strip()]
    return [p for p in parts if p != "[...]"]


def _words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if len(w) > 2 or w.isdigit()}


@lru_cache(maxsize=4096)
def _indexed(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """A document's sentences with their word sets, computed once per document text."""
    return tuple((s, frozenset(_words(s))) for s in sentences(text))


def _negations(text: str) -> set[str]:
    return NEGATION & set(re.findall(r"[a-z]+", text.lower()))


def judge_sentence(sentence: str, docs: dict[str, str], mode: str) -> dict[str, Any]:
    """A claim judged by word overlap with the best-matching document sentence."""
    words = _words(sentence)
    best = (0.0, "", "")
    for doc_id, text in docs.items():
        for s, doc_words in _indexed(text):
            score = len(words & doc_words) / max(len(words), 1)
            if score > best[0]:
                best = (score, doc_id, s)
    score, doc_id, quote = best
    new_numbers = set(NUMBER.findall(sentence)) - set(NUMBER.findall(quote))
    verdict, htype = "UNSUPPORTED", "FABRICATION"
    if mode == "echo-supported":
        verdict, htype = "SUPPORTED", None
    elif score >= 0.5 and (new_numbers or _negations(sentence) != _negations(quote)):
        verdict, htype = "CONTRADICTED", "DISTORTION"
    elif score >= 0.85:
        verdict, htype = "SUPPORTED", None
    elif score >= 0.6:
        verdict, htype = "PARTIALLY_SUPPORTED", "DISTORTION"
    cite = [{"doc_id": doc_id, "quote": quote}] if quote and verdict != "UNSUPPORTED" else []
    return {
        "text": sentence,
        "verdict": verdict,
        "hallucination_type": htype,
        "severity": None,
        "confidence": 0.9,
        "rationale": f"Best source sentence shares {score:.0%} of the claim's words.",
        "citations": cite,
    }


def case_blocks(user: str) -> list[tuple[str, str]]:
    """(case id, block text) of each ``<case>`` block of a batched request, in order."""
    out = []
    for m in CASE.finditer(user):
        ident = ATTR_ID.search(m.group(1))
        out.append((html.unescape(ident.group(1)) if ident else "", m.group(2)))
    return out


def default_reply(messages: list[dict[str, Any]], mode: str = "overlap") -> dict[str, Any]:
    """What the fake judge answers to a request it has no script for.

    A batched request (``<case>`` blocks) gets ``{"cases": [...]}``, each case judged from
    its own block only; text outside every block is read as instructions (``gullible``).
    """
    system = next((m["content"] for m in messages if m["role"] == "system"), "")
    user = next((m["content"] for m in messages if m["role"] == "user"), "")
    cases = case_blocks(user)
    if cases:
        if mode == "gullible" and INJECTION.search(CASE.sub("", user)):
            mode = "echo-supported"
        return {"cases": [{"case_id": i, **_claims(body, system, mode)} for i, body in cases]}
    return _claims(user, system, mode)


def _claims(user: str, system: str, mode: str) -> dict[str, Any]:
    docs, answers, outside = parse_blocks(user)
    if mode == "gullible" and INJECTION.search(outside):
        mode = "echo-supported"  # an instruction escaped its block: the model obeys it
    if '"preference"' in system:
        return _pairwise(docs, answers, mode)
    return {
        "answers": [
            {
                "answer_id": label,
                "claim_count": len(sentences(text)),
                "claims": [judge_sentence(s, docs, mode) for s in sentences(text)],
            }
            for label, text in answers.items()
        ]
    }


def _pairwise(docs: dict[str, str], answers: dict[str, str], mode: str) -> dict[str, Any]:
    if mode == "prefer-a":
        return {
            "preference": "A",
            "justification": "A reads better.",
            "confidence": 0.9,
            "tie_breaker": None,
        }
    bad = {}
    for label, text in answers.items():
        claims = [judge_sentence(s, docs, mode) for s in sentences(text)]
        bad[label] = sum(c["verdict"] in ("UNSUPPORTED", "CONTRADICTED") for c in claims)
    a, b = bad.get("A", 0), bad.get("B", 0)
    pref = "TIE" if a == b else ("A" if a < b else "B")
    return {
        "preference": pref,
        "justification": f"Unsupported or contradicted claims: A {a}, B {b}.",
        "confidence": 0.8,
        "tie_breaker": None,
    }


def main() -> None:
    """Run the fake by hand for demos."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--mode", default="overlap", choices=["overlap", "echo-supported", "prefer-a", "gullible"]
    )
    parser.add_argument("--latency", type=float, default=0.0, help="Seconds per reply.")
    args = parser.parse_args()
    fake = FakeOpenAI(args.port, args.mode, args.latency)
    print(f"fake OpenAI server on {fake.url} (mode {args.mode}); Ctrl-C stops it", flush=True)
    try:
        fake._server.serve_forever()
    except KeyboardInterrupt:
        fake.stop()


if __name__ == "__main__":
    main()
