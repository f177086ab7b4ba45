"""#32 guarantee 1 (bounded input): zip members are streamed with their actual bytes counted,
and a question, answer, reference, label field, line and suite above its limit is refused
naming the file, the line and the field (exit 4), within a bounded memory."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import textwrap
import zlib

import halgate.cli  # noqa: F401  (registers the commands)
import pytest
from halgate.cli.app import app
from halgate.errors import SuiteError
from halgate.inputs import limits
from halgate.inputs.suite import load_suite
from hypothesis import example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ..conftest import TINY_ANSWERS, TINY_CASES, write_jsonl

MEMORY_LIMIT_MB = 300


def lying_zip(real_bytes: int, declared: int = 1024, name: str = "s/cases.jsonl") -> bytes:
    """A zip of one deflated entry of ``real_bytes`` zeros whose headers declare ``declared``."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk, parts, crc = b"\0" * 2**20, [], 0
    for _ in range(real_bytes // len(chunk)):
        parts.append(comp.compress(chunk))
        crc = zlib.crc32(chunk, crc)
    data = b"".join(parts) + comp.flush()
    fname = name.encode()
    local = struct.pack(
        "<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(data), declared, len(fname), 0
    )
    central = struct.pack(
        "<IHHHHHHIIIHHHHHII",
        0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(data), declared, len(fname), 0, 0, 0, 0, 0, 0,
    )  # fmt: skip
    body = local + fname + data
    cd = central + fname
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(cd), len(body), 0)
    return body + cd + end


