"""#12 acceptance: any mangled or random report JSON given to the report loader (the
dashboard's "Load a report JSON", ``halgate.reports.parse_report``) is either loaded, and
then usable, or refused with a clean message; never an uncaught exception, and nothing is
written to the store for refused input.

Inputs start from a valid report and are mutated: one value anywhere in the document
replaced by random JSON, a key dropped or added, the text cut short or a byte changed; or
they are random bytes, random JSON, or brackets nested past the parser's limit.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from halgate.dashboard import actions
from halgate.errors import HalgateError
from halgate.reports import parse_report
from halgate.store import Store
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from ..conftest import build_report

VALID = json.loads(build_report().model_dump_json())

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["", "SUPPORTED", "CRITICAL", "compare", "PASSED", "0.1", "\ud800"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


def _paths(node: Any, here: tuple = ()) -> list[tuple]:
    """Every path (keys and indexes) to a value inside a JSON document, the root included."""
    found = [here]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*here, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*here, i))
    return found


PATHS = _paths(VALID)


def _at(doc: Any, path: tuple) -> Any:
    for step in path:
        doc = doc[step]
    return doc


LEAVES = [p for p in PATHS if isinstance(_at(VALID, p), (str, int, float))]


def _copy() -> Any:
    return json.loads(json.dumps(VALID))


def _like(value: Any) -> st.SearchStrategy:
    """Values of the same JSON type as ``value`` (so more mutants pass the schema)."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers(-(2**70), 2**70) | st.integers(-3, 3)
    if isinstance(value, float):
        return st.floats() | st.floats(0, 1)
    if isinstance(value, str):
        return st.text(max_size=40) | st.sampled_from(["", " ", "\ud800", value * 3])
    return json_values


@st.composite
def mutated(draw) -> bytes:
    """A valid report with one thing changed: a value (to any JSON or to one of its own
    type), a key, the text's end or one byte."""
    doc = _copy()
    # Half the mutants change one text, number or flag to another of its kind: most of those
    # still match the schema, so they reach the store, the part a schema cannot protect.
    how = draw(st.sampled_from(["same-type"] * 5 + ["replace", "drop", "add", "cut", "byte"]))
    path = draw(st.sampled_from(LEAVES if how == "same-type" else PATHS))
    if how in ("replace", "same-type"):
        value = draw(json_values if how == "replace" else _like(_at(doc, path)))
        if path:
            _at(doc, path[:-1])[path[-1]] = value
        else:
            doc = value
    elif how in ("drop", "add") and path and isinstance(_at(doc, path[:-1]), dict):
        parent = _at(doc, path[:-1])
        if how == "drop":
            del parent[path[-1]]
        else:
            parent[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    text = json.dumps(doc, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    if how == "cut":
        text = text[: draw(st.integers(0, len(text) - 1))]
    elif how == "byte":
        i = draw(st.integers(0, len(text) - 1))
        text = text[:i] + bytes([draw(st.integers(0, 255))]) + text[i + 1 :]
    return text


garbage = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.integers(2_000, 50_000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(2_000, 50_000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
)


def _stored(db: Path) -> list[tuple]:
    """Every row of the tables an import writes (none when the file was never created)."""
    if not db.exists():
        return []
    with sqlite3.connect(db) as raw:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return [
            row
            for table in sorted(tables & {"runs", "claims", "audit_log"})
            for row in raw.execute(f"SELECT * FROM {table}")  # one of three fixed names
        ]


def _with(path: tuple, value: Any, ensure_ascii: bool = True) -> bytes:
    doc = _copy()
    _at(doc, path[:-1])[path[-1]] = value
    return json.dumps(doc, ensure_ascii=ensure_ascii).encode("utf-8", "surrogatepass")


# What the fuzzing found, kept as fixed examples: each once reached the store and crashed it.
FOUND = [
    _with(("policy", "gate_on"), None),  # the schema takes any policy; Policy() does not
    _with(("run_id",), "\ud800", ensure_ascii=False),  # its bytes: json.loads lets them in
    _with(("analyses", 0, "claims", 0, "rationale"), "a \udfff b"),  # as an escape
    _with(("analyses", 0, "claims", 0, "index"), 2**70),  # no SQLite INTEGER holds it
]


@example(data=FOUND[0])
@example(data=FOUND[1])
@example(data=FOUND[2])
@example(data=FOUND[3])
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.one_of(mutated(), garbage))
def test_a_mangled_report_is_loaded_or_refused_cleanly(data: bytes):
    try:
        parse_report(data, "upload.json")
    except HalgateError:
        parsed = False
    else:
        parsed = True
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "h.db"
        try:
            run_id = actions.import_report(str(db), data, "upload.json")
        except actions.ActionError as exc:
            assert str(exc).startswith("Not loaded: ")
            assert _stored(db) == []
            assert not parsed  # the dashboard refuses only what the loader refuses
            event("refused")
            return
        assert parsed
        event("loaded")
        with Store(db) as store:  # a loaded report is usable, not just stored
            assert [r.run_id for r in store.list_runs()] == [run_id]
            store.reviewed_run(run_id)
            store.effective_report(run_id)
