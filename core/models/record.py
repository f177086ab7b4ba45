"""The base of every record: unknown fields are errors, so typos in input files surface."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Base for all records: unknown fields are errors, so typos in input files surface."""

    model_config = ConfigDict(extra="forbid", use_enum_values=False)
