"""Reports as JSON files that match the published schema, checked on the way in and out."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TypeAlias

import jsonschema
import jsonschema_rs
from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError

from ..collector import collector_paused
from ..errors import ReportError
from ..inputs import Policy
from ..models import SCHEMA_VERSION, Mode, ReviewedReport, RunReport
from .atomic import write_atomically
from .schemas import load_schema

# A decoded JSON document, as jsonschema validates it.
JsonValue: TypeAlias = (
    str | int | float | bool | Mapping[str, "JsonValue"] | Sequence["JsonValue"] | None
)


@lru_cache(maxsize=1)
def _validators() -> tuple[jsonschema.protocols.Validator, jsonschema.protocols.Validator]:
    """Validators for a whole report and for one answer analysis (same committed schema)."""
    schema = load_schema("run_report")
    cls = jsonschema.validators.validator_for(schema)
    analysis = {"$ref": "#/$defs/AnswerAnalysis", "$defs": schema["$defs"]}
    return cls(schema), cls(analysis)


def _raise(errors: list, source: str, prefix: tuple = ()) -> None:
    if not errors:
        return
    errors.sort(key=lambda e: [str(p) for p in e.absolute_path])
    lines = [
        f"{source}: {'/'.join(map(str, (*prefix, *e.absolute_path))) or '(root)'}: "
        f"{e.message[:200]}"
        for e in errors[:10]
    ]
    more = f"\n... and {len(errors) - 10} more" if len(errors) > 10 else ""
    raise ReportError("report does not match the schema:\n" + "\n".join(lines) + more)


def validate_report_data(data: JsonValue, source: str = "report") -> None:
    """Raise ReportError naming the first few schema violations (path and message)."""
    _raise(list(_validators()[0].iter_errors(data)), source)


def validate_report(report: RunReport) -> None:
    """Validate a report against the committed schema one analysis at a time.

    Same checks as validating the whole document (the schema's `analyses` items are
    AnswerAnalysis), but a 10,000-case report never exists twice in memory as dicts. The
    analyses are checked by jsonschema-rs (compiled: 20,000 analyses in about a second,
    where pure-Python jsonschema took half a minute); one that fails is checked again by
    jsonschema for the path and message of each problem.
    """
    whole, one = _validators()
    fast_whole, fast_one = _fast_validators()
    # The shell holds every case, document and answer: 10,000 cases took 3 s in jsonschema.
    shell = report.model_copy(update={"analyses": []}).model_dump(mode="json")
    if not fast_whole.is_valid(shell):
        _raise(list(whole.iter_errors(shell)), "report")
    for i, analysis in enumerate(report.analyses):
        data = analysis.model_dump(mode="json")
        if not fast_one.is_valid(data):
            _raise(list(one.iter_errors(data)), "report", ("analyses", i))


@lru_cache(maxsize=1)
def _fast_validators() -> tuple[jsonschema_rs.Validator, jsonschema_rs.Validator]:
    """Compiled validators for a whole report and for one analysis (same committed schema)."""
    schema = load_schema("run_report")
    part = {"$schema": schema.get("$schema"), "$ref": "#/$defs/AnswerAnalysis"}
    one = {**{k: v for k, v in part.items() if v}, "$defs": schema["$defs"]}
    return jsonschema_rs.validator_for(schema), jsonschema_rs.validator_for(one)


@lru_cache(maxsize=1)
def _review_validator() -> jsonschema.protocols.Validator:
    """Validator for the ``review`` part of a reviewed export (committed reviewed_report schema)."""
    schema = load_schema("reviewed_report")
    part = {"$ref": "#/$defs/ReviewRecord", "$defs": schema["$defs"]}
    return jsonschema.validators.validator_for(schema)(part)


def report_to_json(report: RunReport) -> str:
    """Validate against the committed schema, then serialise."""
    return report_to_bytes(report).decode("utf-8")


def report_to_bytes(report: RunReport) -> bytes:
    """Validate against the committed schema, then serialise to UTF-8 JSON.

    A ``ReviewedReport`` (an export) is checked as a run report plus its review record, the
    two parts of the reviewed_report schema, so the large part is validated the fast way.
    Bytes straight from the serializer: a 10,000-case report spent half a second decoding
    and encoding its text again. The collector is paused: the dicts validated make no
    cycles, and collections walking the run's records took half the time.
    """
    with collector_paused():
        if isinstance(report, ReviewedReport):
            fields = {k: getattr(report, k) for k in RunReport.model_fields}
            validate_report(RunReport.model_construct(**fields))
            review = report.review.model_dump(mode="json")
            _raise(list(_review_validator().iter_errors(review)), "report", ("review",))
        else:
            validate_report(report)
        return _adapter(type(report)).dump_json(report, indent=1)


@lru_cache(maxsize=4)
def _adapter(kind: type[RunReport]) -> TypeAdapter[RunReport]:
    return TypeAdapter(kind)


def write_report(report: RunReport, path: Path | str) -> Path:
    """Validate, then write atomically (a crash never leaves half a report).

    A path that cannot be written is a ReportError naming it; no temporary file is left.
    """
    path = Path(path)
    try:
        data = report_to_bytes(report)
    except PydanticSerializationError as exc:  # a lone surrogate that slipped past the inputs
        raise ReportError(f"{path}: report holds text that is not valid Unicode: {exc}") from None
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise ReportError(f"{path}: cannot write the report: {exc.strerror or exc}") from None
    return path


def _check_schema_version(data: JsonValue, source: str) -> None:
    """Refuse a report written for a newer schema than this halgate's (names both)."""
    if not isinstance(data, Mapping) or "schema_version" not in data:
        return
    found = data["schema_version"]
    try:
        if not isinstance(found, str):
            raise ValueError(found)
        parts = tuple(int(x) for x in found.split("."))
    except ValueError:
        raise ReportError(
            f"{source}: schema_version {found!r} is not a version like {SCHEMA_VERSION!r}"
        ) from None
    ours = tuple(int(x) for x in SCHEMA_VERSION.split("."))
    if parts > ours:
        raise ReportError(
            f"{source}: report schema_version {found} is newer than this halgate's "
            f"{SCHEMA_VERSION}; upgrade halgate to load it"
        )


