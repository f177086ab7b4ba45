"""A run that cannot use its endpoint at all stops within seconds with one clear line.

Connection refused (also DNS and TLS failures), 401, 403 and a 404 model before the endpoint
ever answered stop the whole run: no per-case retries with backoff, exit code 4 (a
configuration error: nothing was judged), the endpoint URL in the message, never the key.
Transient faults on an endpoint that answered keep their retries (test_llm_judge.py).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from halgate.errors import EndpointError
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.registry import create_judge
from halgate.run.engine import run_suite

from .llm_helpers import KEY, cli

pytestmark = pytest.mark.usefixtures("isolated_llm_env")

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "acme-helpdesk"
HALGATE = Path(sys.executable).parent / "halgate"


def closed_port() -> int:
    """A local port nothing listens on: bound, then closed again."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_endpoint_fails_fast_with_the_cause_and_url(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    env = dict(os.environ, OPENAI_API_KEY=KEY)
    args = [str(HALGATE), "run", str(EXAMPLE), "--judge", "llm", "--base-url", url]
    # The same process start on this host now, as the yardstick: a busy host stretches
    # both alike, while retries with back-off would add their sleeps on top.
    t0 = time.perf_counter()
    subprocess.run([str(HALGATE), "--help"], capture_output=True, env=env, timeout=40)
    start_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    try:
        done = subprocess.run(
            [*args, "--db", str(tmp_path / "h.db")],
            capture_output=True,
            text=True,
            env=env,
            timeout=40,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"halgate run against a closed port still ran after 40 s (url {url})")
    wall = time.perf_counter() - t0
    output = done.stdout + done.stderr
    assert wall - start_s < 12, f"{wall:.1f} s (process start {start_s:.1f} s): {output}"
    assert done.returncode == 4, output
    assert "cannot reach" in output and url in output and "refused" in output.lower()
    assert KEY not in output and "Traceback" not in output
    assert not (tmp_path / "h.db").exists() or "saved" not in output  # nothing was judged


def test_unreachable_endpoint_raises_from_the_judge_api(tiny_suite, tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    j = create_judge("llm", base_url=url, api_key=KEY, db=str(tmp_path / "h.db"))
    t0 = time.perf_counter()
    with pytest.raises(EndpointError) as caught:
        run_suite(load_suite(tiny_suite), j, Policy())
    assert time.perf_counter() - t0 < 10
    assert url in str(caught.value) and KEY not in str(caught.value)


@pytest.mark.parametrize(
    "status, message, expected",
    [
        (401, f"Incorrect API key provided: {KEY}", "authentication failed"),
        (403, f"key {KEY[:12]}... may not use this model", "permission denied"),
        (404, "The model `judge-nope` does not exist", "model 'judge-nope' not found"),
    ],
)
def test_refused_key_or_unknown_model_stops_the_run_at_once(
    tiny_suite, fake_openai, tmp_path, status, message, expected
):
    fake_openai.script("status", times=None, status=status, message=message)
    t0 = time.perf_counter()
    result, report = cli(tiny_suite, fake_openai, tmp_path, "--model", "judge-nope")
    wall = time.perf_counter() - t0
    assert result.exit_code == 4, result.output
    assert expected in result.output and fake_openai.url in result.output
    assert KEY not in result.output and KEY[:12] not in result.output
    assert "judge failed on" not in result.output and not report.exists()
    assert wall < 10 and len(fake_openai.completions()) <= 3


def test_refused_key_stops_a_big_run_after_the_first_calls(fake_openai, tmp_path):
    fake_openai.script("status", times=None, status=401, message="invalid api key")
    result, _ = cli(EXAMPLE, fake_openai, tmp_path, "--concurrency", "4")
    assert result.exit_code == 4 and "authentication failed" in result.output, result.output
    assert len(fake_openai.completions()) <= 4  # the calls already in flight, no more


def test_dry_run_of_a_fully_cached_run_counts_no_requests_to_make(
    tiny_suite, fake_openai, tmp_path
):
    def run(*extra: str) -> str:
        result, _ = cli(tiny_suite, fake_openai, tmp_path, "--max-batch", "8", *extra)
        assert result.exit_code in (0, 1, 3), result.output
        return result.output

    fresh = run("--dry-run")
    assert "1 call(s)" in fresh and "3 small case(s) packed into 1 batched request(s)" in fresh
    run()  # judge for real: the batch reply is cached
    calls = len(fake_openai.completions())
    cached = run("--dry-run")
    assert len(fake_openai.completions()) == calls
    assert "0 call(s)" in cached and "1 answered from the cache" in cached
    assert "packed into 1 batched request(s)" not in cached, cached
    assert "3 small case(s) in 1 batched request(s) answered from the cache" in cached
