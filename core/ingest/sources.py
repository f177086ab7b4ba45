"""From format and source files to a suite folder: the one entry point both faces call.

``import_sources`` reads each source as one system's view (or, with ``system_attr``, as
several systems told apart by a span attribute), joins the views on their key and writes
the suite. Any problem is an ``IngestError`` naming file, row or span and field; then
nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import IngestError, UsageError
from .exports import langfuse_spans, langsmith_spans
from .join import join
from .mapping import DEEPEVAL_DEFAULTS, Mapping
from .otlp import otlp_spans, phoenix_spans
from .records import ImportedCase
from .rows import table_kind
from .spans import assemble
from .tables import read_table
from .writer import check_target, write_suite

TABLE_FORMATS = ("csv", "tsv", "jsonl", "json", "parquet", "hf", "table", "ragas", "deepeval")
TRACE_FORMATS = {
    "otlp": otlp_spans,
    "phoenix": phoenix_spans,
    "langfuse": langfuse_spans,
    "langsmith": langsmith_spans,
}
FORMATS = TABLE_FORMATS + tuple(TRACE_FORMATS)
# The system each source's answers belong to, by how many sources there are.
DEFAULT_SYSTEMS = {1: ["candidate"], 2: ["baseline", "candidate"]}


@dataclass
class ImportOptions:
    """How to read the sources; every field has a default that suits common files."""

    mapping: Mapping = field(default_factory=Mapping)
    systems: list[str] | None = None  # one name per source (default: baseline, candidate)
    split: str | None = None  # of a saved Hugging Face DatasetDict
    system_attr: str | None = None  # trace attribute whose value names the system


def import_sources(
    fmt: str, sources: list[Path], out: Path, options: ImportOptions | None = None
) -> dict[str, Any]:
    """Import ``sources`` of format ``fmt`` into the suite folder ``out``; return the summary
    recorded in its import.json (systems, counts, the cases only some systems answered)."""
    opts = options or ImportOptions()
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if not sources:
        raise UsageError("name at least one source file")
    systems = opts.systems or DEFAULT_SYSTEMS.get(len(sources))
    if systems is None or len(systems) != len(sources):
        raise UsageError(f"name one system per source (--systems): {len(sources)} sources")
    check_target(out)
    for source in sources:
        if not source.exists():
            raise IngestError(str(source), None, "(file)", "does not exist")

    def views() -> Iterator[ImportedCase]:
        for source, system in zip(sources, systems, strict=True):
            yield from _read(fmt, source, system, opts)

    joined = join(views())
    meta = {"format": fmt, "sources": [str(s) for s in sources]}
    return write_suite(joined, out, meta)


def _read(fmt: str, source: Path, system: str, opts: ImportOptions) -> Iterator[ImportedCase]:
    if fmt in TRACE_FORMATS:
        join_on = opts.mapping.join_on or "question"
        spans = TRACE_FORMATS[fmt](source)
        return assemble(spans, join_on, system, opts.system_attr)
    kind = fmt if fmt in ("csv", "tsv", "jsonl", "json", "parquet", "hf") else table_kind(source)
    if fmt == "deepeval":
        mapping = _deepeval_mapping(opts.mapping)
        return read_table(source, kind, mapping, system, opts.split, DEEPEVAL_DEFAULTS)
    return read_table(source, kind, opts.mapping, system, opts.split)


def _deepeval_mapping(mapping: Mapping) -> Mapping:
    """What DeepEval's ``EvaluationDataset.save_as`` (4.x) writes: contexts joined with '|'
    in a CSV or JSONL cell, a golden's ``name`` as its id; test cases lose their names there,
    so goldens and test cases are paired on the input unless told otherwise."""
    update: dict[str, Any] = {}
    if mapping.list_separator is None:
        update["list_separator"] = "|"
    if mapping.join_on is None:
        update["join_on"] = "question"
    return mapping.model_copy(update=update)
