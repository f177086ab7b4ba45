"""One guard for judges: a plug-in judge that raises on one case of the example suite gives
that case HARNESS_ERROR with a typed failure record (judge id, exception type, message, raw
reply), in the report and the store; every other case is judged and the run exits 2."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from halgate.cli.app import app
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.protocol import JudgeResult, JudgeTask, ProgressCallback
from halgate.judges.registry import register_judge
from halgate.models import JudgeSpec
from halgate.store import Store
from typer.testing import CliRunner

from ..conftest import EXAMPLE_SUITE

runner = CliRunner()
BAD_CASE = "med-001"


class ReplyError(ValueError):
    """A plug-in's own error that carries the model's raw reply."""

    def __init__(self, message: str, raw_reply: str):
        super().__init__(message)
        self.raw_reply = raw_reply


class RaisesOnOneCase:
    """A plug-in judge: the offline judge's verdicts, but it raises on one case (as a
    careless third-party judge would), whatever batch that case arrives in."""

    def __init__(self, **options: Any):
        self.inner = OfflineJudge()
        self.spec = JudgeSpec(name="raises-on-one", model=None, prompt_version="v1")

    def judge(
        self, tasks: Sequence[JudgeTask], progress: ProgressCallback | None = None
    ) -> list[JudgeResult]:
        if any(t.case.case_id == BAD_CASE for t in tasks):
            raise ReplyError("the model's reply had no 'claims' key", raw_reply='{"claim": []}')
        return self.inner.judge(tasks, progress)


register_judge("raises-on-one")(RaisesOnOneCase)


def test_a_judge_that_raises_on_one_case_fails_only_that_case(tmp_path: Path) -> None:
    cases = (EXAMPLE_SUITE / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    assert any(line and json.loads(line)["case_id"] == BAD_CASE for line in cases)
    out, db = tmp_path / "report.json", tmp_path / "h.db"
    r = runner.invoke(
        app,
        ["run", str(EXAMPLE_SUITE), "--judge", "raises-on-one", "--out", str(out), "--db", str(db)],
    )
    assert r.exit_code == 2, r.output
    assert "Judge failures (2 answers, HARNESS_ERROR):" in r.output
    assert f"{BAD_CASE}/baseline: raises-on-one" in r.output and "ReplyError" in r.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["decision"]["status"] == "HARNESS_ERROR"
    failed = [a for a in report["analyses"] if a["harness_error"]]
    assert {(a["case_id"], a["system"]) for a in failed} == {
        (BAD_CASE, "baseline"),
        (BAD_CASE, "candidate"),
    }
    assert failed[0]["failure"] == {
        "judge_id": "raises-on-one@v1",
        "exception_type": "ReplyError",
        "message": "the model's reply had no 'claims' key",
        "raw_reply": '{"claim": []}',
    }
    others = [a for a in report["analyses"] if a["case_id"] != BAD_CASE]
    assert others and all(a["harness_error"] is None for a in others)
    assert sum(len(a["claims"]) for a in others) > 100
    with Store(db) as store:
        run_id = store.list_runs()[0].run_id
        stored = store.load_report(run_id)
        reviewed = store.reviewed_run(run_id).report  # rescored: the record must survive
    for loaded in (stored, reviewed):
        bad = next(a for a in loaded.analyses if a.case_id == BAD_CASE)
        assert bad.failure is not None and bad.failure.exception_type == "ReplyError"


def test_an_error_a_judge_reports_itself_gets_a_typed_record_too() -> None:
    from halgate.run.guard import guarded_judge

    class Reports:
        spec = JudgeSpec(name="reports", model=None, prompt_version="v1")

        def judge(self, tasks, progress=None):
            return [
                JudgeResult(t.case.case_id, errors={"s": "no JSON"}, raw={"s": "oops"})
                for t in tasks
            ]

    from halgate.models import Case, Document

    task = JudgeTask(Case(case_id="c", question="q"), [Document(doc_id="d", text="t")], {"s": "a"})
    (result,) = guarded_judge(Reports(), [task])
    failure = result.failures["s"]
    assert (failure.exception_type, failure.message, failure.raw_reply) == (None, "no JSON", "oops")
