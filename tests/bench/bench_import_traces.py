"""Memory and time of `halgate import otlp` on a large OpenTelemetry trace export.

Run: `.venv/bin/python tests/bench/bench_import_traces.py [MEGABYTES ...]` (default 100 1024).
Writes a synthetic OTLP JSON export of about that size (one ExportTraceServiceRequest per
line, as the collector's file exporter writes; each trace a root, a retriever span with 5
passages drawn from a pool of 2,000, and an LLM span holding a long system prompt and a
prompt that repeats those passages, as OpenInference instrumentations record them), then
imports it in a fresh process and prints wall time, throughput and the peak resident memory
of that process. Prints figures; asserts
nothing. The export is written under $TMPDIR and removed afterwards.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POOL = 2_000
# A long system prompt, as real LLM spans record one: about 15 kB a trace in all, so that
# 1 GB holds some 66,000 traces (a suite holds at most 100,000 cases).
SYSTEM_PROMPT = "You answer questions about kettles from the passages only. " * 125
WORDS = "kettle warranty litres boils minutes descale citric purchase switch empty jug".split()


def _attr(key: str, value: str) -> dict:
    return {"key": key, "value": {"stringValue": value}}


def _span(trace: str, span: str, parent: str | None, kind: str, attrs: list[dict]) -> dict:
    out = {"traceId": trace, "spanId": span, "name": kind.lower(), "endTimeUnixNano": "1"}
    if parent:
        out["parentSpanId"] = parent
    out["attributes"] = [_attr("openinference.span.kind", kind), *attrs]
    return out


def _line(spans: list[dict]) -> str:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}) + "\n"


def write_export(path: Path, megabytes: int, seed: int = 7) -> int:
    """Write about ``megabytes`` of traces; return how many traces."""
    rng = random.Random(seed)
    pool = [
        f"Passage {i}: " + " ".join(rng.choice(WORDS) for _ in range(80)) + f" It costs {i} euros."
        for i in range(POOL)
    ]
    limit, size, n = megabytes * 1_000_000, 0, 0
    with path.open("w") as f:
        while size < limit:
            n += 1
            tid, root, ret, llm = (
                f"{n:032x}",
                f"{3 * n:016x}",
                f"{3 * n + 1:016x}",
                f"{3 * n + 2:016x}",
            )
            docs = rng.sample(pool, 5)
            question = f"Question {n}: how much does passage {docs[0][8:12]} cost?"
            attrs = [
                _attr(f"retrieval.documents.{i}.document.content", d) for i, d in enumerate(docs)
            ]
            prompt = "Answer from these passages:\n" + "\n".join(docs) + "\nQuestion: " + question
            spans = [
                _span(tid, ret, root, "RETRIEVER", attrs),
                _span(
                    tid,
                    llm,
                    root,
                    "LLM",
                    [
                        _attr("llm.input_messages.0.message.content", SYSTEM_PROMPT),
                        _attr("llm.input_messages.1.message.content", prompt),
                        _attr("output.value", f"It costs {rng.randrange(POOL)} euros."),
                    ],
                ),  # fmt: skip
                _span(tid, root, None, "CHAIN", [_attr("input.value", question)]),
            ]
            text = _line(spans)
            f.write(text)
            size += len(text)
    return n


# The child reports its own peak resident memory as it exits.
CHILD = """
import atexit, resource, sys
atexit.register(lambda: print("peak_kb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                              file=sys.stderr))
sys.argv = ["halgate", *sys.argv[1:]]
from halgate.cli import main
main()
"""


def measure(export: Path, out: Path) -> dict[str, float]:
    """Import in a fresh process; its wall time and peak RSS."""
    t0 = time.perf_counter()
    cmd = [sys.executable, "-c", CHILD, "import", "otlp", str(export), "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"import failed: {done.stdout}{done.stderr}")
    peak_kb = int(done.stderr.rsplit("peak_kb", 1)[1].split()[0])
    return {"seconds": seconds, "peak_rss_mb": peak_kb / 1024}


def main(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for mb in sizes:
            export = Path(tmp) / f"export-{mb}.jsonl"
            t0 = time.perf_counter()
            traces = write_export(export, mb)
            made = time.perf_counter() - t0
            actual = export.stat().st_size / 1e6
            figures = measure(export, Path(tmp) / f"suite-{mb}")
            suite_mb = sum(f.stat().st_size for f in (Path(tmp) / f"suite-{mb}").rglob("*")) / 1e6
            print(
                f"{actual:8.0f} MB export, {traces} traces (written in {made:.0f} s): imported in "
                f"{figures['seconds']:.1f} s ({actual / figures['seconds']:.1f} MB/s), peak RSS "
                f"{figures['peak_rss_mb']:.0f} MB; suite folder {suite_mb:.0f} MB",
                flush=True,
            )
            export.unlink()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main([int(a) for a in sys.argv[1:]] or [100, 1024])
