"""The bundled golden suite is valid, labelled, and a real regression of every type/severity."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from halgate.evaluation.suite_labels import load_labels
from halgate.inputs.suite import load_suite
from halgate.models import HallucinationType, Severity

from ..conftest import EXAMPLE_SUITE


def test_example_suite_loads_with_labels_matching_answers():
    suite = load_suite(EXAMPLE_SUITE)
    assert len(suite.cases) >= 40
    assert len({c.domain for c in suite.cases}) >= 4
    labels = load_labels(Path(suite.path) / "labels.jsonl", suite)  # checks every span
    assert {(lab.case_id, lab.system) for lab in labels} == {
        (c.case_id, s) for c in suite.cases for s in ("baseline", "candidate")
    }


def test_candidate_carries_every_type_and_severity():
    suite = load_suite(EXAMPLE_SUITE)
    claims = [
        c
        for lab in load_labels(Path(suite.path) / "labels.jsonl", suite)
        if lab.system == "candidate"
        for c in lab.claims
    ]
    types = Counter(c.hallucination_type for c in claims if c.hallucination_type)
    sevs = Counter(c.severity for c in claims if c.severity)
    assert set(types) == set(HallucinationType)
    assert set(sevs) == set(Severity)
    assert any(c.verdict.value == "CONTRADICTED" for c in claims)


def test_every_failure_mode_tag_is_used():
    tags = Counter(t for c in load_suite(EXAMPLE_SUITE).cases for t in c.tags)
    for tag in (
        "lookup",
        "multi-hop",
        "conflicting-sources",
        "ambiguous",
        "should-abstain",
        "numeric",
    ):
        assert tags[tag] >= 4, tag
