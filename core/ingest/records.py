"""What every source format is read into before a suite is written: one imported case.

A reader (tables, traces) yields ``ImportedCase`` records, one system's view of one case;
``join`` merges the views of several systems on a key, and ``writer`` turns the merged cases
into an ordinary suite folder. Each piece carries its ``Provenance``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Provenance


@dataclass
class Passage:
    """One retrieved context as the source gave it; documents are made from passages."""

    text: str
    provenance: Provenance
    title: str | None = None


@dataclass
class SystemAnswer:
    """One system's answer text and where it was read."""

    text: str
    provenance: Provenance


@dataclass
class ImportedCase:
    """One case as one source gives it: the question, its passages and the answers found."""

    key: str
    question: str
    provenance: Provenance
    passages: list[Passage] = field(default_factory=list)
    answers: dict[str, SystemAnswer] = field(default_factory=dict)
    case_id: str | None = None
    reference: str | None = None
    tags: list[str] = field(default_factory=list)
    risk_level: str | None = None
    domain: str | None = None


def location(p: Provenance) -> str:
    """``file:row`` or ``file: trace T span S``, as an error or a listing names it."""
    return p.where()
