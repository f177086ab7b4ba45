"""Langfuse and LangSmith trace exports, read as spans.

Langfuse: observations as the public API returns them (``ObservationV2``: ``id``,
``traceId``, ``parentObservationId``, ``type``, ``input``, ``output``, ``metadata``), one per
line, in a JSON array, or as ``{"data": [...]}`` pages; a trace record with its
``observations`` (the older trace export) works too. ``RETRIEVER`` observations (or, from
Langfuse before v3, spans named ``retriever...``) give the documents, ``GENERATION`` the
answer, the root the question.

LangSmith: runs (``langsmith.schemas.Run``: ``id``, ``trace_id``, ``parent_run_id``,
``run_type``, ``inputs``, ``outputs``, ``extra.metadata``), one per line or in an array.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import IngestError
from .rows import read_rows, table_kind
from .spans import TraceSpan, flat_metadata
from .tables import TEXT_KEYS

LANGFUSE_KINDS = {"RETRIEVER": "RETRIEVER", "GENERATION": "LLM"}
LANGSMITH_KINDS = {"retriever": "RETRIEVER", "llm": "LLM"}


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Records of a JSONL file or JSON array; ``{"data": [...]}`` pages are opened."""
    for n, obj in read_rows(path, table_kind(path)):
        if isinstance(obj.get("data"), list) and "id" not in obj:
            for item in obj["data"]:
                yield n, item
        else:
            yield n, obj


def passages(value: Any) -> list[str]:
    """Documents in a retriever's output: a list of texts or of document objects."""
    if isinstance(value, dict):
        value = value.get("documents", value.get("output"))
    if not isinstance(value, list):
        return []
    out = []
    for item in value:
        if isinstance(item, dict):
            item = next((item[k] for k in TEXT_KEYS if isinstance(item.get(k), str)), None)
        if isinstance(item, str) and item.strip():
            out.append(item)
    return out


def message_text(value: Any) -> str | None:
    """A model's output as text: a string, a message, OpenAI choices or LangChain generations."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value:
        return message_text(value[-1])
    if not isinstance(value, dict):
        return None
    for key in ("content", "text", "output", "answer"):
        if isinstance(value.get(key), str):
            return str(value[key])
    for key in ("message", "kwargs", "choices", "generations"):
        if key in value:
            return message_text(value[key])
    return None


def langfuse_spans(path: Path) -> Iterator[TraceSpan]:
    """The observations of a Langfuse export as spans."""
    for n, obj in _records(path):
        if isinstance(obj.get("observations"), list):  # a trace with its observations
            yield _langfuse_trace(obj, str(path), n)
            for item in obj["observations"]:
                yield _langfuse_observation(item, str(path), n, root=obj["id"])
        else:
            yield _langfuse_observation(obj, str(path), n, root=None)


def _langfuse_trace(obj: dict[str, Any], source: str, n: int) -> TraceSpan:
    if not obj.get("id"):
        raise IngestError(source, str(n), "id", "a trace without an id")
    attrs: dict[str, str] = {}
    flat_metadata("metadata", obj.get("metadata"), attrs)
    return TraceSpan(obj["id"], obj["id"], None, "CHAIN", source, n, input=obj.get("input"),
                attributes=attrs)  # fmt: skip


def _langfuse_observation(obj: Any, source: str, n: int, root: str | None) -> TraceSpan:
    if not isinstance(obj, dict):
        raise IngestError(source, str(n), "(observation)", "expected a JSON object")
    for name in ("id", "traceId"):
        if not obj.get(name):
            raise IngestError(source, str(n), name, "missing")
    kind = LANGFUSE_KINDS.get(str(obj.get("type", "")).upper(), "SPAN")
    if kind == "SPAN" and "retriev" in str(obj.get("name", "")).lower():
        kind = "RETRIEVER"  # Langfuse before v3 had no RETRIEVER type: a span named so
    parent = obj.get("parentObservationId") or root
    attrs: dict[str, str] = {}
    flat_metadata("metadata", obj.get("metadata"), attrs)
    for key in ("promptName", "promptVersion", "name", "version"):
        if obj.get(key) is not None:
            attrs[key] = str(obj[key])
    return TraceSpan(
        trace_id=str(obj["traceId"]),
        span_id=str(obj["id"]),
        parent_id=parent,
        kind=kind,
        source=source,
        row=n,
        input=obj.get("input") if parent is None else None,
        output=message_text(obj.get("output")) if kind == "LLM" else None,
        documents=passages(obj.get("output")) if kind == "RETRIEVER" else [],
        end=str(obj.get("endTime") or ""),
        attributes=attrs,
    )


def langsmith_spans(path: Path) -> Iterator[TraceSpan]:
    """The runs of a LangSmith export as spans."""
    for n, obj in _records(path):
        for name in ("id", "trace_id", "run_type"):
            if not obj.get(name):
                raise IngestError(str(path), str(n), name, "missing")
        kind = LANGSMITH_KINDS.get(str(obj["run_type"]), "CHAIN")
        outputs = obj.get("outputs") or {}
        attrs: dict[str, str] = {}
        flat_metadata("metadata", (obj.get("extra") or {}).get("metadata"), attrs)
        parent = obj.get("parent_run_id") or None
        yield TraceSpan(
            trace_id=str(obj["trace_id"]),
            span_id=str(obj["id"]),
            parent_id=str(parent) if parent else None,
            kind=kind,
            source=str(path),
            row=n,
            input=obj.get("inputs") if parent is None else None,
            output=message_text(outputs) if kind == "LLM" else None,
            documents=passages(outputs) if kind == "RETRIEVER" else [],
            end=str(obj.get("end_time") or ""),
            attributes=attrs,
        )
