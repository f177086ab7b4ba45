"""Table rows to imported cases: each row is one case, read through a column mapping.

A contexts cell may be a list (JSON, Parquet, Arrow), a JSON list in text, a Python list
literal (how pandas writes a list to CSV; read with ``ast.literal_eval``, which evaluates
nothing), text split on the mapping's separator, or one passage. A passage may be text or an
object with ``page_content`` / ``content`` / ``text`` (LangChain documents, RAGAS, DeepEval).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import IngestError
from .mapping import DEFAULTS, Mapping, resolve
from .records import ImportedCase, RetrievedContext, SystemAnswer, Where
from .rows import read_rows

TEXT_KEYS = ("page_content", "content", "text", "document", "context")
# deepeval.dataset.utils._RETRIEVED_CONTEXT_MARKER, across lines too.
DEEPEVAL_SOURCE = re.compile(
    r"deepeval_source=(?P<source>.*?),deepeval_context=(?P<context>.*)", re.S
)


def read_table(
    path: Path,
    kind: str,
    mapping: Mapping,
    system: str,
    split: str | None = None,
    defaults: dict[str, tuple[str, ...]] = DEFAULTS,
) -> Iterator[ImportedCase]:
    """The cases of one table, one per row, each with its file and row as provenance.

    JSON records may leave out a key whose value is null (ragas' ``to_jsonl`` does): the
    mapping is resolved on the keys seen so far, again whenever a row brings a new one."""
    resolved: Mapping | None = None
    columns: dict[str, None] = {}
    for n, row in read_rows(path, kind, split):
        if resolved is None or not columns.keys() >= row.keys():
            columns.update(dict.fromkeys(row))
            resolved = resolve(mapping, list(columns), system, str(path), defaults)
        yield _case(row, n, resolved, str(path))


def _case(row: dict[str, Any], n: int, m: Mapping, source: str) -> ImportedCase:
    where = str(n)
    prov = Where(source, n, None, None, "question")

    def text(part: str, column: str | None, required: bool = False) -> str | None:
        value = row.get(column) if column else None
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                raise IngestError(source, where, str(column), f"empty {part}")
            return None
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            raise IngestError(source, where, str(column), f"{part} must be text")
        return value

    question = str(text("question", m.question, required=True))  # required: never None
    case_id = text("case id", m.case_id)
    answers = {}
    for system, column in m.answers.items():
        answer = text("answer", column, required=True)
        answers[system] = SystemAnswer(
            str(answer), Where(source, n, None, None, f"answer:{system}")
        )
    passages = [
        passage(t, Where(source, n, None, None, "document"))
        for t in contexts(row.get(m.contexts) if m.contexts else None, m, source, where)
    ]
    return ImportedCase(
        key=_key(row, m, case_id, question, source, where),
        question=question,
        provenance=prov,
        passages=passages,
        answers=answers,
        case_id=case_id,
        reference=text("reference", m.reference),
        tags=_tags(row.get(m.tags) if m.tags else None),
        risk_level=(text("risk level", m.risk_level) or "").upper() or None,
        domain=text("domain", m.domain),
    )


def passage(text: str, where: Where) -> RetrievedContext:
    """One context; DeepEval's ``RetrievedContextData`` (written as ``deepeval_source=S,
    deepeval_context=C``) becomes the text C with the title S."""
    marked = DEEPEVAL_SOURCE.fullmatch(text)
    if marked is None:
        return RetrievedContext(text, where)
    return RetrievedContext(marked["context"], where, title=marked["source"] or None)


def _key(row: dict, m: Mapping, case_id: str | None, question: str, src: str, at: str) -> str:
    if m.join_on == "question":
        return " ".join(question.split())
    if m.join_on == "case_id":
        if case_id is None:
            raise IngestError(src, at, "case_id", "no case id to join on: use --join-on question")
        return case_id
    column = str(m.join_on)
    value = row.get(column)
    if value is None or str(value).strip() == "":
        raise IngestError(src, at, column, "empty join key")
    return str(value)


def contexts(value: Any, m: Mapping, source: str, where: str) -> list[str]:
    """The passages of one contexts cell, in order, blank ones left out."""
    column = str(m.contexts)
    if value is None:
        return []
    if isinstance(value, str):
        value = _parse_list(value, m.list_separator)
    if not isinstance(value, list | tuple):
        value = [value]
    out = []
    for i, item in enumerate(value):
        if isinstance(item, dict):
            item = next((item[k] for k in TEXT_KEYS if isinstance(item.get(k), str)), None)
        if not isinstance(item, str):
            raise IngestError(source, where, f"{column}.{i}", "a context must be text")
        if item.strip():
            out.append(item)
    return out


def _parse_list(text: str, separator: str | None) -> Any:
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError:
            pass
        try:
            return ast.literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            pass
    if separator:
        return text.split(separator)
    return [text]


def _tags(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        parsed = _parse_list(value, ",")
        value = parsed if isinstance(parsed, list) else [value]
    return [str(t).strip() for t in value if str(t).strip()]