SQLITE_INTS = (-(2**63), 2**63 - 1)  # what an INTEGER column holds


def _unstorable(data: JsonValue) -> str | None:
    """Where the document holds what no database or UTF-8 file can: a key or text with a lone
    surrogate (an unpaired \\ud800 escape, or its bytes, which ``json.loads`` lets through),
    or an integer beyond 64 bits; None when there is nothing. Walked without recursion: the
    document may be nested as deep as JSON allows."""
    stack: list[tuple[str, JsonValue]] = [("(root)", data)]
    while stack:
        where, node = stack.pop()
        prefix = "" if where == "(root)" else where + "/"
        if isinstance(node, Mapping):
            for key, value in node.items():
                if _not_unicode(key):
                    return f"{where}: a key is not valid Unicode (a lone surrogate)"
                stack.append((f"{prefix}{key}", value))
        elif isinstance(node, list):
            stack.extend((f"{prefix}{i}", v) for i, v in enumerate(node))
        elif isinstance(node, str) and _not_unicode(node):
            return f"{where}: text is not valid Unicode (a lone surrogate)"
        elif isinstance(node, int) and not SQLITE_INTS[0] <= node <= SQLITE_INTS[1]:
            return f"{where}: integer out of range (more than 64 bits)"
    return None


def _not_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def parse_report(text: str | bytes, source: str = "report") -> RunReport:
    """Parse and validate a report (from a file or an upload)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ReportError(f"{source}: not valid JSON: {exc}") from None
    except RecursionError:
        raise ReportError(f"{source}: not valid JSON: nested too deeply") from None
    bad = _unstorable(data)
    if bad is not None:
        raise ReportError(f"{source}: {bad}")
    _check_schema_version(data, source)
    if isinstance(data, Mapping) and "review" in data:
        raise ReportError(
            f"{source}: this is a reviewed export (`halgate export -f json`): its verdicts have "
            "the reviewers' overrides applied and would pass for the judge's; load the judged "
            "report instead (`halgate run --out FILE`)"
        )
    validate_report_data(data, source)
    try:
        report = RunReport.model_validate(data)
    except ValidationError as exc:
        raise ReportError(f"{source}: {exc.errors()[0]['msg']}") from None
    try:  # every reader of a stored run rebuilds its policy: refuse one that cannot be
        Policy.model_validate(report.policy)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = "/".join(map(str, ("policy", *error["loc"])))
        raise ReportError(f"{source}: {where}: {error['msg']}") from None
    _check_systems(report, source)
    _check_cases(report, source)
    return report


def _check_systems(report: RunReport, source: str) -> None:
    """Refuse a report whose systems do not fit its mode (``"systems": []`` made rescoring
    fail): compare and pairwise judge two systems, gate and consistency one."""
    wanted = 2 if report.mode in (Mode.COMPARE, Mode.PAIRWISE) else 1
    if len(report.systems) != wanted:
        raise ReportError(
            f"{source}: systems: {report.mode.value} mode judges {wanted} system(s), "
            f"the report lists {len(report.systems)}"
        )


def _check_cases(report: RunReport, source: str) -> None:
    """Refuse analyses of cases the report does not hold (``"cases": []`` beside analyses
    made the Overview page fail): every reader joins an analysis to its case."""
    known = {c.case_id for c in report.cases}
    for i, analysis in enumerate(report.analyses):
        if analysis.case_id not in known:
            raise ReportError(
                f"{source}: analyses/{i}/case_id: case {analysis.case_id!r} is not in cases"
            )


def load_report(path: Path | str) -> RunReport:
    """Read a report file written by halgate (or any tool following the schema)."""
    path = Path(path)
    try:
        return parse_report(path.read_bytes(), str(path))
    except FileNotFoundError:
        raise ReportError(f"{path}: report file not found") from None
