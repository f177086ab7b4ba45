"""A tiny fake RAG app traced by the real OpenTelemetry SDK with OpenInference attributes,
and the writers that turn its traces into each export format halgate imports.

The app retrieves passages from a small corpus by word overlap and "generates" an answer
from a template per prompt version; prompt v2 plants an invented number in one answer.
The OTLP JSON is what the SDK's own OTLP encoder produces (protobuf's JSON mapping); the
Langfuse and LangSmith exports are built with those SDKs' own models (``ObservationV2``,
``Run``). Phoenix is not installed (it is a server), so its export follows its documented
spans-dataframe columns (``context.span_id``, ``attributes.<name>``...).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from openinference.semconv.trace import (
    DocumentAttributes,
    MessageAttributes,
    OpenInferenceSpanKindValues,
    SpanAttributes,
)
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

CORPUS = [
    "The K2 kettle holds 1.7 litres of water and boils a full jug in about four minutes.",
    "Every K2 kettle comes with a 2 year warranty from the date of purchase.",
    "The K2 kettle switches itself off when the water boils or when the jug is empty.",
    "Descale the K2 kettle once a month with a solution of citric acid.",
]
QUESTIONS = {
    "capacity": "How much water does the K2 kettle hold?",
    "warranty": "How long is the K2 kettle's warranty?",
    "safety": "Does the K2 kettle switch itself off?",
}
ANSWERS = {
    "v1": {
        "capacity": "The K2 kettle holds 1.7 litres of water.",
        "warranty": "The K2 kettle comes with a 2 year warranty from the date of purchase.",
        "safety": "Yes, it switches itself off when the water boils or when the jug is empty.",
    },
    "v2": {
        "capacity": "The K2 kettle holds 1.7 litres of water.",
        "warranty": "The K2 kettle comes with a 7 year warranty from the date of purchase.",
        "safety": "Yes, it switches itself off when the water boils or when the jug is empty.",
    },
}
KIND = SpanAttributes.OPENINFERENCE_SPAN_KIND


def retrieve(question: str, k: int = 2) -> list[str]:
    """The k passages sharing most words with the question (ties in corpus order)."""
    words = set(question.lower().replace("?", "").split())
    ranked = sorted(CORPUS, key=lambda p: -len(words & set(p.lower().split())))
    return ranked[:k]


def run_app(version: str) -> list[ReadableSpan]:
    """Answer every question with prompt ``version``; the spans the SDK recorded."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("fake-rag")
    for key, question in QUESTIONS.items():
        with tracer.start_as_current_span("rag") as root:
            root.set_attribute(KIND, OpenInferenceSpanKindValues.CHAIN.value)
            root.set_attribute(SpanAttributes.INPUT_VALUE, question)
            root.set_attribute(SpanAttributes.METADATA, json.dumps({"case": key}))
            with tracer.start_as_current_span("retrieve") as span:
                span.set_attribute(KIND, OpenInferenceSpanKindValues.RETRIEVER.value)
                span.set_attribute(SpanAttributes.INPUT_VALUE, question)
                for i, passage in enumerate(retrieve(question)):
                    prefix = f"{SpanAttributes.RETRIEVAL_DOCUMENTS}.{i}."
                    span.set_attribute(prefix + DocumentAttributes.DOCUMENT_CONTENT, passage)
                    span.set_attribute(prefix + DocumentAttributes.DOCUMENT_ID, f"kb-{i}")
            answer = ANSWERS[version][key]
            with tracer.start_as_current_span("generate") as span:
                span.set_attribute(KIND, OpenInferenceSpanKindValues.LLM.value)
                span.set_attribute(SpanAttributes.LLM_PROMPT_TEMPLATE_VERSION, version)
                msg = f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_CONTENT}"
                span.set_attribute(msg, answer)
                span.set_attribute(SpanAttributes.OUTPUT_VALUE, answer)
            root.set_attribute(SpanAttributes.OUTPUT_VALUE, answer)
    provider.shutdown()
    return list(exporter.get_finished_spans())


