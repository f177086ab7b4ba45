"""Spans of any trace format to imported cases: one trace is one case.

A format reader (OTLP/OpenInference, Phoenix, Langfuse, LangSmith) turns each span into a
``TraceSpan``; ``assemble`` groups them by trace: the root span's input is the question, the
retriever spans' documents are the passages, and the output of the LLM span that ended last
is the answer. Only these parts are kept per trace, never the raw span, and a passage seen
in many traces is held once, so memory grows with the suite, not with the export.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import IngestError
from .records import ImportedCase, RetrievedContext, SystemAnswer, Where

QUESTION_KEYS = ("question", "query", "input", "user_input", "q", "text", "content")


@dataclass
class TraceSpan:
    """The parts of one span that a case needs, read by a format reader."""

    trace_id: str
    span_id: str
    parent_id: str | None
    kind: str  # RETRIEVER, LLM, CHAIN... (OpenInference span kinds; others map onto them)
    source: str
    row: int
    input: Any = None  # the root's input: text, or JSON holding the question
    output: str | None = None
    documents: list[str] = field(default_factory=list)
    end: str | None = None  # end time, compared as text (ISO 8601 or nanoseconds, zero-padded)
    attributes: dict[str, str] = field(default_factory=dict)  # for the join key and system


@dataclass
class _Trace:
    source: str
    question: tuple[str, Where] | None = None
    passages: list[tuple[str, Where]] = field(default_factory=list)
    answer: tuple[str, Where, str] | None = None  # text, span, end time
    attributes: dict[str, str] = field(default_factory=dict)


def root_question(value: Any) -> str | None:
    """A root span's input as the question: text, or the question field of a JSON input."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("{"):
            try:
                value = json.loads(stripped)
            except json.JSONDecodeError:
                return value
        else:
            return value
    if isinstance(value, dict):
        for key in QUESTION_KEYS:
            if isinstance(value.get(key), str):
                return str(value[key])
        if isinstance(value.get("messages"), list) and value["messages"]:
            return root_question(value["messages"][-1])
    return None


def assemble(
    spans: Iterable[TraceSpan], join_on: str, system: str, system_attr: str | None
) -> Iterator[ImportedCase]:
    """One case per trace, in the order traces first appear; ``system_attr`` names the span
    attribute whose value is the system (two prompt versions in one export)."""
    traces: dict[str, _Trace] = {}
    interned: dict[str, str] = {}
    wanted = {join_on, system_attr}  # the only attributes kept (a prompt may be kilobytes)
    for span in spans:
        trace = traces.get(span.trace_id) or traces.setdefault(span.trace_id, _Trace(span.source))
        _add(trace, span, interned, wanted)
    for trace_id, trace in traces.items():
        yield _case(trace_id, trace, join_on, system, system_attr)


def _add(trace: _Trace, span: TraceSpan, interned: dict[str, str], wanted: set) -> None:
    for key in wanted & span.attributes.keys():
        trace.attributes.setdefault(key, span.attributes[key])
    if span.parent_id is None and span.input is not None:
        text = root_question(span.input)
        if text is not None:
            trace.question = (text, _prov(span, "question"))
    if span.kind == "RETRIEVER":
        for text in span.documents:
            digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
            prov = Where(span.source, span.row, span.trace_id, span.span_id, "document")
            trace.passages.append((interned.setdefault(digest, text), prov))
    if span.kind == "LLM" and span.output is not None and span.output.strip():
        if trace.answer is None or (span.end or "") >= trace.answer[2]:
            trace.answer = (span.output, _prov(span, "answer"), span.end or "")


def _case(tid: str, t: _Trace, join_on: str, system: str, attr: str | None) -> ImportedCase:
    where = f"trace {tid}"
    if t.question is None:
        raise IngestError(t.source, where, "input", "no root span with an input (the question)")
    question, root = t.question
    if t.answer is None:
        raise IngestError(t.source, where, "output", "no LLM span with an output (the answer)")
    if attr is not None:
        if attr not in t.attributes:
            raise IngestError(t.source, where, attr, "no span carries this attribute")
        system = t.attributes[attr]
    answer, llm, _ = t.answer
    key = _key(tid, question, t, join_on)
    return ImportedCase(
        key=key,
        question=question,
        provenance=root,
        passages=[RetrievedContext(text, prov) for text, prov in t.passages],
        answers={system: SystemAnswer(answer, llm._replace(part=f"answer:{system}"))},
        case_id=key if join_on != "question" else None,
    )


def _key(tid: str, question: str, t: _Trace, join_on: str) -> str:
    if join_on == "question":
        return " ".join(question.split())
    if join_on == "trace_id":
        return tid
    value = t.attributes.get(join_on)
    if value is None or not value.strip():
        raise IngestError(t.source, f"trace {tid}", join_on, "no span carries this join key")
    return value


def _prov(span: TraceSpan, part: str) -> Where:
    return Where(span.source, span.row, span.trace_id, span.span_id, part)


def flat_metadata(prefix: str, value: Any, out: dict[str, str]) -> None:
    """Nested metadata as ``prefix.key`` strings (JSON text is parsed first), for join keys."""
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            pass
    if isinstance(value, dict):
        for k, v in value.items():
            flat_metadata(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, str | int | float | bool) and prefix:
        out[prefix] = str(value)
