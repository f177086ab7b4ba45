"""Write joined cases as an ordinary suite folder, all or nothing.

Each distinct passage becomes one document whose id is taken from its content
(``doc-`` + 16 hex digits of its sha256), so a context repeated across rows or traces is
stored once and keeps the same id from one import to the next. The folder is written beside
its target and only then moved into place; a failure leaves nothing behind. Every record is
validated by the model the suite loader uses, under the loader's limits (cases per suite,
bytes per document), as it is written, so the whole suite is never held twice.
``import.json`` records what was imported and the cases only some systems answered; a
folder holding one may be replaced by a new import, any other is refused.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import IngestError, UsageError
from ..inputs.suite import MAX_CASES, MAX_DOCUMENT_BYTES
from ..models import Answer, Case, Document, SourceLocation
from .join import Joined
from .records import ImportedCase, location

MARKER = "import.json"
MAX_DOC_PROVENANCE = 20


def doc_id_of(text: str) -> str:
    """The stable id of a passage: the same text always gets the same id."""
    return "doc-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def check_target(out: Path) -> None:
    """Refuse a target that exists and is not a former import (exit 4 before any work)."""
    if out.exists() and not (out.is_dir() and (out / MARKER).is_file()):
        if out.is_dir() and not any(out.iterdir()):
            return
        raise UsageError(f"--out {out}: exists and is not a suite halgate imported; choose another")


def write_suite(joined: Joined, out: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """Write the suite to ``out`` (replacing a former import); return what import.json says."""
    check_target(out)
    sources = ", ".join(meta["sources"])
    if not joined.cases:
        raise IngestError(sources, None, "(cases)", _no_cases(joined))
    _check_systems(joined, sources)
    if len(joined.cases) > MAX_CASES:
        problem = f"{len(joined.cases)} cases, above the limit of {MAX_CASES} of a suite"
        raise IngestError(sources, None, "(cases)", problem)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        summary = _write(joined, tmp, meta | {"name": out.name})
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return summary


def _no_cases(joined: Joined) -> str:
    if joined.one_sided:
        return f"no case has an answer from every system ({len(joined.one_sided)} one-sided)"
    return "no cases found"


SYSTEM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def _check_systems(joined: Joined, sources: str) -> None:
    """A system names a file (answers/<system>.jsonl): a name from a trace attribute or a
    column must be a plain file name, never a path."""
    for name in joined.systems:
        if not SYSTEM_NAME.fullmatch(name):
            problem = f"system name {name!r} must be letters, digits, '.', '_' or '-'"
            raise IngestError(sources, None, "system", problem)


def _write(joined: Joined, folder: Path, meta: dict[str, Any]) -> dict[str, Any]:
    docs: dict[str, Document] = {}
    seen_ids: dict[str, str] = {}
    (folder / "answers").mkdir()
    answer_files = {s: (folder / "answers" / f"{s}.jsonl").open("w") for s in joined.systems}
    try:
        with (folder / "cases.jsonl").open("w", encoding="utf-8") as cases_file:
            for case in joined.cases:
                record = _case_record(case, docs, seen_ids)
                cases_file.write(_line(record, location(case.provenance)))
                for system, answer in case.answers.items():
                    line = Answer(case_id=record.case_id, answer=answer.text)
                    answer_files[system].write(_line(line, location(answer.provenance)))
    finally:
        for f in answer_files.values():
            f.close()
    with (folder / "documents.jsonl").open("w", encoding="utf-8") as f:
        for doc in docs.values():
            f.write(_line(doc, doc.provenance[0].where() if doc.provenance else doc.doc_id))
    summary = meta | {
        "systems": joined.systems,
        "cases": len(joined.cases),
        "documents": len(docs),
        "one_sided": [vars(o) for o in joined.one_sided],
    }
    (folder / "suite.json").write_text(json.dumps({"name": meta["name"]}) + "\n")
    (folder / MARKER).write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _line(record: Any, where: str) -> str:
    """One JSON line; text with a lone surrogate (an invalid \\u escape in a source) can be
    no UTF-8 file's, so it is refused here, naming where it came from."""
    text = json.dumps(record.model_dump(mode="json", exclude_none=True), ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        problem = "contains a lone surrogate (an invalid \\u escape)"
        raise IngestError(where, None, "(text)", problem) from None
    return text + "\n"


def _case_record(case: ImportedCase, docs: dict[str, Document], seen: dict[str, str]) -> Case:
    where = location(case.provenance)
    doc_ids: list[str] = []
    for passage in case.passages:
        doc_id = doc_id_of(passage.text)
        doc = docs.get(doc_id)
        if doc is None:
            size = len(passage.text.encode("utf-8", "surrogatepass"))
            if size > MAX_DOCUMENT_BYTES:
                problem = f"{size} bytes, above the limit of {MAX_DOCUMENT_BYTES} of a document"
                raise IngestError(passage.provenance.where(), None, "contexts", problem)
            doc = docs[doc_id] = Document(doc_id=doc_id, text=passage.text, title=passage.title)
        if len(doc.provenance) < MAX_DOC_PROVENANCE:
            doc.provenance.append(passage.provenance.record())
        if doc_id not in doc_ids:
            doc_ids.append(doc_id)
    if not doc_ids:
        raise IngestError(where, None, "contexts", "no retrieved context: nothing to check against")
    case_id = case.case_id or "case-" + hashlib.sha256(case.key.encode()).hexdigest()[:12]
    if case_id in seen:
        problem = f"duplicate case id {case_id!r} (first at {seen[case_id]})"
        raise IngestError(where, None, "case_id", problem)
    seen[case_id] = where
    provenance: list[SourceLocation] = [case.provenance.record()]
    provenance += [a.provenance.record() for a in case.answers.values()]
    try:
        return Case(
            case_id=case_id,
            question=case.question,
            doc_ids=doc_ids,
            reference_answer=case.reference,
            tags=case.tags,
            risk_level=case.risk_level,  # type: ignore[arg-type]  # validated here
            domain=case.domain,
            provenance=provenance,
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(x) for x in err["loc"])
        raise IngestError(where, None, field, err["msg"].lower()) from None
