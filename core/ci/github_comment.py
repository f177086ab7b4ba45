"""The gate's Markdown summary as one pull-request comment, updated in place on every run.

GitHub's REST API, the three calls the action needs: list the issue's comments (following
the ``Link: rel="next"`` pages), then update the comment that starts with ``MARKER`` or
create one. The token travels only in the ``Authorization`` header and only to the API's own
host (a ``next`` link elsewhere is refused); no error message ever carries it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..errors import HalgateError, UsageError

MARKER = "<!-- halgate-report -->"
# GitHub refuses a comment body over 65,536 characters; the artifact keeps the whole report.
MAX_BODY = 65_536
TRUNCATED = "\n\n…(truncated: the whole report is in the workflow's artifact)\n"
PER_PAGE = 100
TIMEOUT_S = 30.0


class GitHubError(HalgateError):
    """GitHub answered a call with an error, or could not be reached (the CLI exits 2)."""


@dataclass(frozen=True)
class PullRequest:
    """Where the comment goes: ``api_url`` (``GITHUB_API_URL``), ``owner/name``, number."""

    api_url: str
    repository: str
    number: int


@dataclass(frozen=True)
class CommentResult:
    """What was done: ``created`` or ``updated``, the comment's id and its web address."""

    action: str
    comment_id: int
    html_url: str


def comment_body(markdown: str) -> str:
    """The comment: the marker that finds it again, then the report, cut to GitHub's limit."""
    body = f"{MARKER}\n{markdown}"
    if len(body) <= MAX_BODY:
        return body
    return body[: MAX_BODY - len(TRUNCATED)] + TRUNCATED


def upsert_comment(
    pr: PullRequest, token: str, markdown: str, transport: httpx.BaseTransport | None = None
) -> CommentResult:
    """Update the pull request's halgate comment with ``markdown``, or create it."""
    if not token:
        raise UsageError("no token: set GITHUB_TOKEN (the action passes its github-token)")
    body = comment_body(markdown)
    with _client(pr, token, transport) as client:
        repo = f"/repos/{pr.repository}"
        mine = _find_marked(client, f"{repo}/issues/{pr.number}/comments", token)
        if mine is None:
            made = _call(client, "POST", f"{repo}/issues/{pr.number}/comments", token, body)
            return CommentResult("created", int(made["id"]), str(made.get("html_url", "")))
        done = _call(client, "PATCH", f"{repo}/issues/comments/{mine}", token, body)
        return CommentResult("updated", int(done["id"]), str(done.get("html_url", "")))


def _client(pr: PullRequest, token: str, transport: httpx.BaseTransport | None) -> httpx.Client:
    if pr.repository.count("/") != 1 or not all(pr.repository.split("/")):
        raise UsageError(f"repository {pr.repository!r}: write owner/name")
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "halgate",
    }
    return httpx.Client(
        base_url=pr.api_url.rstrip("/"), headers=headers, timeout=TIMEOUT_S, transport=transport
    )


def _find_marked(client: httpx.Client, path: str, token: str) -> int | None:
    """The id of the first comment that starts with the marker, reading every page."""
    url: str | None = f"{path}?per_page={PER_PAGE}"
    host = urlsplit(str(client.base_url)).netloc
    while url is not None:
        response = _send(client, "GET", url, token)
        for comment in response.json():
            if str(comment.get("body") or "").startswith(MARKER):
                return int(comment["id"])
        url = response.links.get("next", {}).get("url")
        if url is not None and urlsplit(url).netloc not in ("", host):
            raise GitHubError(f"GitHub's next page is on another host ({urlsplit(url).netloc})")
    return None


def _call(client: httpx.Client, method: str, path: str, token: str, body: str) -> dict[str, Any]:
    answer = _send(client, method, path, token, json={"body": body}).json()
    if not isinstance(answer, dict) or "id" not in answer:
        raise GitHubError(f"GitHub's answer to {method} {path} has no comment id")
    return answer


def _send(
    client: httpx.Client, method: str, url: str, token: str, json: Any = None
) -> httpx.Response:
    """One call; a transport error or a non-2xx answer becomes a GitHubError without the token."""
    path = urlsplit(url).path or url
    try:
        response = client.request(method, url, json=json)
    except httpx.HTTPError as exc:
        raise GitHubError(_redact(f"{method} {path}: {exc}", token)) from None
    if not response.is_success:
        why = _message(response)
        text = f"GitHub answered {response.status_code} to {method} {path}: {why}"
        raise GitHubError(_redact(text, token))
    return response


def _message(response: httpx.Response) -> str:
    """GitHub's own ``message`` (and its docs link), else the start of the body."""
    try:
        data = response.json()
    except ValueError:
        return response.text[:200].strip() or response.reason_phrase
    if isinstance(data, dict) and data.get("message"):
        doc = f" (see {data['documentation_url']})" if data.get("documentation_url") else ""
        return f"{data['message']}{doc}"
    return response.reason_phrase


def _redact(text: str, token: str) -> str:
    return text.replace(token, "***") if token else text
