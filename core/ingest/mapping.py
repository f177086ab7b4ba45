"""Which column holds what: a mapping given by flags or a small TOML file, with defaults.

The defaults recognise the column names of common tools (RAGAS: ``user_input``,
``retrieved_contexts``, ``response``, ``reference``, and the older ``question``,
``contexts``, ``answer``, ``ground_truth``; DeepEval: ``input``, ``actual_output``,
``retrieval_context``, ``expected_output``). A column ``answer_<system>`` or
``<system>_answer`` gives that system's answer, so one file can hold several systems.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import Field, ValidationError

from ..errors import IngestError
from ..models import Record

DEFAULTS: dict[str, tuple[str, ...]] = {
    "case_id": ("case_id", "id", "example_id", "qid", "question_id"),
    "question": ("question", "user_input", "input", "query", "prompt"),
    "contexts": (
        "contexts",
        "retrieved_contexts",
        "retrieval_context",
        "documents",
        "context",
        "passages",
    ),
    "answer": ("answer", "response", "actual_output", "output", "prediction", "generation"),
    "reference": (
        "reference",
        "reference_answer",
        "ground_truth",
        "expected_output",
        "ground_truths",
    ),
    "tags": ("tags",),
    "risk_level": ("risk_level",),
    "domain": ("domain",),
}
# DeepEval: a golden's ``name`` is its id (only there: elsewhere "name" is rarely an id).
DEEPEVAL_DEFAULTS = DEFAULTS | {"case_id": (*DEFAULTS["case_id"], "name")}


class Mapping(Record):
    """Column names for each part of a case; None = find it among the defaults."""

    case_id: str | None = Field(default=None, description="Column of the case id.")
    question: str | None = Field(default=None, description="Column of the question.")
    contexts: str | None = Field(default=None, description="Column of the retrieved contexts.")
    answers: dict[str, str] = Field(
        default_factory=dict, description="Column of each system's answer, by system name."
    )
    reference: str | None = Field(default=None, description="Column of the reference answer.")
    tags: str | None = None
    risk_level: str | None = None
    domain: str | None = None
    join_on: str | None = Field(
        default=None,
        description="What pairs the rows of two sources: case_id, question, or a column name "
        "(default: case_id where the source has one, else the question text).",
    )
    list_separator: str | None = Field(
        default=None, description="Splits a text cell of contexts (e.g. '|'), else JSON list."
    )


def load_mapping(path: Path) -> Mapping:
    """A mapping TOML file (keys of ``Mapping``; ``[answers]`` maps system to column)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise IngestError(str(path), None, "(file)", f"cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise IngestError(str(path), None, "(toml)", str(exc)) from None
    try:
        return Mapping.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(x) for x in err["loc"]) or "(mapping)"
        raise IngestError(str(path), None, field, err["msg"].lower()) from None


def resolve(
    mapping: Mapping,
    columns: list[str],
    system: str,
    source: str,
    defaults: dict[str, tuple[str, ...]] = DEFAULTS,
) -> Mapping:
    """The mapping with every unset part filled from the defaults, for a source's columns.

    ``system`` names the answer of a single answer column. A column the user named that the
    source lacks is an error naming it.
    """
    present = set(columns)
    values = mapping.model_dump()
    for part, names in defaults.items():
        if part == "answer":
            continue
        given = values.get(part)
        if given is not None and given not in present:
            raise IngestError(source, None, part, f"no column {given!r} (columns: {columns})")
        if given is None:
            values[part] = next((n for n in names if n in present), None)
    if values["join_on"] not in (None, "case_id", "question") and values["join_on"] not in present:
        raise IngestError(source, None, "join_on", f"no column {values['join_on']!r}")
    if values["join_on"] is None:
        values["join_on"] = "case_id" if values["case_id"] is not None else "question"
    values["answers"] = _answers(mapping.answers, columns, system, source)
    if values["question"] is None:
        raise IngestError(source, None, "question", f"no question column among {columns}; name it")
    return Mapping.model_validate(values)


def _answers(given: dict[str, str], columns: list[str], system: str, source: str) -> dict:
    """System -> answer column: as given, else ``answer_<system>`` columns, else one default."""
    for name, column in given.items():
        if column not in columns:
            raise IngestError(source, None, f"answers.{name}", f"no column {column!r}")
    if given:
        return dict(given)
    found = {}
    for column in columns:
        low = column.lower()
        if low.startswith("answer_") and len(low) > 7:
            found[column[7:]] = column
        elif low.endswith("_answer") and low not in ("reference_answer", "expected_answer"):
            found[column[:-7]] = column
    if found:
        return found
    single = next((n for n in DEFAULTS["answer"] if n in columns), None)
    return {system: single} if single is not None else {}
