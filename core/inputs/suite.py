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
whole folder is clean.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import SuiteError
from ..models import Answer, Case, Document, Suite

M = TypeVar("M", bound=BaseModel)


class _Problems:
    """Collects problems so that all of them are shown in one go."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: Path, line: int | None, field: str, message: str) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        self.items.append(f"{where}: {field}: {message}")


def read_jsonl(path: Path, problems: _Problems) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line; bad lines become problems."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        problems.add(path, line, "(file)", f"not UTF-8 text (byte {exc.start})")
        return
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            problems.add(path, lineno, "(json)", f"invalid JSON: {exc.msg} (column {exc.colno})")
            continue
        if not isinstance(obj, dict):
            problems.add(path, lineno, "(json)", "expected a JSON object")
            continue
        yield lineno, obj


def _parse(model: type[M], obj: dict[str, Any], path: Path, line: int, p: _Problems) -> M | None:
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        for err in exc.errors():
            field = ".".join(str(x) for x in err["loc"]) or "(record)"
            p.add(path, line, field, err["msg"].lower())
        return None


def _load_documents(folder: Path, p: _Problems) -> dict[str, tuple[Document, Path, int]]:
    docs: dict[str, tuple[Document, Path, int]] = {}
    jsonl = folder / "documents.jsonl"
    if jsonl.exists():
        for line, obj in read_jsonl(jsonl, p):
            doc = _parse(Document, obj, jsonl, line, p)
            if doc is None:
                continue
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
            try:
                text = f.read_bytes().decode("utf-8")
            except UnicodeDecodeError as exc:
                line = f.read_bytes()[: exc.start].count(b"\n") + 1
                p.add(f, line, "(file)", f"not UTF-8 text (byte {exc.start})")
                continue
            if f.stem in docs:
                p.add(f, None, "doc_id", f"duplicate id {f.stem!r} (also in {docs[f.stem][1]})")
                continue
            docs[f.stem] = (Document(doc_id=f.stem, text=text, title=f.stem), f, 1)
    return docs


def _load_cases(folder: Path, docs: dict, p: _Problems) -> list[tuple[Case, int]]:
    path = folder / "cases.jsonl"
    if not path.exists():
        p.add(path, None, "(file)", "missing: a suite needs cases.jsonl")
        return []
    cases: list[tuple[Case, int]] = []
    seen: dict[str, int] = {}
    for line, obj in read_jsonl(path, p):
        case = _parse(Case, obj, path, line, p)
        if case is None:
            continue
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


def load_suite(folder: Path | str) -> Suite:
    """Load and validate a suite folder; raise SuiteError listing every problem."""
    folder = Path(folder)
    if not folder.is_dir():
        raise SuiteError([f"{folder}: (folder): not a directory"])
    p = _Problems()
    name = folder.resolve().name
    meta = folder / "suite.json"
    if meta.exists():
        try:
            name = json.loads(meta.read_text(encoding="utf-8")).get("name", name)
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError) as exc:
            p.add(meta, None, "(json)", f"invalid suite.json: {exc}")
    docs = _load_documents(folder, p)
    if (
        not docs
        and not (folder / "documents.jsonl").exists()
        and not (folder / "documents").is_dir()
    ):
        p.add(
            folder / "documents.jsonl", None, "(file)", "missing: add documents.jsonl or documents/"
        )
    cases = _load_cases(folder, docs, p)
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
