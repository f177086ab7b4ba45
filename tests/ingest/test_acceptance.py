"""The acceptance demo: two trace exports of two prompt versions of the same fake RAG app,
the second with a planted invented number, imported as baseline and candidate by `halgate
run --import`: the gate fails on the planted claim and the report names its span."""

from __future__ import annotations

import json

from halgate.cli import app
from typer.testing import CliRunner

from .rag_app import run_app, write_otlp_json


def test_a_planted_number_in_the_new_prompt_version_fails_the_gate_naming_the_span(tmp_path):
    v1, v2 = run_app("v1"), run_app("v2")
    base = write_otlp_json(v1, tmp_path / "prompt-v1.jsonl")
    cand = write_otlp_json(v2, tmp_path / "prompt-v2.jsonl")
    db, report_path = tmp_path / "h.db", tmp_path / "report.json"
    # Three traces decide no rate on its interval (NEEDS_REVIEW); the point-estimate rule,
    # chosen by name in the policy, decides on what was seen.
    policy = tmp_path / "policy.toml"
    policy.write_text('decide_on = "estimate"\n')
    result = CliRunner().invoke(
        app,
        ["run", str(tmp_path / "suite"), "--import", "otlp", "--source", str(base),
         "--source", str(cand), "--judge", "offline", "--db", str(db), "--out", str(report_path),
         "--policy", str(policy), "-q"],
    )  # fmt: skip
    assert result.exit_code == 1, result.output  # FAILED
    assert "Gate: FAILED" in result.output
    report = json.loads(report_path.read_text())
    bad = [
        c
        for a in report["analyses"]
        if a["system"] == "candidate"
        for c in a["claims"]
        if c["verdict"] != "SUPPORTED"
    ]
    assert [c["text"] for c in bad] == [
        "The K2 kettle comes with a 7 year warranty from the date of purchase."
    ]
    failed = [r for r in report["decision"]["reasons"] if r["status"] == "FAILED"]
    # the planted claim is the candidate's only hallucination, so it alone fails these rules
    assert {r["rule"] for r in failed} == {"max_rate_increase", "max_contradiction_rate"}
    warranty_span = next(
        s for s in v2 if s.name == "generate" and "7 year" in str(s.attributes.get("output.value"))
    )
    span_id = format(warranty_span.context.span_id, "016x")
    case = next(c for c in report["cases"] if c["case_id"] == bad[0]["case_id"])
    answer = next(p for p in case["provenance"] if p["part"] == "answer:candidate")
    assert answer["span_id"] == span_id and answer["source"] == str(cand)
    markdown = CliRunner().invoke(
        app, ["export", report["run_id"], "--format", "markdown", "--db", str(db)]
    )
    assert markdown.exit_code == 0, markdown.output
    assert f"answer read from `{cand}` trace `" in markdown.output
    assert f"span `{span_id}`" in markdown.output
    page = (
        CliRunner()
        .invoke(app, ["export", report["run_id"], "--format", "html", "--db", str(db)])
        .output
    )
    assert f"answer:candidate: {cand}: trace " in page and f"span {span_id}" in page


def test_the_quick_start_imports_the_example_csv_and_the_gate_waits(tmp_path):
    """docs/import.md's first example: the candidate's '5 year warranty' where the source
    says 2 years is caught, but three cases decide no rate on its interval (NEEDS_REVIEW);
    the report names the CSV row."""
    from ..conftest import REPO

    source = REPO / "data" / "examples" / "import" / "helpdesk.csv"
    suite, report_path = tmp_path / "helpdesk", tmp_path / "r.json"
    imported = CliRunner().invoke(app, ["import", "csv", str(source), "--out", str(suite)])
    assert imported.exit_code == 0, imported.output
    assert "imported 3 case(s), 4 document(s), systems baseline, candidate" in imported.output
    ran = CliRunner().invoke(
        app, ["run", str(suite), "--judge", "offline", "--no-save", "-q", "--out", str(report_path)]
    )
    assert ran.exit_code == 3, ran.output
    report = json.loads(report_path.read_text())
    k2 = next(c for c in report["cases"] if c["case_id"] == "k-2")
    where = [(p["source"], p["row"], p["part"]) for p in k2["provenance"]]
    assert (str(source), 2, "answer:candidate") in where
