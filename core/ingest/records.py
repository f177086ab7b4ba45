"""What every source format is read into before a suite is written: one imported case.

A reader (tables, traces) yields ``ImportedCase`` records, one system's view of one case;
``join`` merges the views of several systems on a key, and ``writer`` turns the merged cases
into an ordinary suite folder. Each piece carries where it was read (``Where``, a plain
tuple: a large export has many, and each becomes a ``SourceLocation`` record only when written).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..models import SourceLocation


class Where(NamedTuple):
    """Where a piece was read: the fields of a ``SourceLocation``, held light until written."""

    source: str
    row: int | None
    trace_id: str | None
    span_id: str | None
    part: str

    def record(self) -> SourceLocation:
        """As the record a suite file holds."""
        return SourceLocation(**self._asdict())

    def where(self) -> str:
        """``file:row`` or ``file: trace T span S``."""
        return self.record().where()


@dataclass
class RetrievedContext:
    """One retrieved context as the source gave it; documents are made from passages."""

    text: str
    provenance: Where
    title: str | None = None


@dataclass
class SystemAnswer:
    """One system's answer text and where it was read."""

    text: str
    provenance: Where


@dataclass
class ImportedCase:
    """One case as one source gives it: the question, its passages and the answers found."""

    key: str
    question: str
    provenance: Where
    passages: list[RetrievedContext] = field(default_factory=list)
    answers: dict[str, SystemAnswer] = field(default_factory=dict)
    case_id: str | None = None
    reference: str | None = None
    tags: list[str] = field(default_factory=list)
    risk_level: str | None = None
    domain: str | None = None


def location(p: Where) -> str:
    """``file:row`` or ``file: trace T span S``, as an error or a listing names it."""
    return p.where()