def _peak_mb(code: str) -> tuple[dict, float]:
    """Run ``code`` in a fresh interpreter; its printed JSON and its peak memory in MB."""
    wrapper = textwrap.dedent(
        """
        import json, resource, subprocess, sys
        done = subprocess.run([sys.executable, "-c", sys.argv[1]], capture_output=True, text=True)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(json.dumps({"out": done.stdout, "err": done.stderr, "rc": done.returncode,
                          "peak_mb": peak}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, code], capture_output=True, text=True, check=True
    )
    result = json.loads(done.stdout)
    return result, result["peak_mb"]


def test_a_zip_bomb_whose_headers_lie_is_refused_in_bounded_memory(tmp_path):
    """The probe: a 1 MB zip declaring 1 KiB that expands to 1 GiB (peak 2.2 GB before)."""
    bomb = tmp_path / "bomb.zip"
    bomb.write_bytes(lying_zip(2**30))
    assert bomb.stat().st_size < 1_200_000
    code = f"""
from halgate.errors import SuiteError
from halgate.inputs.archive import extract_suite_archive
try:
    with open({str(bomb)!r}, "rb") as f:
        extract_suite_archive(f, {str(tmp_path / "out")!r})
except SuiteError as exc:
    print(exc.problems[0])
"""
    result, peak = _peak_mb(code)
    print(f"zip bomb (1 GiB in {bomb.stat().st_size} bytes): peak {peak:.0f} MB")
    assert "s/cases.jsonl" in result["out"], result
    assert peak < MEMORY_LIMIT_MB
    assert sum(f.stat().st_size for f in (tmp_path / "out").rglob("*") if f.is_file()) <= 2**20


def test_actual_bytes_count_against_the_limit_not_the_declared_ones(tmp_path, monkeypatch):
    from halgate.inputs import archive

    monkeypatch.setattr(archive, "MAX_BYTES", 3 * 2**20)
    honest = lying_zip(4 * 2**20, declared=4 * 2**20)
    with pytest.raises(SuiteError, match="more than 3 MiB"):
        archive.extract_suite_archive(honest, tmp_path / "a")
    # Two entries that each declare 2 MiB but the budget is counted as they are written:
    with pytest.raises(SuiteError, match="expands past its declared size|damaged"):
        archive.extract_suite_archive(lying_zip(2 * 2**20, declared=2**20), tmp_path / "b")


def test_an_archive_above_the_upload_limit_is_refused_before_it_is_opened(tmp_path, monkeypatch):
    from halgate.inputs import archive

    monkeypatch.setattr(archive, "MAX_ARCHIVE_BYTES", 1000)
    with pytest.raises(SuiteError, match="above 0 MiB"):
        archive.extract_suite_archive(b"x" * 1001, tmp_path)


def test_the_dashboard_server_refuses_uploads_above_the_archive_limit():
    from halgate.cli.dashboard import FLAGS
    from halgate.inputs.archive import MAX_ARCHIVE_BYTES

    assert int(FLAGS["server.maxUploadSize"]) * 2**20 == MAX_ARCHIVE_BYTES


def _suite(tmp_path, case: dict | None = None, answer: str | None = None):
    """The tiny suite, its first case changed by ``case`` and its first candidate answer
    replaced by ``answer``."""
    from ..conftest import TINY_DOCS

    root = tmp_path / "suite"
    write_jsonl(root / "documents.jsonl", TINY_DOCS)
    write_jsonl(root / "cases.jsonl", [dict(TINY_CASES[0], **(case or {})), *TINY_CASES[1:]])
    for system, texts in TINY_ANSWERS.items():
        rows = [
            {"case_id": c["case_id"], "answer": a} for c, a in zip(TINY_CASES, texts, strict=True)
        ]
        if answer is not None and system == "candidate":
            rows[0]["answer"] = answer
        write_jsonl(root / "answers" / f"{system}.jsonl", rows)
    return root


@pytest.mark.parametrize(
    ("field", "case", "answer", "where"),
    [
        ("question", {"question": "q" * 50_001}, None, "cases.jsonl"),
        ("reference_answer", {"reference_answer": "r" * 200_001}, None, "cases.jsonl"),
        ("tags.0", {"tags": ["t" * 200_001]}, None, "cases.jsonl"),
        ("answer", None, "a" * 200_001, "answers/candidate.jsonl"),
    ],
)
def test_each_text_field_above_its_limit_names_file_line_and_field(
    tmp_path, field, case, answer, where
):
    root = _suite(tmp_path, case, answer)
    with pytest.raises(SuiteError) as err:
        load_suite(root)
    assert err.value.problems[0].startswith(f"{root / where}:1: {field}: is ")
    assert "above the limit of" in err.value.problems[0]


def test_a_label_field_is_bounded_too(tmp_path):
    big = {"case_id": "c1", "system": "candidate", "claims": [{"text": "x" * 200_001}]}
    assert limits.oversized_field(big, documents=False) == (
        "claims.0.text",
        "is 200001 bytes, above the limit of 200000 bytes",
    )
    assert limits.oversized_field({"text": "x" * 300_000}, documents=True) is None


_JSON_TEXT = st.text(alphabet=st.sampled_from('aé中😀\n"\\\x00'), min_size=8, max_size=80)
_RECORDS = st.dictionaries(
    st.sampled_from(["question", "answer", "case_id", "title"]),
    st.one_of(_JSON_TEXT, st.lists(_JSON_TEXT, max_size=3)),
    max_size=4,
)


@settings(max_examples=300, deadline=None)
@given(record=_RECORDS, ascii_only=st.booleans(), big=st.integers(0, 3))
@example(record={"question": "😀" * 16}, ascii_only=False, big=0)  # 64 bytes in 32 characters
def test_a_line_short_enough_to_skip_the_field_walk_holds_no_field_above_a_limit(
    record, ascii_only, big
):
    """The shortcut read_jsonl takes (``fits_every_limit`` on the line's length) never
    passes a record the full walk would refuse: with the limits shrunk to a few bytes,
    every line it lets through has every field within them."""
    line = json.dumps(record, ensure_ascii=ascii_only)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(limits, "FIELD_LIMITS", {"question": 60 + 40 * big, "answer": 120})
        mp.setattr(limits, "MAX_FIELD_BYTES", 160)
        if limits.fits_every_limit(len(line)):
            assert limits.oversized_field(json.loads(line), documents=False) is None


def test_a_line_above_the_line_limit_is_refused_without_reading_it_whole(tmp_path, monkeypatch):
    from halgate.inputs import jsonl

    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 500)
    root = _suite(tmp_path, answer="b" * 600)
    with pytest.raises(SuiteError) as err:
        load_suite(root)
    assert err.value.problems == [
        f"{root / 'answers/candidate.jsonl'}:1: (line): longer than 500 bytes, the limit of a line",
        f"{root / 'cases.jsonl'}:1: case_id: case 'q1' has no answer in answers/candidate.jsonl",
    ]


def test_a_suite_above_the_total_limit_is_refused(tmp_path, monkeypatch):
    from halgate.inputs import suite

    root = _suite(tmp_path)
    monkeypatch.setattr(suite, "MAX_SUITE_BYTES", 100)
    with pytest.raises(SuiteError, match=r"\(folder\): the suite is \d+ bytes, above the limit"):
        load_suite(root)


def test_a_20_mb_answer_is_refused_with_exit_4_in_bounded_memory(tmp_path):
    """The probe: a 20 MB answer took 3.6 GB; now the run stops at the loader."""
    root = _suite(tmp_path, answer="The maximum daily dose is 100 mg. " * 600_000)
    code = f"""
import sys
from halgate.cli import main
sys.argv = ["halgate", "run", "--mode", "gate", {str(root)!r}, "--db", {str(tmp_path / "h.db")!r}]
main()
"""
    result, peak = _peak_mb(code)
    print(f"20 MB answer: peak {peak:.0f} MB")
    assert result["rc"] == 4, result
    assert "candidate.jsonl:1: (line): longer than 6000000 bytes" in result["err"], result
    assert not (tmp_path / "h.db").exists()
    assert peak < MEMORY_LIMIT_MB


def test_unicode_line_separators_inside_a_string_stay_text(tmp_path):
    """Low: U+2028 / U+0085 in a JSON string is valid JSON, not a line end."""
    root = _suite(tmp_path, answer="Take 100 mg\u2028daily.\u0085Not more.")
    path = root / "answers" / "candidate.jsonl"
    rows = [json.loads(line) for line in path.read_text().split("\n") if line]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    assert "\u2028" in path.read_text(encoding="utf-8")  # the raw character, not an escape
    suite = load_suite(root)
    assert suite.answers["candidate"]["q1"].answer == "Take 100 mg\u2028daily.\u0085Not more."


def test_the_cli_refuses_an_oversized_question_with_exit_4(tmp_path):
    root = _suite(tmp_path, {"question": "q" * 50_001})
    result = CliRunner().invoke(app, ["run", str(root), "--db", str(tmp_path / "h.db")])
    assert result.exit_code == 4
    assert "cases.jsonl:1: question: is 50001 bytes" in result.output


def test_judging_time_is_bounded_per_case(tiny_suite, monkeypatch):
    """A case past the offline judge's time budget is a harness error of its own case; the
    others are judged (the probe's 8 MB question ran past 300 s)."""
    from halgate.judges.offline import judge as offline
    from halgate.judges.protocol import JudgeTask

    suite = load_suite(tiny_suite)
    judge = offline.create_offline_judge()
    tasks = [
        JudgeTask(case=c, documents=[suite.documents[d] for d in c.doc_ids], answers={"a": a})
        for c, a in ((c, suite.answers["candidate"][c.case_id].answer) for c in suite.cases)
    ]
    assert not any(r.errors for r in judge.judge(tasks))
    monkeypatch.setattr(offline, "MAX_CASE_SECONDS", -1.0)  # every case is already late
    results = judge.judge(tasks)
    assert [r.errors for r in results] == [
        {"a": "offline judge failed: CaseTimeout: judging took more than -1 s; stopped"}
    ] * len(tasks)
