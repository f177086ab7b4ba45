"""Stream the rows of a table, whatever holds it: CSV, TSV, JSONL, a JSON array, Parquet, or a
Hugging Face dataset saved to disk (``Dataset.save_to_disk``: Arrow stream files).

Each reader yields ``(row number, record)`` one row at a time (Parquet and Arrow a batch at a
time), so a large file is never read whole. Row numbers are 1-based and count records, not
lines: a CSV's header is not a row.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import IngestError

Rows = Iterator[tuple[int, dict[str, Any]]]
BATCH = 1024


def read_rows(path: Path, kind: str, split: str | None = None) -> Rows:
    """The rows of ``path`` read as ``kind`` (csv, tsv, jsonl, json, parquet, hf)."""
    readers = {
        "csv": _csv,
        "tsv": _tsv,
        "jsonl": _jsonl,
        "json": _json_array,
        "parquet": _parquet,
    }
    if kind == "hf":
        return _hf(path, split)
    if not path.is_file():
        raise IngestError(str(path), None, "(file)", "not a file")
    return readers[kind](path)


def table_kind(path: Path) -> str:
    """The table kind a file's name says (a folder is a saved Hugging Face dataset)."""
    if path.is_dir():
        return "hf"
    suffix = path.suffix.lower()
    kinds = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
    kinds |= {".json": "json", ".parquet": "parquet", ".pq": "parquet"}
    if suffix not in kinds:
        raise IngestError(str(path), None, "(file)", "unknown table type; name the format")
    return kinds[suffix]


def _csv(path: Path, delimiter: str = ",") -> Rows:
    csv.field_size_limit(sys.maxsize)
    with path.open(encoding="utf-8-sig", newline="") as f:
        try:
            for n, row in enumerate(csv.DictReader(f, delimiter=delimiter), start=1):
                if None in row:
                    raise IngestError(str(path), str(n), "(row)", "more cells than columns")
                yield n, row
        except UnicodeDecodeError as exc:
            raise IngestError(str(path), None, "(file)", f"not UTF-8 text: {exc}") from None
        except csv.Error as exc:
            raise IngestError(str(path), None, "(csv)", str(exc)) from None


def _tsv(path: Path) -> Rows:
    return _csv(path, "\t")


def _jsonl(path: Path) -> Rows:
    with path.open("rb") as f:
        for n, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise IngestError(str(path), str(n), "(json)", f"invalid JSON: {exc}") from None
            if not isinstance(obj, dict):
                raise IngestError(str(path), str(n), "(json)", "expected a JSON object")
            yield n, obj


def _json_array(path: Path) -> Rows:
    """A JSON array of objects (DeepEval's saved goldens), streamed with ijson."""
    import ijson

    with path.open("rb") as f:
        try:
            for n, obj in enumerate(ijson.items(f, "item", use_float=True), start=1):
                if not isinstance(obj, dict):
                    raise IngestError(str(path), str(n), "(json)", "expected a JSON object")
                yield n, obj
        except ijson.JSONError as exc:
            raise IngestError(str(path), None, "(json)", f"invalid JSON: {exc}") from None


def _parquet(path: Path) -> Rows:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise IngestError(str(path), None, "(parquet)", str(exc)) from None
    n = 0
    for batch in pf.iter_batches(batch_size=BATCH):
        for row in batch.to_pylist():
            n += 1
            yield n, row


def _hf(folder: Path, split: str | None) -> Rows:
    """A dataset saved by ``save_to_disk``; a DatasetDict needs its split named."""
    import pyarrow as pa

    if not folder.is_dir():
        raise IngestError(str(folder), None, "(folder)", "not a saved dataset folder")
    index = folder / "dataset_dict.json"
    if index.is_file():
        try:
            splits = list(json.loads(index.read_text(encoding="utf-8"))["splits"])
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            raise IngestError(str(index), None, "splits", f"unreadable: {exc}") from None
        chosen = split or (splits[0] if len(splits) == 1 else None)
        if chosen not in splits:
            raise IngestError(str(folder), None, "split", f"name one of {splits} (--split)")
        folder = folder / str(chosen)
    files = sorted(folder.glob("data-*.arrow"))
    if not files:
        raise IngestError(str(folder), None, "(folder)", "no data-*.arrow file: not saved data")
    n = 0
    for file in files:
        with pa.memory_map(str(file)) as source:
            try:
                reader = pa.ipc.open_stream(source)
            except pa.ArrowInvalid as exc:
                raise IngestError(str(file), None, "(arrow)", str(exc)) from None
            for batch in reader:
                for row in batch.to_pylist():
                    n += 1
                    yield n, row
