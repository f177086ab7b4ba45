"""Benchmark scoring: AUROC, response and span figures, the novelty baseline, the split."""

from __future__ import annotations

import json

import pytest
from halgate.errors import UsageError
from halgate.evaluation.benchmark import (
    BenchRow,
    Prediction,
    auroc,
    load_benchmark,
    novelty_score,
    part_of,
    response_metrics,
)
from halgate.models import Document

from ..conftest import SHARED_BENCHMARKS


@pytest.mark.parametrize(
    "labels, scores, expected",
    [
        ([True, False], [0.9, 0.1], 1.0),
        ([True, False], [0.1, 0.9], 0.0),
        ([True, False, True, False], [0.5, 0.5, 0.5, 0.5], 0.5),  # ties count half
        ([True, True, False, False], [0.8, 0.4, 0.6, 0.2], 0.75),
        ([True, True], [0.1, 0.2], None),  # one class only: undefined
    ],
)
def test_auroc(labels, scores, expected):
    assert auroc(labels, scores) == expected


def row(hallucinated, spans=()):
    return BenchRow(
        id="r",
        task="qa",
        question=None,
        documents=[],
        answer="x" * 20,
        hallucinated=hallucinated,
        spans=list(spans),
    )


def test_response_and_span_metrics():
    rows = [row(True, [(0, 10)]), row(True, [(5, 10)]), row(False), row(False)]
    preds = [
        Prediction(True, 0.9, [(0, 5)]),
        Prediction(False, 0.2, []),
        Prediction(True, 0.8, [(0, 4)]),
        Prediction(False, 0.1, []),
    ]
    m = response_metrics(rows, preds)
    assert m["confusion"] == {"tp": 1, "fp": 1, "fn": 1, "tn": 1}
    assert m["precision"] == 0.5 and m["recall"] == 0.5 and m["balanced_accuracy"] == 0.5
    assert m["auroc"] == 0.75
    assert m["span_precision"] == pytest.approx(5 / 9)  # 5 of 9 predicted chars are gold
    assert m["span_recall"] == pytest.approx(5 / 15)


def test_novelty_score_counts_unseen_content_words():
    docs = [Document(doc_id="d", text="The dose is 100 mg daily.")]
    assert novelty_score("The dose is 100 mg daily.", docs) == 0.0
    assert novelty_score("The dose causes severe headaches.", docs) == pytest.approx(3 / 4)


def test_split_is_stable_and_roughly_thirty_percent():
    parts = [part_of(f"row-{i}") for i in range(2000)]
    assert parts == [part_of(f"row-{i}") for i in range(2000)]
    assert 0.25 < parts.count("holdout") / 2000 < 0.35


def test_bad_benchmark_line_names_file_and_line(tmp_path):
    path = tmp_path / "b.jsonl"
    good = {
        "id": "1",
        "task": "qa",
        "documents": [{"doc_id": "d", "text": "t"}],
        "answer": "a",
        "label": "faithful",
        "spans": [],
    }
    path.write_text(json.dumps(good) + "\n" + '{"id": "2"}\n')
    with pytest.raises(UsageError, match=r"b.jsonl:2: bad benchmark row"):
        load_benchmark(path)


@pytest.mark.skipif(not (SHARED_BENCHMARKS / "ragtruth").exists(), reason="no shared benchmarks")
def test_offline_judge_on_ragtruth_sample_beats_nothing():
    from halgate.evaluation.benchmark import evaluate_benchmark
    from halgate.judges.registry import create_judge

    rows = load_benchmark(SHARED_BENCHMARKS / "ragtruth" / "dev.jsonl", limit=60, seed=1)
    result = evaluate_benchmark(create_judge("offline"), rows)
    assert result["overall"]["n"] == 60
    assert 0.0 <= result["overall"]["auroc"] <= 1.0
    assert set(result["per_task"]) <= {"qa", "summary", "data2text"}
