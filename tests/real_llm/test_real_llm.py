"""halgate's LLM judge against a real model server: llama.cpp's ``llama-server`` serving
Gemma 3 270M on this machine's CPU, with the JSON-schema response format.

The fake in tests/fake_openai is a model of the far side; this checks the far side itself:
that a real OpenAI-compatible server takes halgate's strict JSON Schema (no fallback to
``json_object``), that what a real (schema-constrained) decoder writes parses and validates,
that the report is written and valid, and that a re-run answers from the cache with no call.
The model is tiny, so nothing is asserted about its verdicts: they are printed.

Opt-in: ``make test-real-llm`` builds the server and model once (tests/real_llm/build_server.py,
cached in ~/.cache/halgate/real-llm) and runs this with HALGATE_REAL_LLM=1. Under ``make
test`` it is skipped, with the reason. HALGATE_REQUIRE_REAL_LLM=1 turns a missing build
into a failure.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from halgate.cli.app import app
from halgate.judges.llm.client import FORMATS, ChatClient
from halgate.reports.schemas import load_schema
from typer.testing import CliRunner

from .build_server import build_dir, built

pytestmark = [pytest.mark.real_llm, pytest.mark.usefixtures("isolated_llm_env")]

SUITE = Path(__file__).parent / "suite"
MODEL = "gemma-3-270m"
READY_TIMEOUT = 180.0  # seconds for the server to load the model and answer /health
THREADS = 2  # this machine's cores; the server is CPU only
MAX_TOKENS = 768  # per reply, set on the server (halgate sends no max_tokens)


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("HALGATE_REQUIRE_REAL_LLM") == "1":
        pytest.fail(f"{reason} (HALGATE_REQUIRE_REAL_LLM=1)")
    pytest.skip(reason)


def free_port() -> int:
    """A local port nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(base: str, server: subprocess.Popen, log: Path) -> None:
    """Until GET /health answers 200 (it answers 503 while the model loads)."""
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"llama-server exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{base}/health", timeout=5) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    pytest.fail(f"llama-server not ready after {READY_TIMEOUT:.0f} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory) -> Iterator[str]:
    """The built llama-server with the Gemma model on 127.0.0.1; yields its /v1 base URL."""
    info = built()
    if info is None:
        _skip_or_fail(f"llama.cpp server not built (in {build_dir()}): run make test-real-llm")
        return
    if "1" not in (os.environ.get("HALGATE_REAL_LLM"), os.environ.get("HALGATE_REQUIRE_REAL_LLM")):
        pytest.skip("llama.cpp server built; the real-LLM test runs in make test-real-llm")
    port = free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    args = [info["server"], "--model", info["model"], "--host", "127.0.0.1"]
    args += ["--port", str(port), "--alias", MODEL, "--threads", str(THREADS)]
    args += ["--ctx-size", "8192", "--parallel", "2", "--n-predict", str(MAX_TOKENS)]
    with log.open("w") as sink:
        server = subprocess.Popen(args, stdout=sink, stderr=subprocess.STDOUT)
    try:
        wait_ready(f"http://127.0.0.1:{port}", server, log)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def run_halgate(url: str, tmp_path: Path, out: Path) -> tuple[int, str]:
    """``halgate run --judge llm`` on the suite, in-process; (exit code, output)."""
    args = ["run", str(SUITE), "--judge", "llm", "--base-url", url, "--model", MODEL]
    args += ["--db", str(tmp_path / "h.db"), "--out", str(out)]
    args += ["--concurrency", "2", "--max-batch", "1"]
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.output


def test_a_real_model_server_judges_the_suite_then_the_cache_answers(
    llama_server, tmp_path, monkeypatch
):
    formats: list[str] = []
    create = ChatClient._create

    async def recording(self, messages, schema_name, schema, fmt):
        formats.append(FORMATS[fmt])
        return await create(self, messages, schema_name, schema, fmt)

    monkeypatch.setattr(ChatClient, "_create", recording)
    first = tmp_path / "first.json"
    t0 = time.perf_counter()
    code, output = run_halgate(llama_server, tmp_path, first)
    wall = time.perf_counter() - t0
    assert code in (0, 1, 3), output  # a decision: not a harness error (2) nor usage (4)
    data = json.loads(first.read_text())
    jsonschema.validate(data, load_schema("run_report"))
    assert formats and set(formats) == {"json_schema"}, formats  # never fell back
    errors = {(a["case_id"], a["system"]): a["harness_error"] for a in data["analyses"]}
    assert all(e is None for e in errors.values()), errors
    assert data["usage"]["calls"] >= 3 and data["usage"]["completion_tokens"] > 0
    print(f"\nllama-server + {MODEL}: {len(formats)} call(s) in {wall:.1f} s, exit code {code}")
    print(f"usage {data['usage']}")
    for a in data["analyses"]:
        print(f"  {a['case_id']}/{a['system']}:")
        for c in a["claims"]:
            quotes = sum(q["verified"] for q in c["citations"])
            print(f"    {c['verdict']:<20} {c['text']!r} ({quotes} verified quote(s))")
    formats.clear()
    again = tmp_path / "again.json"
    code_again, output = run_halgate(llama_server, tmp_path, again)
    assert code_again == code, output
    cached = json.loads(again.read_text())
    jsonschema.validate(cached, load_schema("run_report"))
    assert formats == [] and cached["usage"]["calls"] == 0, cached["usage"]
    assert cached["usage"]["cached"] == 3  # one request a case, each answered from the cache
