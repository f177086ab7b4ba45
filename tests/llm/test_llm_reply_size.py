"""A reply body is never read past ``max_reply_bytes``: that case is a harness error naming
the limit, the connection is dropped mid-stream, and memory stays bounded by the limit.

The fake streams the body in 64 KiB chunks (chunked, under a too-large Content-Length, or a
small gzip stream that inflates to the full size), so the test sees how much went out before
halgate hung up. The memory check runs ``halgate run`` in a child and compares its peak RSS
with a run of ordinary replies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import jsonschema
import pytest
from halgate.judges.llm.config import MAX_REPLY_BYTES, resolve_settings
from halgate.reports.schemas import load_schema

from .llm_helpers import KEY, Q1, about, cli

pytestmark = pytest.mark.usefixtures("isolated_llm_env")

HALGATE = Path(sys.executable).parent / "halgate"
MiB = 2**20


def q1_error(out: Path) -> tuple[dict, str]:
    """The report (validated) and q1's harness error; every other analysis is clean."""
    data = json.loads(out.read_text())
    jsonschema.validate(data, load_schema("run_report"))
    errors = {(a["case_id"], a["system"]): a["harness_error"] for a in data["analyses"]}
    assert {k for k, e in errors.items() if e} == {("q1", "baseline"), ("q1", "candidate")}
    return data, errors[("q1", "candidate")]


@pytest.mark.parametrize(
    "params, says",
    [
        ({"size": 64 * MiB}, "stopped reading at"),
        ({"size": 64 * MiB, "declare": True}, f"the server announced {64 * MiB} bytes"),
        ({"size": 64 * MiB, "gzip": True}, "stopped reading at"),
    ],
    ids=["chunked", "content-length", "gzip-bomb"],
)
def test_an_oversized_reply_is_that_cases_harness_error(
    tiny_suite, fake_openai, tmp_path, params, says
):
    fake_openai.script("huge", match=Q1, times=None, **params)
    t0 = time.perf_counter()
    result, out = cli(tiny_suite, fake_openai, tmp_path)
    wall = time.perf_counter() - t0
    assert result.exit_code == 2, result.output
    data, error = q1_error(out)
    assert f"max_reply_bytes = {MAX_REPLY_BYTES} bytes (4 MiB)" in error and says in error
    assert data["decision"]["status"] == "HARNESS_ERROR"
    (request,) = about(fake_openai, Q1)  # refused at once: not retried
    assert request.outcome.startswith("huge: client hung up"), request.outcome
    if not params.get("gzip"):  # halgate stopped long before the end of the body
        assert int(request.outcome.split()[-2]) < 32 * MiB
    assert wall < 20, f"{wall:.1f} s"


def test_the_limit_is_a_setting_and_replies_under_it_pass(tiny_suite, fake_openai, tmp_path):
    (tmp_path / "halgate.toml").write_text("[llm]\nmax_reply_bytes = 65536\n")
    assert resolve_settings({}).max_reply_bytes == 65536
    fake_openai.script("huge", match=Q1, times=None, size=128 * 1024)
    result, out = cli(tiny_suite, fake_openai, tmp_path)
    assert result.exit_code == 2, result.output
    _, error = q1_error(out)  # q2 and q3: ordinary replies, well under the limit
    assert "max_reply_bytes = 65536 bytes (0.0625 MiB): stopped reading at" in error


def test_the_limit_is_at_least_a_kibibyte():
    with pytest.raises(Exception, match="max_reply_bytes"):
        resolve_settings({"max_reply_bytes": 10})


def peak_rss(suite: Path, url: str, tmp_path: Path) -> tuple[int, int, str]:
    """Peak RSS in bytes of a child ``halgate run --judge llm`` against ``url``, its exit
    code and its output."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    args = [str(HALGATE), "run", str(suite), "--judge", "llm", "--base-url", url, "-q"]
    args += ["--db", str(tmp_path / "h.db"), "--max-batch", "1", "--concurrency", "1"]
    env = dict(os.environ, OPENAI_API_KEY=KEY)
    log = tmp_path / "out.txt"
    with log.open("w") as sink:
        child = subprocess.Popen(args, stdout=sink, stderr=subprocess.STDOUT, env=env)
        timer = threading.Timer(60, child.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the test's
        finally:
            timer.cancel()
            child.returncode = 0  # reaped above; keep Popen from waiting again
    return usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status), log.read_text()


def test_memory_stays_bounded_by_the_limit_not_the_reply(tiny_suite, fake_openai, tmp_path):
    normal, code, output = peak_rss(tiny_suite, fake_openai.url, tmp_path / "normal")
    assert code in (1, 3) and "Traceback" not in output, output  # judged: FAILED or review
    fake_openai.script("huge", times=None, size=256 * MiB)
    huge, code, output = peak_rss(tiny_suite, fake_openai.url, tmp_path / "huge")
    assert code == 2 and "Traceback" not in output, output
    extra = huge - normal
    print(
        f"peak RSS: ordinary replies {normal / MiB:.0f} MiB, 256 MiB replies {huge / MiB:.0f} MiB"
    )
    # Reading even one 256 MiB reply whole would cost well over 256 MiB (bytes, then text).
    assert extra < 48 * MiB, f"{extra / MiB:.0f} MiB more than an ordinary run"
