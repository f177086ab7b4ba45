"""The action's pull-request comment step, run for real (`halgate ci comment`, as action.yml
calls it, with the variables a runner sets) against a real local HTTP server speaking the
part of GitHub's REST API it uses (tests/fake_github): the first run creates the comment,
the next one updates that same comment, and a refusal fails the step without the token."""

from __future__ import annotations

from pathlib import Path

import pytest
from halgate.ci.github_comment import MARKER, MAX_BODY, TRUNCATED, comment_body

from ..conftest import EXAMPLE_SUITE
from ..fake_github import FakeGitHub, GitHubServer
from .test_action import _bash, _step

TOKEN = "ghs_s3cr3t-t0ken-for-the-test"


def _comment_step(report: Path, api: str, fake: FakeGitHub, token: str = TOKEN):
    env = {
        "GITHUB_TOKEN": token, "HALGATE_PR_NUMBER": str(fake.number), "REPORT": str(report),
        "GITHUB_REPOSITORY": fake.repository, "GITHUB_API_URL": api,
    }  # fmt: skip
    return _bash(_step("Comment on the pull request")["run"], env, report.parent)


def _gate_report(tmp_path: Path) -> Path:
    """The Markdown report the action's gate step writes, on the example suite."""
    env = {
        "SUITE": str(EXAMPLE_SUITE), "FORMAT": "", "SOURCES": "", "MAPPING": "",
        "JUDGE": "offline", "POLICY": "", "RUNNER_TEMP": str(tmp_path),
        "GITHUB_OUTPUT": str(tmp_path / "out.txt"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s.md"),
    }  # fmt: skip
    done = _bash(_step("Run the gate")["run"], env, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    return tmp_path / "halgate" / "report.md"


def test_the_first_run_creates_the_comment_and_the_next_updates_it_in_place(tmp_path):
    fake = FakeGitHub(token=TOKEN)
    for i in range(105):  # a busy pull request: halgate's comment lands on the second page
        fake.add_comment(f"review comment {i}")
    report = _gate_report(tmp_path)
    with GitHubServer(fake) as api:
        first = _comment_step(report, api, fake)
        assert first.returncode == 0, first.stdout + first.stderr
        mine = [c for c in fake.comments.values() if c["body"].startswith(MARKER)]
        assert len(mine) == 1 and mine[0]["body"] == f"{MARKER}\n{report.read_text()}"
        assert f"created comment {mine[0]['id']} " in first.stdout
        report.write_text("## ✅ halgate gate: PASSED for candidate\n")
        fake.requests.clear()
        second = _comment_step(report, api, fake)
    assert second.returncode == 0, second.stdout + second.stderr
    assert f"updated comment {mine[0]['id']} " in second.stdout
    assert len(fake.comments) == 106  # nothing added
    ours = fake.comments[mine[0]["id"]]
    assert ours["body"] == f"{MARKER}\n## ✅ halgate gate: PASSED for candidate\n"
    path = f"/repos/{fake.repository}/issues"
    assert [(r.method, r.path) for r in fake.requests] == [
        ("GET", f"{path}/{fake.number}/comments?per_page=100"),
        ("GET", f"{path}/{fake.number}/comments?per_page=100&page=2"),  # the Link header's
        ("PATCH", f"{path}/comments/{mine[0]['id']}"),
    ]
    assert {r.authorization for r in fake.requests} == {f"Bearer {TOKEN}"}


@pytest.mark.parametrize(
    ("token", "refuse", "said"),
    [
        (TOKEN, {"POST": (403, "Resource not accessible by integration")},
         "GitHub answered 403 to POST /repos/acme/rag-app/issues/7/comments: "
         "Resource not accessible by integration"),
        ("ghs_wrong-token", {}, "GitHub answered 401 to GET /repos/acme/rag-app/issues/7/"
         "comments: Bad credentials"),
    ],
)  # fmt: skip
def test_a_refusal_fails_the_step_clearly_without_the_token(token, refuse, said, tmp_path):
    fake = FakeGitHub(token=TOKEN, refuse=refuse)
    report = tmp_path / "report.md"
    report.write_text("## ❌ halgate gate: FAILED\n")
    with GitHubServer(fake) as api:
        done = _comment_step(report, api, fake, token=token)
    assert done.returncode == 2
    assert said in done.stderr and "https://docs.github.com/rest" in done.stderr
    assert token not in done.stdout + done.stderr and TOKEN not in done.stdout + done.stderr
    assert fake.comments == {}


def test_an_unreachable_api_or_a_missing_token_fails_clearly(tmp_path):
    report = tmp_path / "report.md"
    report.write_text("## halgate\n")
    fake = FakeGitHub(token=TOKEN)
    with GitHubServer(fake) as api:
        pass  # the server is gone: its port refuses connections
    gone = _comment_step(report, api, fake)
    assert gone.returncode == 2
    assert "error: GET /repos/acme/rag-app/issues/7/comments:" in gone.stderr
    assert TOKEN not in gone.stderr
    missing = _comment_step(report, api, fake, token="")
    assert missing.returncode == 4 and "no token: set GITHUB_TOKEN" in missing.stderr


def test_a_report_over_githubs_limit_is_cut_and_says_where_the_rest_is():
    body = comment_body("x" * (MAX_BODY + 10))
    assert len(body) == MAX_BODY and body.startswith(MARKER) and body.endswith(TRUNCATED)
    assert comment_body("short") == f"{MARKER}\nshort"
