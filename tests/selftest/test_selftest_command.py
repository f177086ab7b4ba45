"""`halgate selftest` on the example suite and on a benchmark file, judged for real."""

from __future__ import annotations

import json

import pytest
from halgate.cli.app import app
from typer.testing import CliRunner

from ..conftest import EXAMPLE_SUITE

runner = CliRunner()


def selftest_json(*args: str) -> dict:
    result = runner.invoke(app, ["selftest", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.fixture(scope="module")
def example() -> dict:
    return selftest_json(str(EXAMPLE_SUITE), "--seed", "1")


def test_every_generated_claim_is_counted_once_per_transform(example):
    assert sum(t["claims"] for t in example["transforms"]) == len(example["items"])
    assert sum(k["preserving"] + k["changing"] for k in example["risks"]) == len(example["items"])
    # 12 documents, of which 4 are older versions that a newer one replaces in every case
    # that cites them: not drawn from.
    assert example["documents"] == 8 and example["sentences"] > 40


def test_no_claim_restates_a_document_a_newer_version_replaces_in_its_case(example):
    replaced = {"med-leaflet-2021", "legal-tenancy-2022", "prod-api-v2", "travel-policy-2023"}
    drawn = {i["doc_id"] for i in example["items"]}
    assert drawn and not drawn & replaced
    assert "med-leaflet-2024" in drawn


def test_each_item_records_its_source_sentence_and_expected_truth(example):
    items = example["items"]
    verbatim = [i for i in items if i["transform"] == "verbatim"]
    assert verbatim and all(i["claim"] == i["source"] for i in verbatim)
    assert {i["preserves_truth"] for i in items} == {True, False}
    changed = [i for i in items if not i["preserves_truth"]]
    assert all(i["claim"] != i["source"] for i in changed)


def test_the_same_seed_gives_the_same_report_and_another_seed_other_sentences(example):
    again = selftest_json(str(EXAMPLE_SUITE), "--seed", "1")
    other = selftest_json(str(EXAMPLE_SUITE), "--seed", "2")
    strip = lambda r: {k: v for k, v in r.items() if k != "seconds"}  # noqa: E731
    assert strip(again) == strip(example)
    sources = lambda r: {i["source"] for i in r["items"]}  # noqa: E731
    assert sources(other) != sources(example)


def test_the_targets_are_reported_and_check_exits_on_a_missed_one(example):
    names = [t["name"] for t in example["targets"]]
    assert "copies SUPPORTED" in names and "polarity flips CONTRADICTED" in names
    result = runner.invoke(app, ["selftest", str(EXAMPLE_SUITE), "--seed", "1", "--check", "-q"])
    missed = any(t["met"] is False for t in example["targets"])
    assert result.exit_code == (1 if missed else 0)
    assert "targets:" in result.output and "verbatim" in result.output


def test_a_benchmark_file_lends_its_documents(tmp_path):
    doc = {
        "doc_id": "d",
        "text": "Guests must not smoke in the rooms. Breakfast is served from 7am until 10am "
        "on weekdays. Pets are allowed in the garden only if they are kept on a lead.",
    }
    rows = [
        {
            "id": f"r{i}",
            "task": "qa",
            "question": "Rules?",
            "documents": [doc],
            "answer": "x",
            "label": "faithful",
            "spans": [],
        }
        for i in range(2)
    ]
    path = tmp_path / "bench.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    report = selftest_json("--benchmark", str(path), "-t", "verbatim", "-t", "time_changed")
    assert report["documents"] == 1  # both rows hold the same document
    assert {i["transform"] for i in report["items"]} == {"verbatim", "time_changed"}
    time = next(i for i in report["items"] if i["transform"] == "time_changed")
    assert "9am" in time["claim"] and time["verdict"] != "SUPPORTED"


@pytest.mark.parametrize(
    "args",
    [
        [],
        [str(EXAMPLE_SUITE), "--benchmark", "x.jsonl"],
        [str(EXAMPLE_SUITE), "-t", "no_such_transform"],
    ],
)
def test_bad_usage_exits_4_and_says_why(args):
    result = runner.invoke(app, ["selftest", *args])
    assert result.exit_code == 4
    assert "error:" in result.output
