"""Where the self-test finds its documents: a suite's cases, or a benchmark file's rows.

Either way the result is each document with the targets (case + documents) that cite it; a
document no case cites is left out (no answer is ever checked against it).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from pathlib import Path

from ..evaluation.benchmark import bench_case, load_benchmark
from ..models import Document, Suite
from .generate import Target

DocumentTargets = list[tuple[Document, list[Target]]]


def suite_targets(suite: Suite) -> DocumentTargets:
    """Each document of the suite with the cases that cite it, in case order."""
    cited: dict[str, tuple[Document, list[Target]]] = {}
    for case in suite.cases:
        target = Target(case, suite.case_documents(case))
        for doc in target.documents:
            cited.setdefault(f"{doc.doc_id}\x1f{doc.text}", (doc, []))[1].append(target)
    return list(cited.values())


def benchmark_targets(path: Path) -> DocumentTargets:
    """Each distinct source document of a benchmark file, judged under the first row that
    holds it, as a user's own suite is (no task hint)."""
    seen: dict[str, tuple[Document, list[Target]]] = {}
    for row in load_benchmark(path):
        target = Target(bench_case(row, task_hints=False), row.documents)
        for doc in row.documents:
            key = hashlib.sha256(doc.text.encode()).hexdigest()
            if key not in seen:
                named = Document(doc_id=f"{row.id}/{doc.doc_id}", text=doc.text)
                seen[key] = (named, [target])
    return list(seen.values())


def sample_documents(targets: DocumentTargets, limit: int | None, seed: int) -> DocumentTargets:
    """At most ``limit`` documents, drawn with ``seed`` and kept in their order."""
    if limit is None or limit >= len(targets):
        return list(targets)
    keep = sorted(random.Random(seed).sample(range(len(targets)), limit))
    return [targets[i] for i in keep]


__all__: Sequence[str] = [
    "DocumentTargets",
    "benchmark_targets",
    "sample_documents",
    "suite_targets",
]
