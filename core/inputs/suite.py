"""Load a golden suite from a folder, reporting every problem at once.

Layout::

    suite.json               optional: {"name": ..., "description": ...}
    documents.jsonl          {"doc_id", "text", "title"?}   -- or --
    documents/               one .txt or .md file per document (doc_id = file stem)
    cases.jsonl              {"case_id", "question", "doc_ids", ...}
    answers/<system>.jsonl   {"case_id", "answer"}, one file per system
    labels.jsonl             optional expected claims, for `halgate eval-judge`
    policy.toml              optional gate policy for this suite

Each problem is reported as ``path:line: field: message``; nothing is evaluated until the
whole folder is clean. Two limits keep a run's memory and cost bounded: a document (a
``documents.jsonl`` record, a file of ``documents/`` or a case's inline document) of more
than ``MAX_DOCUMENT_BYTES`` of UTF-8 text, and more than ``MAX_CASES`` cases, are refused;
so are a folder above ``limits.MAX_SUITE_BYTES``, a line above ``limits.MAX_LINE_BYTES`` and
a question, answer, reference answer or label field above its limit (``limits``). Lines end
at ``\n`` only: U+2028 or U+0085 inside a JSON string is text, not a line break.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import SuiteError
from ..models import Answer, Case, Document, SourceLocation, Suite
from .jsonl import _json_value, _Problems, _read_text, _surrogate_field, read_jsonl
from .limits import MAX_SUITE_BYTES

M = TypeVar("M", bound=BaseModel)

MAX_DOCUMENT_BYTES = 5_000_000  # 5 MB of UTF-8 text per document
MAX_CASES = 100_000  # cases per suite


def _parse(model: type[M], obj: dict[str, Any], path: Path, line: int, p: _Problems) -> M | None:
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        for err in exc.errors():
            field = ".".join(str(x) for x in err["loc"]) or "(record)"
            p.add(path, line, field, err["msg"].lower())
        return None


def _too_big(doc: Document, limit: int) -> str | None:
    """Why the document is refused for its size, or None."""
    size = len(doc.text.encode("utf-8", "surrogatepass"))
    if size <= limit:
        return None
    return f"document {doc.doc_id!r} is {size} bytes, above the limit of {limit} bytes"


def _load_documents(
    folder: Path, p: _Problems, limit: int
) -> dict[str, tuple[Document, Path, int]]:
    docs: dict[str, tuple[Document, Path, int]] = {}
    jsonl = folder / "documents.jsonl"
    if jsonl.exists():
        for line, obj in read_jsonl(jsonl, p):
            doc = _parse(Document, obj, jsonl, line, p)
            if doc is None:
                continue
            problem = _too_big(doc, limit)
            if problem is not None:  # still known, so its cases get no second problem
                p.add(jsonl, line, "text", problem)
            if doc.doc_id in docs:
                first = docs[doc.doc_id]
                p.add(
                    jsonl, line, "doc_id", f"duplicate id {doc.doc_id!r} (first at line {first[2]})"
                )
                continue
            docs[doc.doc_id] = (doc, jsonl, line)
    doc_dir = folder / "documents"
    if doc_dir.is_dir():
        for f in sorted(doc_dir.iterdir()):
            if f.suffix.lower() not in {".txt", ".md"}:
                continue
            size = f.stat().st_size if f.is_file() else 0
            text: str | None = ""
            if size > limit:  # refused before it is read; the id stays known
                p.add(
                    f,
                    1,
                    "text",
                    f"document {f.stem!r} is {size} bytes, above the limit of {limit} bytes",
                )
            else:
                text = _read_text(f, p)
            if text is None:
                continue
            if f.stem in docs:
                p.add(f, None, "doc_id", f"duplicate id {f.stem!r} (also in {docs[f.stem][1]})")
                continue
            # Where it was read (the suite-relative file): a .md one is shown as Markdown.
            where = SourceLocation(source=f"documents/{f.name}", part="document")
            doc = Document(doc_id=f.stem, text=text, title=f.stem, provenance=[where])
            docs[f.stem] = (doc, f, 1)
    return docs


def _load_cases(
    folder: Path, docs: dict, p: _Problems, max_cases: int, max_document_bytes: int
) -> list[tuple[Case, int]]:
    path = folder / "cases.jsonl"
    if not path.exists():
        p.add(path, None, "(file)", "missing: a suite needs cases.jsonl")
        return []
    cases: list[tuple[Case, int]] = []
    seen: dict[str, int] = {}
    for n, (line, obj) in enumerate(read_jsonl(path, p), start=1):
        if n > max_cases:  # refused outright: the rest of the folder is not checked
            p.add(path, line, "(file)", f"more than {max_cases} cases, the limit of a suite")
            raise SuiteError(p.items)
        case = _parse(Case, obj, path, line, p)
        if case is None:
            continue
        for i, doc in enumerate(case.documents):
            problem = _too_big(doc, max_document_bytes)
            if problem is not None:
                p.add(path, line, f"documents.{i}.text", problem)
        if case.case_id in seen:
            p.add(
                path,
                line,
                "case_id",
                f"duplicate id {case.case_id!r} (first at line {seen[case.case_id]})",
            )
            continue
        seen[case.case_id] = line
        for i, doc_id in enumerate(case.doc_ids):
            if doc_id not in docs:
                p.add(path, line, f"doc_ids.{i}", f"unknown doc id {doc_id!r}")
        if not case.doc_ids and not case.documents:
            p.add(path, line, "doc_ids", "a case needs doc_ids or inline documents")
        cases.append((case, line))
    return cases


def _load_answers(folder: Path, case_ids: set[str], p: _Problems) -> dict[str, dict[str, Answer]]:
    answers_dir = folder / "answers"
    files = sorted(answers_dir.glob("*.jsonl")) if answers_dir.is_dir() else []
    if not files:
        p.add(answers_dir, None, "(folder)", "missing: put one <system>.jsonl per system here")
    out: dict[str, dict[str, Answer]] = {}
    for path in files:
        by_case: dict[str, Answer] = {}
        lines: dict[str, int] = {}
        for line, obj in read_jsonl(path, p):
            ans = _parse(Answer, obj, path, line, p)
            if ans is None:
                continue
            if ans.case_id in by_case:
                p.add(
                    path,
                    line,
                    "case_id",
                    f"duplicate answer for {ans.case_id!r} (first at line {lines[ans.case_id]})",
                )
                continue
            if ans.case_id not in case_ids:
                p.add(path, line, "case_id", f"unknown case id {ans.case_id!r}")
                continue
            by_case[ans.case_id] = ans
            lines[ans.case_id] = line
        out[path.stem] = by_case
    return out


def _content_hash(folder: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(x for x in folder.rglob("*") if x.is_file()):
        if f.name == "labels.jsonl" or f.name.startswith("."):
            continue
        h.update(str(f.relative_to(folder)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def _folder_bytes(folder: Path) -> int:
    """Bytes of every file in the folder (links inside it are not followed twice)."""
    total = 0
    for here, _, files in os.walk(folder, followlinks=False):
        for name in files:
            try:
                total += (Path(here) / name).lstat().st_size
            except OSError:  # vanished or unreadable: reported when it is read
                continue
    return total


def _links_outside(folder: Path) -> list[str]:
    """Symbolic links in the folder whose target lies outside it (never followed)."""
    root = folder.resolve()
    found = []
    for here, dirs, files in os.walk(folder, followlinks=False):
        for name in sorted(dirs + files):
            path = Path(here) / name
            if not path.is_symlink():
                continue
            try:
                inside = path.resolve().is_relative_to(root)
            except (OSError, RuntimeError):  # a loop of links
                inside = False
            if not inside:
                found.append(
                    f"{path}: (link): symbolic link points outside the suite folder (not followed)"
                )
    return found


def _suite_name(meta: Path, default: str, p: _Problems) -> str:
    """The ``name`` of suite.json, else ``default``."""
    text = _read_text(meta, p)
    if text is None:
        return default
    try:
        data = _json_value(text)
    except ValueError as exc:  # JSONDecodeError is a ValueError too
        p.add(meta, None, "(json)", f"invalid suite.json: {exc}")
        return default
    if not isinstance(data, dict):
        p.add(meta, None, "(json)", "invalid suite.json: expected a JSON object")
        return default
    name = data.get("name", default)
    if not isinstance(name, str) or not name.strip():
        p.add(meta, None, "name", "must be a non-empty string")
        return default
    if _surrogate_field({"name": name}) is not None:
        p.add(meta, None, "name", "contains a lone surrogate (an invalid \\u escape)")
        return default
    return name


def load_suite(
    folder: Path | str,
    *,
    max_document_bytes: int = MAX_DOCUMENT_BYTES,
    max_cases: int = MAX_CASES,
) -> Suite:
    """Load and validate a suite folder; raise SuiteError listing every problem.

    Symbolic links that point outside the folder are refused before anything is read. A
    document above ``max_document_bytes`` of UTF-8 text, or more than ``max_cases`` cases,
    is a problem naming the file, the line and the limit.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise SuiteError([f"{folder}: (folder): not a directory"])
    links = _links_outside(folder)
    if links:
        raise SuiteError(links)
    total = _folder_bytes(folder)
    if total > MAX_SUITE_BYTES:
        limit = f"above the limit of {MAX_SUITE_BYTES}"
        raise SuiteError([f"{folder}: (folder): the suite is {total} bytes, {limit}"])
    p = _Problems()
    name = folder.resolve().name
    meta = folder / "suite.json"
    if meta.exists():
        name = _suite_name(meta, name, p)
    docs = _load_documents(folder, p, max_document_bytes)
    if (
        not docs
        and not (folder / "documents.jsonl").exists()
        and not (folder / "documents").is_dir()
    ):
        p.add(
            folder / "documents.jsonl", None, "(file)", "missing: add documents.jsonl or documents/"
        )
    cases = _load_cases(folder, docs, p, max_cases, max_document_bytes)
    answers = _load_answers(folder, {c.case_id for c, _ in cases}, p)
    for system, by_case in answers.items():
        for case, line in cases:
            if case.case_id not in by_case:
                p.add(
                    folder / "cases.jsonl",
                    line,
                    "case_id",
                    f"case {case.case_id!r} has no answer in answers/{system}.jsonl",
                )
    if p.items:
        raise SuiteError(p.items)
    return Suite(
        name=name,
        path=str(folder),
        content_hash=_content_hash(folder),
        documents={k: v[0] for k, v in docs.items()},
        cases=[c for c, _ in cases],
        answers=answers,
    )
