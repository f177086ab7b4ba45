"""Real release pairs through halgate's own commands, the humans' labels playing the reviewer
(issue #33 acceptance, "shared dev data").

RAGTruth dev holds six LLMs' answers to the same sources with the humans' answer labels. For
each pair of them (baseline = the first in name order, candidate = the second), over the
sources both answered, this builds a plain suite folder as a user would write it (cases,
documents, one answers file per system; no tags, no domain; summary and data-to-text sources
get the instruction a user would type, QA keeps its question), then:

1. ``halgate run SUITE --db STORE --policy P`` (compare mode, offline judge) into a fresh
   SQLite store, the policy gating on the corrected change alone: ``gate_on_corrected``,
   ``max_rate_increase`` 0.05 decided on the interval (the default), the absolute limits
   lifted and ``require_review_before_pass`` off, so the decision is the change's;
2. ``halgate review RUN --pending`` for the audit answers the store drew, in its order;
3. ``halgate override RUN audit:CASE:SYSTEM --label hallucinated|faithful`` with the humans'
   label, one answer at a time, and ``halgate gate RUN`` at each look (30, 60, ... labelled
   cases: the interval in force changes only there, ``scoring.looks``), until the
   ``max_rate_increase`` rule is decided, ``CAP`` cases are labelled, or the gate stops
   asking for labels (undecided with "a reviewer decides (sign-off)": no look would decide).

Printed per pair: the decision, the answer labels it took, the true change (the humans'
labels on every common source), and whether the final corrected interval covers it. The
commands run in-process (typer's CliRunner: the same code as the installed ``halgate``,
without a process start per label). The dev file is read to measure only: nothing here is
chosen on it.

Run: ``nice .venv/bin/python tests/bench/bench_real_pairs_cli.py [PAIRS [FIRST]]`` (needs
/work/shared; PAIRS = how many pairs, in name order from the FIRST-th (0-based), default all
15; 2 to 9 minutes a pair on a loaded 2-core machine: each label is a command).
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from halgate.cli.app import app
from typer.testing import CliRunner

DEV = Path("/work/shared/benchmarks/ragtruth/dev.jsonl")
CAP = 60  # audited cases (two answer labels each) before the bench stops asking
LOOKS = {30 * 2**j for j in range(8)}  # the looks of the default audit_sample = 30
LIMIT = 0.05
POLICY = f"""gate_on_corrected = true
max_rate_increase = {LIMIT}
require_review_before_pass = false
max_abstention_increase = 1.0
max_abstention_rate = 1.0
max_fabrication_rate = 1.0
max_contradiction_rate = 1.0
"""
# What a user types for the sources that come without a question.
INSTRUCTIONS = {
    "summary": "Summarize the following news article.",
    "data2text": "Write an overview of the following local business based only on its data.",
}
AUDIT_ID = re.compile(r"audit:[^\s:]+:[^\s:]+")
RUNNER = CliRunner()


def halgate(*args: str) -> tuple[int, str]:
    """Run one halgate command in-process; (exit code, output)."""
    result = RUNNER.invoke(app, list(args))
    return result.exit_code, result.output


def by_model() -> dict[str, dict[str, dict]]:
    """Model -> source key -> the dev row of its answer."""
    out: dict[str, dict[str, dict]] = defaultdict(dict)
    for line in DEV.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        key = f"{row['task']}-{row['meta']['source_id']}"
        out[row["meta"]["model"]][key] = row
    return out


def _jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def write_suite(root: Path, base: dict[str, dict], cand: dict[str, dict], keys: list[str]) -> None:
    """A plain suite of the common sources: cases, documents, baseline and candidate."""
    cases, docs = [], []
    for key in keys:
        row = base[key]
        ids = [f"{key}-{d['doc_id']}" for d in row["documents"]]
        question = row["question"] or INSTRUCTIONS[row["task"]]
        cases.append({"case_id": key, "question": question, "doc_ids": ids})
        docs += [
            {"doc_id": i, "text": d["text"]} for i, d in zip(ids, row["documents"], strict=True)
        ]
    _jsonl(root / "cases.jsonl", cases)
    _jsonl(root / "documents.jsonl", docs)
    for name, rows in (("baseline", base), ("candidate", cand)):
        answers = [{"case_id": k, "answer": rows[k]["answer"]} for k in keys]
        _jsonl(root / "answers" / f"{name}.jsonl", answers)
    (root / "policy.toml").write_text(POLICY, encoding="utf-8")


def rule_state(db: str, run_id: str) -> tuple[str, dict]:
    """The max_rate_increase rule's status after ``halgate gate`` ("WAITING" while the gate
    still reads the judge's figures: the audit sample in force is not all labelled), and the
    corrected change of the stored run (``halgate export -f json``)."""
    halgate("gate", run_id, "--db", db)
    _, text = halgate("export", run_id, "-f", "json", "--db", db)
    report = json.loads(text)
    rule = next(r for r in report["decision"]["reasons"] if r["rule"] == "max_rate_increase")
    cmp = report["comparison"]
    status = rule["status"] if cmp.get("gated_on_corrected") else "WAITING"
    return status, cmp.get("corrected_change") or {}


def pending_audit(db: str, run_id: str) -> list[str]:
    """The audit answers still to label, in the order the store's review lists them."""
    _, text = halgate("review", run_id, "--pending", "--db", db)
    return list(dict.fromkeys(AUDIT_ID.findall(text)))


