"""#12: random bytes and JSON in suite files give an exit code 0-4, never a traceback, and
nothing is written when the answer is exit 4."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import halgate.cli  # noqa: F401  (registers the commands)
from halgate.cli.app import app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ..conftest import TINY_ANSWERS, TINY_CASES, TINY_DOCS, write_jsonl

TARGETS = [
    "suite.json",
    "cases.jsonl",
    "documents.jsonl",
    "answers/candidate.jsonl",
    "documents/extra.txt",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=12,
)
records = st.fixed_dictionaries(
    {},
    optional={
        "case_id": st.sampled_from(["q1", "q2", "q3", "zz"]) | st.text(max_size=5),
        "doc_id": st.sampled_from(["d1", "d2", "d3"]) | json_values,
        "question": json_values,
        "answer": st.text() | json_values | st.sampled_from(["\ud800", "a\udfff b"]),
        "name": json_values,
        "text": st.text() | json_values,
        "doc_ids": st.lists(st.sampled_from(["d1", "d2", "x"]), max_size=3) | json_values,
    },
).map(lambda d: json.dumps(d, ensure_ascii=True))
contents = st.one_of(
    st.binary(max_size=200),
    st.lists(records, min_size=1, max_size=4).map(lambda rows: "\n".join(rows).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.integers(2_000, 100_000).map(lambda n: b"[" * n + b"]" * n),
)


def _base_suite(root: Path) -> None:
    write_jsonl(root / "documents.jsonl", TINY_DOCS)
    write_jsonl(root / "cases.jsonl", TINY_CASES)
    for system, answers in TINY_ANSWERS.items():
        rows = [
            {"case_id": c["case_id"], "answer": a} for c, a in zip(TINY_CASES, answers, strict=True)
        ]
        write_jsonl(root / "answers" / f"{system}.jsonl", rows)


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(target=st.sampled_from(TARGETS), data=contents)
def test_random_suite_files_never_crash_the_cli(target, data):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "suite"
        _base_suite(root)
        path = root / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        work = Path(tmp) / "work"
        work.mkdir()
        db, out = work / "h.db", work / "r.json"
        result = CliRunner().invoke(
            app, ["run", str(root), "-q", "--judge", "offline", "--db", str(db), "--out", str(out)]
        )
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            repr(result.exception),
            result.output,
        )
        assert result.exit_code in (0, 1, 2, 3, 4), result.output
        if result.exit_code == 4:
            assert sorted(p.name for p in work.iterdir()) == [], result.output
        shutil.rmtree(work)
