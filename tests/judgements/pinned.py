"""Judgements pinned: a small frozen corpus judged by the offline judge, with rules only and
with the learned model, compared claim by claim with a committed snapshot.

The corpus is the example suite plus a fixed sample of the tune part of the shared dev files
(ragtruth, faithbench, wice), whose inputs are committed in corpus.jsonl so the test runs
without ../shared. A changed verdict, type, severity or deciding rule fails the test with
a diff that names the rule before and after; to accept it, regenerate in the same commit:

    .venv/bin/python tests/judgements/pinned.py --write

(``--sample`` also redraws the benchmark sample from ../shared/benchmarks: rarely needed.)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from halgate.evaluation.benchmark import BenchRow, bench_case, load_benchmark
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.protocol import JudgeTask
from halgate.models import Document
from halgate.run.engine import run_suite

HERE = Path(__file__).parent
REPO = HERE.parents[1]
CORPUS = HERE / "corpus.jsonl"
SNAPSHOT = HERE / "snapshot.jsonl"
EXAMPLE_SUITE = REPO / "data" / "examples" / "acme-helpdesk"
SHARED = REPO.parent / "shared" / "benchmarks"
SAMPLED = ("ragtruth", "faithbench", "wice")
ROWS_PER_FILE = 12
MAX_ROW_CHARS = 4000  # keeps the committed corpus small (under 300 KB)
PINNED = ("verdict", "hallucination_type", "severity", "deciding_rule", "model_changed")


def draw_sample() -> list[dict[str, Any]]:
    """The first rows of each file's tune part by a hash of their id, among the short ones."""
    out = []
    for name in SAMPLED:
        rows = load_benchmark(SHARED / name / "dev.jsonl", part="tune")
        short = [r for r in rows if _chars(r) < MAX_ROW_CHARS]
        short.sort(key=lambda r: hashlib.sha256(r.id.encode()).hexdigest())
        out += [_row_record(name, r) for r in short[:ROWS_PER_FILE]]
    return out


def _chars(r: BenchRow) -> int:
    return len(r.answer) + sum(len(d.text) for d in r.documents)


def _row_record(source: str, r: BenchRow) -> dict[str, Any]:
    return {
        "source": source,
        "id": r.id,
        "task": r.task,
        "question": r.question,
        "documents": [{"doc_id": d.doc_id, "text": d.text} for d in r.documents],
        "answer": r.answer,
    }


def _rows() -> list[BenchRow]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        docs = [Document(doc_id=d["doc_id"], text=d["text"]) for d in r["documents"]]
        rows.append(BenchRow(r["id"], r["task"], r["question"], docs, r["answer"], False, []))
    return rows


def judge_corpus() -> list[dict[str, Any]]:
    """Every claim of the corpus judged with rules only and with the model, as records."""
    out = []
    for mode, use_model in (("rules", False), ("model", True)):
        judge = OfflineJudge(use_model=use_model)
        report = run_suite(load_suite(EXAMPLE_SUITE), judge, Policy())
        claims = [c for a in report.analyses for c in a.claims]
        rows = _rows()
        tasks = [
            JudgeTask(case=bench_case(r, False), documents=r.documents, answers={"s": r.answer})
            for r in rows
        ]
        for result in judge.judge(tasks):
            claims += result.claims.get("s", [])
        out += [_record(mode, c) for c in claims]
    return out


def _record(mode: str, c: Any) -> dict[str, Any]:
    d = c.model_dump(mode="json", include={"claim_id", "text", *PINNED})
    return {"mode": mode, **d, "text": d["text"][:48]}


def read_snapshot() -> list[dict[str, Any]]:
    """The committed snapshot."""
    return [json.loads(x) for x in SNAPSHOT.read_text(encoding="utf-8").splitlines() if x]


def snapshot_diff(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[str]:
    """One line per claim whose pinned judgement changed (or that appeared or vanished),
    naming the rule that decided before and after."""
    before = {(r["mode"], r["claim_id"]): r for r in old}
    after = {(r["mode"], r["claim_id"]): r for r in new}
    lines = []
    for key in sorted(before.keys() | after.keys()):
        a, b = before.get(key), after.get(key)
        if a is None or b is None:
            what = "new claim" if a is None else "claim gone"
            lines.append(f"{key[0]} {key[1]}: {what}: {(a or b)['text']!r}")  # type: ignore[index]
        elif any(a[k] != b[k] for k in PINNED):
            lines.append(f"{key[0]} {key[1]}: {_state(a)} -> {_state(b)}  {a['text']!r}")
    return lines


def _state(r: dict[str, Any]) -> str:
    model = ", learned model overturned it" if r["model_changed"] else ""
    kind = r["hallucination_type"] or "-"
    return f"{r['verdict']}/{kind}/{r['severity'] or '-'} (rule {r['deciding_rule']}{model})"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite snapshot.jsonl")
    parser.add_argument("--sample", action="store_true", help="redraw corpus.jsonl from ../shared")
    args = parser.parse_args(argv)
    if args.sample:
        rows = draw_sample()
        CORPUS.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    new = judge_corpus()
    if args.write:
        SNAPSHOT.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in new), "utf-8")
        print(f"wrote {len(new)} judgements to {SNAPSHOT}")
        return 0
    diff = snapshot_diff(read_snapshot(), new)
    print("\n".join(diff) or "no change")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
