"""A run killed midway resumes: no completed call is repeated, and the report is the same.

Run twice: one case per request (``--max-batch 1``) and two small cases per batched request
(``--max-batch 2``), where what is cached and resumed is the batch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from halgate.judges.llm.cache import JudgeCache, cache_key

from ..conftest import write_jsonl

N_CASES = 12


def make_suite(root: Path) -> Path:
    """Twelve small compare cases, each with its own document."""
    docs, cases, base, cand = [], [], [], []
    for i in range(N_CASES):
        docs.append(
            {
                "doc_id": f"d{i}",
                "text": f"Product {i} ships within {i + 2} days. "
                f"Product {i} has a warranty of {i + 1} years.",
            }
        )
        cases.append(
            {
                "case_id": f"c{i:02d}",
                "question": f"How fast does product {i} ship?",
                "doc_ids": [f"d{i}"],
            }
        )
        base.append({"case_id": f"c{i:02d}", "answer": f"Product {i} ships within {i + 2} days."})
        cand.append({"case_id": f"c{i:02d}", "answer": f"Product {i} ships within {i + 9} days."})
    write_jsonl(root / "documents.jsonl", docs)
    write_jsonl(root / "cases.jsonl", cases)
    write_jsonl(root / "answers" / "baseline.jsonl", base)
    write_jsonl(root / "answers" / "candidate.jsonl", cand)
    return root


def command(suite: Path, url: str, db: Path, out: Path, per_call: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "halgate.cli",
        "run",
        str(suite),
        "--judge",
        "llm",
        "--base-url",
        url,
        "--api-key",
        "sk-resume",
        "--db",
        str(db),
        "--out",
        str(out),
        "--concurrency",
        "2",
        "-q",
        "--no-save",
        "--max-batch",
        str(per_call),
    ]


def env(tmp_path: Path) -> dict[str, str]:
    e = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HALGATE_MODEL", "HALGATE_DB")
    }
    e["HOME"] = str(tmp_path)
    return e


def stable(report: dict) -> dict:
    """A report without what legitimately differs between runs (ids, times, spend)."""
    drop = {"run_id", "created_at", "timings", "usage"}
    out = {k: v for k, v in report.items() if k not in drop}
    out["analyses"] = [{k: v for k, v in a.items() if k != "usage"} for a in report["analyses"]]
    return out


def request_key(body: dict) -> str:
    """The cache key of a request as the judge computes it (a batch's or a single case's)."""
    if '<case id="' in body["messages"][-1]["content"]:
        return cache_key(
            "compare-batch-v2",
            body["model"],
            {"kind": "claims_batch", "messages": body["messages"]},
        )
    return cache_key("compare-v2", body["model"], {"kind": "claims", "messages": body["messages"]})


@pytest.mark.parametrize("per_call", [1, 2])
def test_killed_run_resumes_without_repeating_completed_calls(tmp_path, fake_openai, per_call):
    suite = make_suite(tmp_path / "suite")
    fake_openai.latency = 0.3
    n_calls = N_CASES // per_call
    db, out = tmp_path / "h.db", tmp_path / "r.json"
    cmd = command(suite, fake_openai.url, db, out, per_call)
    proc = subprocess.Popen(
        cmd, env=env(tmp_path), cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.time() + 60
    while sum(r.outcome == "answered" for r in fake_openai.completions()) < 5 // per_call + 1:
        assert time.time() < deadline and proc.poll() is None, "run ended before the kill"
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    assert not out.exists()
    cache = JudgeCache(db)
    done = cache.keys()
    cache.close()
    assert 2 <= len(done) < n_calls
    before = len(fake_openai.completions())

    rerun = subprocess.run(cmd, env=env(tmp_path), cwd=tmp_path, capture_output=True, text=True)
    assert rerun.returncode in (0, 1, 3), rerun.stderr
    again = [request_key(r.body) for r in fake_openai.completions()[before:]]
    assert not set(again) & done  # nothing completed was asked again
    assert len(again) == n_calls - len(done)

    fresh_out = tmp_path / "fresh.json"
    fresh_cmd = command(suite, fake_openai.url, tmp_path / "fresh.db", fresh_out, per_call)
    fresh = subprocess.run(
        fresh_cmd, env=env(tmp_path), cwd=tmp_path, capture_output=True, text=True
    )
    assert fresh.returncode == rerun.returncode
    resumed = json.loads(out.read_text())
    assert stable(resumed) == stable(json.loads(fresh_out.read_text()))
    assert resumed["usage"]["cached"] == len(done)
