"""A user's suite built from RAGTruth: the same sources answered by two LLMs, no task tags.

GPT-4 and GPT-3.5 answered the same RAGTruth sources with hallucination rates humans find
nearly equal: a release that swaps one for the other is equivalent, and a gate must not
block it. The suite is written the way a user would write it (questions, documents, two
systems' answers), without the benchmark's task names, so the judge gets no hint.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from halgate.evaluation.benchmark import part_of

BASELINE_MODEL = "gpt-4-0613"
CANDIDATE_MODEL = "gpt-3.5-turbo-0613"


def write_pair_suite(benchmark: Path, out: Path, holdout_only: bool = True) -> dict[str, float]:
    """Write a suite folder of the sources both models answered (each row of the held-out
    part when `holdout_only`); return the human answer-level hallucination rates."""
    by_source: dict[str, dict[str, dict]] = defaultdict(dict)
    for line in benchmark.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        by_source[row["meta"]["source_id"]][row["meta"]["model"]] = row
    pairs = [
        (sid, m[BASELINE_MODEL], m[CANDIDATE_MODEL])
        for sid, m in sorted(by_source.items())
        if BASELINE_MODEL in m
        and CANDIDATE_MODEL in m
        and (
            not holdout_only
            or part_of(m[BASELINE_MODEL]["id"]) == part_of(m[CANDIDATE_MODEL]["id"]) == "holdout"
        )
    ]
    (out / "answers").mkdir(parents=True)
    docs, cases, base, cand = {}, [], [], []
    for sid, b, c in pairs:
        ids = []
        for d in b["documents"]:
            doc_id = f"s{sid}-{d['doc_id']}"
            docs[doc_id] = {"doc_id": doc_id, "text": d["text"]}
            ids.append(doc_id)
        case_id = f"src-{sid}"
        cases.append({"case_id": case_id, "question": b["question"] or "", "doc_ids": ids})
        base.append({"case_id": case_id, "answer": b["answer"]})
        cand.append({"case_id": case_id, "answer": c["answer"]})

    def jsonl(path: Path, items) -> None:
        path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")

    jsonl(out / "documents.jsonl", docs.values())
    jsonl(out / "cases.jsonl", cases)
    jsonl(out / "answers" / "baseline.jsonl", base)
    jsonl(out / "answers" / "candidate.jsonl", cand)
    n = len(pairs)
    return {
        "n": n,
        "baseline": sum(b["label"] == "hallucinated" for _, b, _ in pairs) / n,
        "candidate": sum(c["label"] == "hallucinated" for _, _, c in pairs) / n,
    }
