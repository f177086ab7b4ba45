"""A real local HTTP server that speaks the part of GitHub's REST API halgate's pull-request
comment uses: list an issue's comments (paged with ``per_page``/``page`` and a ``Link``
header, as GitHub pages them), create a comment, update one. Requests without the right
``Authorization`` header get GitHub's 401 "Bad credentials". Only the far side of the wire
is fake: ``halgate ci comment`` talks to it with its real HTTP client over real sockets.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

LIST = re.compile(r"^/repos/([^/]+/[^/]+)/issues/(\d+)/comments$")
ONE = re.compile(r"^/repos/([^/]+/[^/]+)/issues/comments/(\d+)$")
DOCS = "https://docs.github.com/rest"


@dataclass
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    authorization: str
    body: dict[str, Any] | None


@dataclass
class FakeGitHub:
    """One repository with one pull request; ``refuse`` scripts an error for a method."""

    token: str
    repository: str = "acme/rag-app"
    number: int = 7
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    refuse: dict[str, tuple[int, str]] = field(default_factory=dict)  # method -> status, message
    next_id: int = 1000
    base: str = ""  # the server's address, set when it starts

    def add_comment(self, body: str, user: str = "someone") -> int:
        """A comment already on the pull request (another bot's, a reviewer's)."""
        self.next_id += 1
        self.comments[self.next_id] = self._comment(self.next_id, body, user)
        return self.next_id

    def _comment(self, cid: int, body: str, user: str) -> dict[str, Any]:
        html = f"https://github.com/{self.repository}/pull/{self.number}#issuecomment-{cid}"
        return {"id": cid, "body": body, "html_url": html, "user": {"login": user}}

    def answer(self, method: str, url: str, auth: str, body: Any) -> tuple[int, Any, dict]:
        """Status, JSON answer and extra headers for one request."""
        parts = urlsplit(url)
        self.requests.append(Recorded(method, url, auth, body))
        if auth not in (f"Bearer {self.token}", f"token {self.token}"):
            return 401, {"message": "Bad credentials", "documentation_url": DOCS}, {}
        if method in self.refuse:
            status, message = self.refuse[method]
            return status, {"message": message, "documentation_url": DOCS}, {}
        listed, one = LIST.match(parts.path), ONE.match(parts.path)
        if listed and listed[1] == self.repository and int(listed[2]) == self.number:
            if method == "GET":
                return self._page(parts.path, parse_qs(parts.query))
            if method == "POST":
                return self._write(None, body)
        if one and one[1] == self.repository and method == "PATCH":
            return self._write(int(one[2]), body)
        return 404, {"message": "Not Found", "documentation_url": DOCS}, {}

    def _page(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any, dict]:
        per_page = min(int(query.get("per_page", ["30"])[0]), 100)
        page = int(query.get("page", ["1"])[0])
        ordered = [self.comments[k] for k in sorted(self.comments)]
        last = max(1, -(-len(ordered) // per_page))
        links = []
        if page < last:
            links.append(f'<{self.base}{path}?per_page={per_page}&page={page + 1}>; rel="next"')
            links.append(f'<{self.base}{path}?per_page={per_page}&page={last}>; rel="last"')
        headers = {"Link": ", ".join(links)} if links else {}
        return 200, ordered[(page - 1) * per_page : page * per_page], headers

    def _write(self, cid: int | None, body: Any) -> tuple[int, Any, dict]:
        if not isinstance(body, dict) or not isinstance(body.get("body"), str):
            return (
                422,
                {"message": "Invalid request. body is missing.", "documentation_url": DOCS},
                {},
            )
        if cid is None:
            self.next_id += 1
            self.comments[self.next_id] = self._comment(
                self.next_id, body["body"], "github-actions[bot]"
            )
            return 201, self.comments[self.next_id], {}
        if cid not in self.comments:
            return 404, {"message": "Not Found", "documentation_url": DOCS}, {}
        self.comments[cid]["body"] = body["body"]
        return 200, self.comments[cid], {}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeGitHub

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        auth = self.headers.get("Authorization", "")
        status, data, headers = self.fake.answer(self.command, self.path, auth, body)
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PATCH = _serve

    def log_message(self, *args: Any) -> None:  # quiet in tests
        pass


class GitHubServer:
    """``with GitHubServer(fake) as url:`` serves ``fake`` on a free local port."""

    def __init__(self, fake: FakeGitHub):
        handler = type("Handler", (_Handler,), {"fake": fake})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        fake.base = f"http://127.0.0.1:{self.server.server_port}"
        self.fake = fake

    def __enter__(self) -> str:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self.fake.base

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
