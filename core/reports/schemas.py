"""JSON Schemas published for halgate's files, generated from the pydantic models.

The committed copies under ``data/schemas/`` are what other tools validate against;
``halgate schemas --write`` regenerates them and a test fails when they drift.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from ..inputs.policy import Policy
from ..models import Answer, Case, Document, ReviewedReport, RunReport
from ..resources import data_path

PUBLISHED: dict[str, type[BaseModel]] = {
    "run_report": RunReport,
    "reviewed_report": ReviewedReport,
    "case": Case,
    "document": Document,
    "answer": Answer,
    "policy": Policy,
}


def generate_schema(name: str) -> dict:
    """The JSON Schema of a published model, with a stable $id."""
    schema = PUBLISHED[name].model_json_schema(mode="serialization")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://halgate.dev/schemas/{name}.schema.json",
        **schema,
    }


def schema_text(name: str) -> str:
    """Canonical text of a schema file (sorted keys, trailing newline)."""
    return json.dumps(generate_schema(name), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schema_path(name: str) -> Path:
    """Where the committed schema lives."""
    return data_path("schemas", f"{name}.schema.json")


def load_schema(name: str) -> dict:
    """The committed schema (what reports are validated against)."""
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def write_schemas(folder: Path | None = None) -> list[Path]:
    """Regenerate every published schema file; returns the paths written."""
    written = []
    for name in PUBLISHED:
        path = (folder / f"{name}.schema.json") if folder else schema_path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(schema_text(name), encoding="utf-8")
        written.append(path)
    return written
