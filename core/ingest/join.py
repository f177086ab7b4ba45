"""Merge the views of several sources on a key: one case per key, each system's answer on it.

Two sources (a baseline and a candidate export) or one source with several systems (two
prompt versions in one export) give several views of a case. Views are joined on their key;
the passages of every view are kept (a document retrieved by either configuration is a
source both answers are checked against). A key that not every system answered is listed
in ``Joined.one_sided``, never silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import IngestError
from .records import ImportedCase, location


@dataclass
class OneSided:
    """A case that some systems answered and others did not: listed, not imported."""

    key: str
    question: str
    systems: list[str]
    missing: list[str]
    where: list[str]


@dataclass
class Joined:
    """The cases every system answered, and those only some did."""

    cases: list[ImportedCase] = field(default_factory=list)
    one_sided: list[OneSided] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)


def join(views: Iterable[ImportedCase]) -> Joined:
    """One case per key; a second answer of one system for one key is an error naming both."""
    merged: dict[str, ImportedCase] = {}
    systems: list[str] = []
    for view in views:
        for name in view.answers:
            if name not in systems:
                systems.append(name)
        first = merged.get(view.key)
        if first is None:
            merged[view.key] = view
            continue
        _merge(first, view)
    out = Joined(systems=systems)
    for case in merged.values():
        missing = [s for s in systems if s not in case.answers]
        if missing:
            where = [location(a.provenance) for a in case.answers.values()]
            out.one_sided.append(
                OneSided(case.key, case.question, list(case.answers), missing, where)
            )
        else:
            out.cases.append(case)
    return out


def _merge(into: ImportedCase, view: ImportedCase) -> None:
    for name, answer in view.answers.items():
        if name in into.answers:
            first = location(into.answers[name].provenance)
            raise IngestError(
                location(answer.provenance),
                None,
                "key",
                f"a second answer of {name!r} for key {view.key!r} (first at {first}); "
                "join on a key that tells the cases apart",
            )
        into.answers[name] = answer
    into.passages.extend(view.passages)
    into.reference = into.reference or view.reference
    into.tags = into.tags or view.tags
    into.risk_level = into.risk_level or view.risk_level
    into.domain = into.domain or view.domain
    into.case_id = into.case_id or view.case_id
