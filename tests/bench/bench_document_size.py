"""Offline judge cost against document size: one case, one answer, a document of N MB.

Run: `.venv/bin/python tests/bench/bench_document_size.py [MB ...]` (default 0.5 1 2 4).
Cost should grow linearly with size (seconds per MB roughly constant); documents above the
suite limit (`MAX_DOCUMENT_BYTES`, 5 MB) are refused at load with an error naming the file.
Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import random
import sys
import time

from halgate.inputs.suite import MAX_DOCUMENT_BYTES
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, Document

ANSWER = "Item 5 costs 20 dollars. It ships in 3 days. Item 9 is free. The w1 w2 w3 are included."


def document(n_bytes: int, seed: int = 0) -> str:
    """Prose of about `n_bytes`: numbered items with prices, delivery times and filler."""
    rnd = random.Random(seed)
    words = [f"w{i}" for i in range(5000)]
    out, size, i = [], 0, 0
    while size < n_bytes:
        filler = " ".join(rnd.choice(words) for _ in range(8))
        price, days = rnd.randint(1, 999), rnd.randint(1, 30)
        s = f"Item {i} costs {price} dollars and ships in {days} days with {filler}."
        out.append(s)
        size += len(s) + 1
        i += 1
    return " ".join(out)


def main(sizes: list[float]) -> None:
    judge = OfflineJudge()
    case = Case(case_id="c", question="What does item 5 cost?")
    print(f"suite limit: {MAX_DOCUMENT_BYTES / 1e6:.0f} MB per document")
    for mb in sizes:
        doc = Document(doc_id=f"d{mb}", text=document(int(mb * 1e6)))
        t = time.perf_counter()
        judge.judge_task(JudgeTask(case=case, documents=[doc], answers={"s": ANSWER}))
        took = time.perf_counter() - t
        print(f"{mb:5.2f} MB  {took:6.2f} s  {took / mb:5.2f} s/MB")


if __name__ == "__main__":
    main([float(a) for a in sys.argv[1:]] or [0.5, 1.0, 2.0, 4.0])
