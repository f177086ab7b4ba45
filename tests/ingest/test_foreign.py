"""RAGAS and DeepEval files written by ragas 0.4.3 and deepeval 4.3.1 themselves
(tests/ingest/fixtures/make_foreign_fixtures.py, run in throwaway virtual environments:
neither library is installed here), imported by halgate and checked against the cases they
were written from (fixtures/cases.json): questions, documents, both answers, references,
names, and the file and row each came from."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from halgate.cli import app
from halgate.ingest import import_sources
from halgate.inputs.suite import load_suite
from typer.testing import CliRunner

FIXTURES = Path(__file__).parent / "fixtures"
CASES = json.loads((FIXTURES / "cases.json").read_text(encoding="utf-8"))["cases"]
RAGAS, DEEPEVAL = FIXTURES / "ragas", FIXTURES / "deepeval"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("folder", "writer"), [(RAGAS, "ragas==0.4.3"), (DEEPEVAL, "deepeval==4.3.1")]
)
def test_the_fixtures_are_what_their_generator_wrote(folder, writer):
    """Edited by hand, or a generator or cases.json changed without a regeneration: fails."""
    manifest = json.loads((folder / "MANIFEST.json").read_text(encoding="utf-8"))
    assert manifest["written_by"] == writer
    assert manifest["generator"] == {
        "make_foreign_fixtures.py": _sha256(FIXTURES / "make_foreign_fixtures.py"),
        "cases.json": _sha256(FIXTURES / "cases.json"),
    }
    found = {
        p.relative_to(folder).as_posix(): _sha256(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "MANIFEST.json"
    }
    assert found == manifest["files"]


def _texts(case: dict) -> list[str]:
    return [c if isinstance(c, str) else c["context"] for c in case["contexts"]]


def _check_faithful(suite_dir: Path, base: Path, cand: Path, ids_from_names: bool) -> None:
    """Every case of cases.json, whole, with the row of each file it was read from."""
    suite = load_suite(suite_dir)
    assert [c.question for c in suite.cases] == [c["question"] for c in CASES]
    for row, (case, want) in enumerate(zip(suite.cases, CASES, strict=True), start=1):
        if ids_from_names:
            assert case.case_id == want["id"]
        assert [d.text for d in suite.case_documents(case)] == _texts(want)
        assert suite.answers["baseline"][case.case_id].answer == want["baseline"]
        assert suite.answers["candidate"][case.case_id].answer == want["candidate"]
        assert case.reference_answer == want["reference"]
        where = {(p.source, p.row, p.part) for p in case.provenance}
        assert (str(base), row, "answer:baseline") in where
        assert (str(cand), row, "answer:candidate") in where
    milk = [d for d in suite.documents.values() if d.text == "Take it with food or milk."]
    assert len(milk) == 1 and len(suite.documents) == 4  # a repeated context: one document


RAGAS_FILES = ["candidate.jsonl", "candidate.csv", "candidate-hf", "candidate-v1-hf"]


@pytest.mark.parametrize("name", RAGAS_FILES)
def test_ragas_evaluation_datasets_import_faithfully(name, tmp_path):
    """to_jsonl, to_csv (lists as Python literals), to_hf_dataset, and the older column names
    (question, contexts, answer, ground_truth) by ragas' own convert_v2_to_v1_dataset."""
    base, cand = RAGAS / "baseline.jsonl", RAGAS / name
    summary = import_sources("ragas", [base, cand], tmp_path / "suite")
    assert summary["cases"] == 3 and summary["one_sided"] == []
    _check_faithful(tmp_path / "suite", base, cand, ids_from_names=False)


def test_a_ragas_csv_baseline_joins_a_jsonl_candidate(tmp_path):
    base, cand = RAGAS / "baseline.csv", RAGAS / "candidate.jsonl"
    import_sources("ragas", [base, cand], tmp_path / "suite")
    _check_faithful(tmp_path / "suite", base, cand, ids_from_names=False)


@pytest.mark.parametrize("kind", ["json", "csv", "jsonl"])
def test_deepeval_goldens_and_test_cases_import_faithfully(kind, tmp_path):
    """save_as JSON keeps lists; CSV and JSONL join contexts with '|'; a RetrievedContextData
    is written as 'deepeval_source=S,deepeval_context=C'; a golden's name is its case id;
    test cases (the baseline here) lose their names in save_as, so the join is on the input."""
    base, cand = DEEPEVAL / "baseline-test-cases.json", DEEPEVAL / f"candidate-goldens.{kind}"
    summary = import_sources("deepeval", [base, cand], tmp_path / "suite")
    assert summary["cases"] == 3 and summary["one_sided"] == []
    _check_faithful(tmp_path / "suite", base, cand, ids_from_names=True)
    suite = load_suite(tmp_path / "suite")
    leaflet = [d for d in suite.documents.values() if d.text == "Not for children under 3 months."]
    assert len(leaflet) == 1 and leaflet[0].title == "leaflet-2024.pdf"


def test_a_deepeval_import_runs_and_the_report_points_back_to_the_golden(tmp_path):
    base, cand = DEEPEVAL / "baseline-test-cases.json", DEEPEVAL / "candidate-goldens.csv"
    report_path = tmp_path / "report.json"
    result = CliRunner().invoke(
        app,
        ["run", str(tmp_path / "suite"), "--import", "deepeval", "--source", str(base),
         "--source", str(cand), "--judge", "offline", "--no-save", "-q", "--out", str(report_path)],
    )  # fmt: skip
    assert result.exit_code in (1, 3), result.output  # the candidate's 3,200 mg is caught
    report = json.loads(report_path.read_text())
    dose_claims = [
        c
        for a in report["analyses"]
        if a["system"] == "candidate"
        for c in a["claims"]
        if c["case_id"] == "dose"
    ]
    assert [c["verdict"] for c in dose_claims] != ["SUPPORTED"] * len(dose_claims)
    dose = next(c for c in report["cases"] if c["case_id"] == "dose")
    where = {(p["source"], p["row"], p["part"]) for p in dose["provenance"]}
    assert (str(cand), 1, "answer:candidate") in where and (
        str(base),
        1,
        "answer:baseline",
    ) in where


def test_a_key_missing_from_the_first_ragas_line_is_still_read_on_later_lines(tmp_path):
    """ragas' to_jsonl leaves out a None field: the first line has no "reference" key."""
    import_sources("ragas", [RAGAS / "sparse.jsonl"], tmp_path / "suite")
    suite = load_suite(tmp_path / "suite")
    references = {c.question: c.reference_answer for c in suite.cases}
    assert references == {c["question"]: c["reference"] for c in CASES}
    assert references["What is the maximum daily dose of ibuprofen?"] is not None
