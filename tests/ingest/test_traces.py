"""halgate import of traces: the fake RAG app traced by the real OpenTelemetry SDK with
OpenInference attributes, exported as OTLP JSON, Phoenix, Langfuse and LangSmith files
(see rag_app.py for which library writes which), imported, and traced back to its spans."""

from __future__ import annotations

import json

import pytest
from halgate.cli import app
from halgate.ingest import ImportOptions, Mapping, import_sources
from halgate.inputs.suite import load_suite
from typer.testing import CliRunner

from .rag_app import (
    ANSWERS,
    QUESTIONS,
    retrieve,
    run_app,
    write_langfuse_jsonl,
    write_langsmith_jsonl,
    write_otlp_json,
    write_phoenix_parquet,
)

WRITERS = {
    "otlp": (write_otlp_json, "jsonl"),
    "phoenix": (write_phoenix_parquet, "parquet"),
    "langfuse": (write_langfuse_jsonl, "jsonl"),
    "langsmith": (write_langsmith_jsonl, "jsonl"),
}


@pytest.fixture(scope="module")
def spans():
    return {"v1": run_app("v1"), "v2": run_app("v2")}


def _span_ids(spans, name):
    return {format(s.context.span_id, "016x") for s in spans if s.name == name}


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_a_trace_export_becomes_one_case_per_trace_traced_to_its_spans(fmt, spans, tmp_path):
    write, ext = WRITERS[fmt]
    source = write(spans["v1"], tmp_path / f"export.{ext}")
    import_sources(fmt, [source], tmp_path / "suite")
    suite = load_suite(tmp_path / "suite")
    assert [c.question for c in suite.cases] == list(QUESTIONS.values())
    for case, key in zip(suite.cases, QUESTIONS, strict=True):
        assert suite.answers["candidate"][case.case_id].answer == ANSWERS["v1"][key]
        texts = [d.text for d in suite.case_documents(case)]
        assert texts == retrieve(QUESTIONS[key])
        parts = {p.part: p for p in case.provenance}
        assert parts["question"].span_id is not None and parts["question"].source == str(source)
        answer_span = parts["answer:candidate"].span_id
        doc_span = suite.case_documents(case)[0].provenance[0].span_id
        if fmt != "langsmith":  # LangSmith ids are UUIDs made of the same numbers
            assert answer_span in _span_ids(spans["v1"], "generate")
            assert doc_span in _span_ids(spans["v1"], "retrieve")
            assert parts["question"].span_id in _span_ids(spans["v1"], "rag")
        else:
            assert answer_span.replace("-", "")[-16:] in _span_ids(spans["v1"], "generate")


def test_two_prompt_versions_in_one_export_are_told_apart_by_a_span_attribute(spans, tmp_path):
    source = write_otlp_json(spans["v1"] + spans["v2"], tmp_path / "both.jsonl")
    opts = ImportOptions(system_attr="llm.prompt_template.version")
    summary = import_sources("otlp", [source], tmp_path / "suite", opts)
    suite = load_suite(tmp_path / "suite")
    assert summary["systems"] == ["v1", "v2"] and len(suite.cases) == 3
    warranty = next(c for c in suite.cases if "warranty" in c.question)
    assert "7 year" in suite.answers["v2"][warranty.case_id].answer


def test_traces_join_on_a_metadata_field(spans, tmp_path):
    a = write_otlp_json(spans["v1"], tmp_path / "a.jsonl")
    b = write_otlp_json(spans["v2"], tmp_path / "b.jsonl")
    opts = ImportOptions(mapping=Mapping(join_on="metadata.case"))
    import_sources("otlp", [a, b], tmp_path / "suite", opts)
    assert [c.case_id for c in load_suite(tmp_path / "suite").cases] == list(QUESTIONS)


def test_hex_ids_as_the_collector_writes_them_are_read_too(spans, tmp_path):
    source = write_otlp_json(spans["v1"], tmp_path / "b64.jsonl")
    lines = []
    for line in source.read_text().splitlines():
        data = json.loads(line)
        for rs in data["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for s in ss["spans"]:
                    for key in ("traceId", "spanId", "parentSpanId"):
                        if key in s:
                            import base64

                            s[key] = base64.b64decode(s[key]).hex()
        lines.append(json.dumps(data))
    (tmp_path / "hex.json").write_text("\n".join(lines))
    import_sources("otlp", [tmp_path / "hex.json"], tmp_path / "a")
    import_sources("otlp", [source], tmp_path / "b")
    a, b = load_suite(tmp_path / "a"), load_suite(tmp_path / "b")
    assert [c.provenance for c in a.cases] != []
    assert [[p.span_id for p in c.provenance] for c in a.cases] == [
        [p.span_id for p in c.provenance] for c in b.cases
    ]


def test_a_trace_without_an_llm_span_is_an_error_naming_the_trace(spans, tmp_path):
    kept = [s for s in spans["v1"] if s.name != "generate"]
    source = write_otlp_json(kept, tmp_path / "x.jsonl")
    result = CliRunner().invoke(
        app, ["import", "otlp", str(source), "--out", str(tmp_path / "suite")]
    )
    assert result.exit_code == 4
    trace = format(kept[0].context.trace_id, "032x")
    assert f"x.jsonl:trace {trace}: output: no LLM span with an output" in result.output
    assert not (tmp_path / "suite").exists()


def test_a_span_with_a_bad_id_is_an_error_naming_the_field(tmp_path):
    bad = {"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz", "spanId": "!!"}]}]}]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    result = CliRunner().invoke(
        app, ["import", "otlp", str(tmp_path / "bad.json"), "--out", str(tmp_path / "s")]
    )
    assert result.exit_code == 4
    assert "bad.json:span #1: spanId: not a hex or base64 id: '!!'" in result.output


def test_a_system_name_from_a_trace_cannot_name_a_path(spans, tmp_path):
    """The value of --system-attr comes from the export: it names answers/<system>.jsonl."""
    source = write_otlp_json(spans["v1"], tmp_path / "x.jsonl")
    text = source.read_text().replace('"stringValue": "v1"', '"stringValue": "../../evil"')
    source.write_text(text)
    result = CliRunner().invoke(
        app,
        ["import", "otlp", str(source), "--system-attr", "llm.prompt_template.version",
         "--out", str(tmp_path / "suite")],
    )  # fmt: skip
    assert result.exit_code == 4
    assert "system: system name '../../evil' must be letters, digits" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl"]


def test_an_older_langfuse_trace_export_with_nested_observations(spans, tmp_path):
    """A trace record holding its observations, retrieval as a SPAN named 'retrieve' (Langfuse
    before v3): built from the v1 export's own observations, regrouped by trace."""
    source = write_langfuse_jsonl(spans["v1"], tmp_path / "obs.jsonl")
    traces: dict[str, dict] = {}
    for line in source.read_text().splitlines():
        obs = json.loads(line)
        if obs["type"] == "RETRIEVER":
            obs["type"] = "SPAN"
        trace = traces.setdefault(obs["traceId"], {"id": obs["traceId"], "observations": []})
        if obs.get("parentObservationId") is None:
            trace["input"] = obs["input"]
        trace["observations"].append(obs)
    (tmp_path / "traces.json").write_text(json.dumps(list(traces.values())))
    import_sources("langfuse", [tmp_path / "traces.json"], tmp_path / "suite")
    suite = load_suite(tmp_path / "suite")
    assert [len(suite.case_documents(c)) for c in suite.cases] == [2, 2, 2]
    assert [suite.answers["candidate"][c.case_id].answer for c in suite.cases] == list(
        ANSWERS["v1"].values()
    )