def write_otlp_json(spans: list[ReadableSpan], path: Path) -> Path:
    """One ExportTraceServiceRequest as JSON per line, encoded by the SDK's OTLP encoder."""
    from google.protobuf.json_format import MessageToJson
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    lines = [MessageToJson(encode_spans([s]), indent=None) for s in spans]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _hex(value: int, width: int) -> str:
    return format(value, f"0{width}x")


def _parent(span: ReadableSpan) -> str | None:
    return _hex(span.parent.span_id, 16) if span.parent is not None else None


def _time(ns: int | None) -> datetime:
    return datetime.fromtimestamp((ns or 0) / 1e9, tz=UTC)


def write_phoenix_parquet(spans: list[ReadableSpan], path: Path) -> Path:
    """Phoenix's spans dataframe (documented columns) saved by pandas as Parquet."""
    import pandas as pd

    rows = []
    for s in spans:
        attrs = dict(s.attributes or {})
        docs = sorted(k for k in attrs if k.endswith(".document.content"))
        row = {
            "name": s.name,
            "span_kind": attrs.get(KIND),
            "context.trace_id": _hex(s.context.trace_id, 32),
            "context.span_id": _hex(s.context.span_id, 16),
            "parent_id": _parent(s),
            "end_time": _time(s.end_time).isoformat(),
            "attributes.input.value": attrs.get(SpanAttributes.INPUT_VALUE),
            "attributes.output.value": attrs.get(SpanAttributes.OUTPUT_VALUE),
            "attributes.retrieval.documents": [{"document.content": attrs[k]} for k in docs]
            or None,
        }
        rows.append(row)
    pd.DataFrame(rows).to_parquet(path)
    return path


def write_langfuse_jsonl(spans: list[ReadableSpan], path: Path) -> Path:
    """The spans as Langfuse observations (the SDK's ``ObservationV2`` model), one a line."""
    from langfuse.api import ObservationV2

    types = {"CHAIN": "CHAIN", "RETRIEVER": "RETRIEVER", "LLM": "GENERATION"}
    lines = []
    for s in spans:
        attrs = dict(s.attributes or {})
        kind = str(attrs.get(KIND))
        docs = [attrs[k] for k in sorted(attrs) if k.endswith(".document.content")]
        output = docs if kind == "RETRIEVER" else attrs.get(SpanAttributes.OUTPUT_VALUE)
        obs = ObservationV2(
            id=_hex(s.context.span_id, 16),
            trace_id=_hex(s.context.trace_id, 32),
            parent_observation_id=_parent(s),
            start_time=_time(s.start_time),
            end_time=_time(s.end_time),
            project_id="demo",
            environment="default",
            type=types[kind],
            name=s.name,
            input=attrs.get(SpanAttributes.INPUT_VALUE),
            output=output,
            prompt_version=1 if kind == "LLM" else None,
        )
        lines.append(obs.model_dump_json(by_alias=True, exclude_none=True))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_langsmith_jsonl(spans: list[ReadableSpan], path: Path) -> Path:
    """The spans as LangSmith runs (the SDK's ``Run`` model), one a line."""
    import uuid

    from langsmith.schemas import Run

    def uid(value: int) -> uuid.UUID:
        return uuid.UUID(int=value)

    types = {"CHAIN": "chain", "RETRIEVER": "retriever", "LLM": "llm"}
    lines = []
    for s in spans:
        attrs = dict(s.attributes or {})
        kind = str(attrs.get(KIND))
        docs = [attrs[k] for k in sorted(attrs) if k.endswith(".document.content")]
        outputs: dict = {"output": attrs.get(SpanAttributes.OUTPUT_VALUE)}
        if kind == "RETRIEVER":
            outputs = {"documents": [{"page_content": d, "metadata": {}} for d in docs]}
        if kind == "LLM":
            outputs = {"generations": [[{"text": attrs[SpanAttributes.OUTPUT_VALUE]}]]}
        run = Run(
            id=uid(s.context.span_id),
            trace_id=uid(s.context.trace_id),
            parent_run_id=uid(s.parent.span_id) if s.parent is not None else None,
            name=s.name,
            run_type=types[kind],
            start_time=_time(s.start_time),
            end_time=_time(s.end_time),
            inputs={"question": attrs.get(SpanAttributes.INPUT_VALUE)},
            outputs=outputs,
        )
        lines.append(run.model_dump_json())
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
