"""OpenTelemetry spans with OpenInference attributes: OTLP JSON files and Phoenix span exports.

OTLP JSON (the collector's file exporter, or ``ExportTraceServiceRequest`` messages written
as JSON, one per line or one per file) is streamed span by span with ijson. Ids may be hex
(the OTLP/JSON rule) or base64 (protobuf's JSON mapping). A Phoenix export is the table of
``px.Client().get_spans_dataframe()`` saved as JSONL or Parquet: columns ``context.span_id``,
``context.trace_id``, ``parent_id``, ``span_kind`` and ``attributes.<name>``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import IngestError
from .rows import read_rows, table_kind
from .spans import TraceSpan, flat_metadata

SPANS_PREFIX = "resourceSpans.item.scopeSpans.item.spans.item"
_HEX = re.compile(r"[0-9a-fA-F]+")
_DOC = re.compile(r"retrieval\.documents\.(\d+)\.document\.content")
_OUT_MSG = re.compile(r"llm\.output_messages\.(\d+)\.message\.content")


def otlp_spans(path: Path) -> Iterator[TraceSpan]:
    """The spans of an OTLP JSON file, streamed."""
    import ijson

    with path.open("rb") as f:
        try:
            items = ijson.items(f, SPANS_PREFIX, multiple_values=True, use_float=True)
            for n, raw in enumerate(items, start=1):
                yield _otlp_span(raw, str(path), n)
        except ijson.JSONError as exc:
            raise IngestError(str(path), None, "(json)", f"invalid JSON: {exc}") from None


def _id(value: Any, source: str, n: int, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise IngestError(source, f"span #{n}", name, "missing")
    if _HEX.fullmatch(value) and len(value) in (16, 32):
        return value.lower()
    try:
        return base64.b64decode(value, validate=True).hex()
    except (binascii.Error, ValueError):
        problem = f"not a hex or base64 id: {value!r}"
        raise IngestError(source, f"span #{n}", name, problem) from None


def _value(v: Any) -> Any:
    """An OTLP AnyValue as a Python value."""
    if not isinstance(v, dict):
        return v
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in v:
            return v[key]
    if "intValue" in v:
        return int(v["intValue"])
    if "arrayValue" in v:
        return [_value(x) for x in v["arrayValue"].get("values", [])]
    if "kvlistValue" in v:
        return {kv["key"]: _value(kv.get("value")) for kv in v["kvlistValue"].get("values", [])}
    return None


def _otlp_span(raw: dict[str, Any], source: str, n: int) -> TraceSpan:
    span_id = _id(raw.get("spanId"), source, n, "spanId")
    where = f"span {span_id}"
    attrs: dict[str, Any] = {}
    for kv in raw.get("attributes") or []:
        if not isinstance(kv, dict) or "key" not in kv:
            raise IngestError(source, where, "attributes", "an attribute without a key")
        attrs[kv["key"]] = _value(kv.get("value"))
    parent = raw.get("parentSpanId") or None
    return openinference_span(
        attrs,
        trace_id=_id(raw.get("traceId"), source, n, "traceId"),
        span_id=span_id,
        parent_id=_id(parent, source, n, "parentSpanId") if parent else None,
        source=source,
        row=n,
        end=str(raw.get("endTimeUnixNano", "")).zfill(20),
    )


def openinference_span(attrs: dict[str, Any], **ids: Any) -> TraceSpan:
    """A span from its OpenInference attributes (flat ``a.b.0.c`` keys, or Phoenix's lists)."""
    docs = sorted((int(m.group(1)), v) for k, v in attrs.items() if (m := _DOC.fullmatch(k)))
    documents = [str(v) for _, v in docs]
    listed = attrs.get("retrieval.documents")
    if isinstance(listed, list):  # Phoenix keeps the documents as a list of objects
        documents += [d for item in listed if (d := _document_text(item)) is not None]
    output = attrs.get("output.value")
    msgs = sorted((int(m.group(1)), v) for k, v in attrs.items() if (m := _OUT_MSG.fullmatch(k)))
    if msgs and isinstance(msgs[-1][1], str):
        output = msgs[-1][1]
    keys: dict[str, str] = {}
    flat_metadata("metadata", attrs.get("metadata"), keys)
    for k, v in attrs.items():
        if isinstance(v, str | int | float | bool) and not k.startswith(("input.", "output.")):
            keys.setdefault(k, str(v))
    return TraceSpan(
        kind=str(attrs.get("openinference.span.kind", "")).upper(),
        input=_text(attrs.get("input.value")),
        output=_text(output),
        documents=documents,
        attributes=keys,
        **ids,
    )


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value)


def _document_text(item: Any) -> str | None:
    if isinstance(item, dict):
        value = item.get("document.content")
        if value is None and isinstance(item.get("document"), dict):
            value = item["document"].get("content")
        return value if isinstance(value, str) else None
    return None


def _dotted(prefix: str, value: Any) -> dict[str, Any]:
    """Nested objects as dotted keys; lists (Phoenix's documents) are kept as they are."""
    if not isinstance(value, dict):
        return {prefix: value}
    out: dict[str, Any] = {}
    for k, v in value.items():
        out.update(_dotted(f"{prefix}.{k}" if prefix else str(k), v))
    return out


def phoenix_spans(path: Path) -> Iterator[TraceSpan]:
    """The spans of a Phoenix span export (its spans dataframe as JSONL or Parquet)."""
    for n, row in read_rows(path, table_kind(path)):
        attrs = {k[11:]: v for k, v in row.items() if k.startswith("attributes.") and v is not None}
        if isinstance(row.get("attributes"), dict):  # nested, as Phoenix's JSON has it
            attrs.update(_dotted("", row["attributes"]))
        kind = row.get("span_kind") or attrs.get("openinference.span.kind") or ""
        attrs["openinference.span.kind"] = kind
        for name in ("context.trace_id", "context.span_id"):
            if not row.get(name):
                raise IngestError(str(path), str(n), name, "missing")
        yield openinference_span(
            attrs,
            trace_id=str(row["context.trace_id"]),
            span_id=str(row["context.span_id"]),
            parent_id=row.get("parent_id") or None,
            source=str(path),
            row=n,
            end=str(row.get("end_time") or ""),
        )
