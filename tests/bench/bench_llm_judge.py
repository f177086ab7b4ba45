"""LLM judge throughput against the fake OpenAI server answering after 200 ms.

Run: `.venv/bin/python tests/bench/bench_llm_judge.py [N_CASES] [CONCURRENCY]` (defaults
1,000 compare cases, concurrency 16). The fake runs in its own process (as a real endpoint
would), so its work does not compete with the judge for the GIL. Runs the suite twice, with
small cases batched (the default) and without (``max_batch=1``); for each prints wall time
against the ideal (calls × 0.2 s / concurrency), calls and tokens per case, and the calls of
an immediate re-run (target: 0). Target: wall time within 1.25× of the ideal.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from halgate.inputs.policy import Policy  # noqa: E402
from halgate.inputs.suite import load_suite  # noqa: E402
from halgate.judges.registry import create_judge  # noqa: E402
from halgate.run.engine import run_suite  # noqa: E402
from synthetic import write_suite  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LATENCY = 0.2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_calls(url: str) -> int:
    """Completions the server has answered, by its own count."""
    with urllib.request.urlopen(url + "/_stats", timeout=5) as resp:
        return json.loads(resp.read())["completions"]


def wait_up(url: str, deadline: float = 15.0) -> None:
    t0 = time.time()
    while True:
        try:
            server_calls(url)
            return
        except OSError:
            if time.time() - t0 > deadline:
                raise
            time.sleep(0.1)


def transport_floor(url: str, n_calls: int, concurrency: int) -> float:
    """Wall time of the bare openai client making the same number of trivial calls.

    Separates the machine and the fake server (what any client would pay here) from the
    judge's own overhead (prompt rendering, validation, post-checks, cache writes).
    """
    import asyncio

    import openai

    async def go() -> float:
        client = openai.AsyncOpenAI(api_key="sk-bench", base_url=url)
        limit = asyncio.Semaphore(concurrency)
        messages = [{"role": "user", "content": '<answer id="A">\nHello.\n</answer>'}]

        async def one() -> None:
            async with limit:
                await client.chat.completions.with_raw_response.create(
                    model="m", messages=messages, temperature=0
                )

        t0 = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(n_calls)))
        await client.close()
        return time.perf_counter() - t0

    return asyncio.run(go())


def run_once(suite, url: str, db: Path, concurrency: int, max_batch: int):
    """One judged run: (report, wall seconds, CPU seconds of this process)."""
    judge = create_judge(
        "llm",
        base_url=url,
        api_key="sk-bench",
        db=str(db),
        concurrency=concurrency,
        mode="compare",
        max_batch=max_batch,
    )
    t0, c0 = time.perf_counter(), time.process_time()
    report = run_suite(suite, judge, Policy())
    return report, time.perf_counter() - t0, time.process_time() - c0


def measure(suite, url: str, db: Path, n_cases: int, concurrency: int, max_batch: int) -> dict:
    """Figures of one configuration: a cold run, then an immediate re-run."""
    before = server_calls(url)
    report, wall, cpu = run_once(suite, url, db, concurrency, max_batch)
    calls = server_calls(url) - before
    ideal = calls * LATENCY / concurrency
    tokens = report.usage.get("prompt_tokens", 0) + report.usage.get("completion_tokens", 0)
    _, rerun_wall, _ = run_once(suite, url, db, concurrency, max_batch)
    return {
        "max_batch": max_batch,
        "cases": n_cases,
        "concurrency": concurrency,
        "calls": calls,
        "calls_per_case": calls / n_cases,
        "wall_s": wall,
        "ideal_s": ideal,
        "ratio_to_ideal": wall / ideal,
        "judge_cpu_ms_per_case": cpu / n_cases * 1000,
        "prompt_tokens_per_case": report.usage.get("prompt_tokens", 0) / n_cases,
        "completion_tokens_per_case": report.usage.get("completion_tokens", 0) / n_cases,
        "tokens_per_case": tokens / n_cases,
        "harness_errors": sum(1 for a in report.analyses if a.harness_error),
        "rerun_calls": server_calls(url) - before - calls,
        "rerun_wall_s": rerun_wall,
    }


def main(n_cases: int = 1000, concurrency: int = 16) -> list[dict]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    fake = subprocess.Popen(
        [sys.executable, "-m", "tests.fake_openai", "--port", str(port), "--latency", str(LATENCY)],
        stdout=subprocess.DEVNULL,
        cwd=REPO,  # `-m tests.fake_openai` resolves from the repository root
    )
    results = []
    try:
        wait_up(url)
        with tempfile.TemporaryDirectory() as tmp:
            suite = load_suite(write_suite(Path(tmp) / "suite", n_cases))
            for max_batch in (8, 1):  # batched (default), then one case per call
                db = Path(tmp) / f"halgate-{max_batch}.db"
                results.append(measure(suite, url, db, n_cases, concurrency, max_batch))
            floor = transport_floor(url, results[-1]["calls"], concurrency)
    finally:
        fake.kill()
        fake.wait()
    results[-1]["bare_client_wall_s"] = floor
    results[-1]["bare_client_ratio"] = floor / results[-1]["ideal_s"]
    for figures in results:
        print(f"--- {'batched' if figures['max_batch'] > 1 else 'one case per call'}")
        for k, v in figures.items():
            print(f"{k:<28} {v:10.3f}" if isinstance(v, float) else f"{k:<28} {v:10d}")
        ok = figures["ratio_to_ideal"] <= 1.25 and figures["rerun_calls"] == 0
        print(f"target: wall <= 1.25 x ideal and 0 re-run calls -> {'OK' if ok else 'MISSED'}")
    return results


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