def play_reviewer(
    db: str, run_id: str, truth: dict[tuple[str, str], bool]
) -> tuple[str, int, dict]:
    """Label the audit sample in the store's order and re-decide at each look (the interval
    in force changes only there, ``scoring.looks``), until the change rule is decided or CAP
    cases are labelled."""
    status, change = rule_state(db, run_id)
    labels, cases = 0, set()
    while status in ("WAITING", "NEEDS_REVIEW") and len(cases) < CAP:
        todo = pending_audit(db, run_id)
        if not todo:
            break
        for i, item in enumerate(todo):
            _, case_id, system = item.split(":")
            label = "hallucinated" if truth[(case_id, system)] else "faithful"
            code, out = halgate(
                "override", run_id, item, "--label", label, "-m", "human label", "-r", "bench",
                "--db", db,
            )  # fmt: skip
            assert code == 0, out
            labels += 1
            cases.add(case_id)
            if any(f":{case_id}:" in rest for rest in todo[i + 1 :]):
                continue  # the case's other answer is next
            if len(cases) in LOOKS or len(cases) >= CAP or i == len(todo) - 1:
                status, change = rule_state(db, run_id)
                if status not in ("WAITING", "NEEDS_REVIEW") or len(cases) >= CAP:
                    break
    return status, labels, change


def one_pair(base_name: str, cand_name: str, models: dict, work: Path) -> dict:
    base, cand = models[base_name], models[cand_name]
    keys = sorted(set(base) & set(cand))
    root = work / f"{base_name}--{cand_name}"
    write_suite(root, base, cand, keys)
    db, out = str(root / "store.db"), str(root / "report.json")
    code, text = halgate("run", str(root), "--db", db, "--out", out, "-q")
    assert code in (0, 1, 3), text
    run_id = json.loads(Path(out).read_text(encoding="utf-8"))["run_id"]
    truth = {(k, "baseline"): base[k]["label"] == "hallucinated" for k in keys}
    truth |= {(k, "candidate"): cand[k]["label"] == "hallucinated" for k in keys}
    true = sum(truth[(k, "candidate")] - truth[(k, "baseline")] for k in keys) / len(keys)
    status, labels, change = play_reviewer(db, run_id, truth)
    low, high = change.get("ci_low"), change.get("ci_high")
    covers = low is not None and high is not None and low <= true <= high
    right = {"FAILED": true > LIMIT, "PASSED": true <= LIMIT}.get(status)
    return {
        "pair": f"{base_name} -> {cand_name}", "cases": len(keys), "true": true,
        "status": status, "labels": labels, "estimate": change.get("estimate"),
        "low": low, "high": high, "covers": covers, "right": right,
        "paired": change.get("paired"), "one_sided": change.get("n_one_sided", 0),
    }  # fmt: skip


def main() -> None:
    if not DEV.exists():
        sys.exit(f"{DEV} not found")
    models = by_model()
    pairs = list(itertools.combinations(sorted(models), 2))
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else len(pairs)
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    results = []
    with tempfile.TemporaryDirectory(prefix="halgate-pairs-") as tmp:
        for base_name, cand_name in pairs[first : first + limit]:
            t0 = time.perf_counter()
            r = one_pair(base_name, cand_name, models, Path(tmp))
            results.append(r)
            ci = f"({r['low']:+.3f}, {r['high']:+.3f})" if r["low"] is not None else "(none)"
            print(
                f"{r['pair']:<44} N={r['cases']:>3} true {r['true']:+.3f} -> {r['status']:<12} "
                f"after {r['labels']:>3} labels, corrected {ci} covers {r['covers']} "
                f"right {r['right']}; paired {r['paired']} ({r['one_sided']} one-sided cases) "
                f"[{time.perf_counter() - t0:.0f} s]",
                flush=True,
            )
    decided = [r for r in results if r["right"] is not None]
    right = sum(r["right"] for r in decided)
    labels = sum(r["labels"] for r in results) / len(results)
    covers = sum(r["covers"] for r in results)
    print(
        f"\n{len(results)} pairs: decided {len(decided)} (right {right}, wrong "
        f"{len(decided) - right}), undecided {len(results) - len(decided)} (at the cap, or "
        f"sign-off: no look would decide); mean labels {labels:.1f}; final interval covers "
        f"the true change in {covers} of "
        f"{len(results)}"
    )


if __name__ == "__main__":
    main()
