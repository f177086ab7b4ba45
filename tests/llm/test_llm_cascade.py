"""The cascade judge: offline first, only the answers it is unsure of go to the LLM.

Against the shared fake OpenAI server: on the example suite the cascade makes far fewer calls
than the LLM judge alone, the sure answers keep the offline verdicts, the unsure ones get the
LLM's, the report counts both, and an unchanged re-run makes no call.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from halgate.cli.app import app
from halgate.judges import judge_names
from halgate.judges.cascade import DEFAULT_MARGIN, CascadeJudge
from halgate.models import ClaimJudgement, Verdict
from halgate.reports.json_report import load_report
from typer.testing import CliRunner

from ..conftest import EXAMPLE_SUITE, claim
from .llm_helpers import run_args


def run(fake, tmp_path: Path, judge: str, *extra: str, suite: Path = EXAMPLE_SUITE, name="r"):
    """`halgate run SUITE --judge JUDGE` against the fake; (exit code, report or None)."""
    out = tmp_path / f"{name}.json"
    args = run_args(suite, fake, tmp_path / f"{name}.db", out, *extra, judge=judge)
    result = CliRunner().invoke(app, args)
    return result, (load_report(out) if out.exists() else None)


def by_answer(report) -> dict[tuple[str, str], object]:
    return {(a.case_id, a.system): a for a in report.analyses}


@pytest.fixture(scope="module")
def offline_report(tmp_path_factory):
    """The example suite judged by the offline judge alone (no server needed)."""
    tmp = tmp_path_factory.mktemp("offline")
    out = tmp / "offline.json"
    args = ["run", str(EXAMPLE_SUITE), "--judge", "offline", "--no-save", "--out", str(out), "-q"]
    CliRunner().invoke(app, args)
    return load_report(out)


def test_cascade_is_registered_like_the_other_judges():
    assert "cascade" in judge_names()


def test_the_cascade_asks_the_llm_far_less_than_the_llm_alone(fake_openai, tmp_path):
    _, alone = run(fake_openai, tmp_path, "llm", name="alone")
    llm_calls = len(fake_openai.completions())
    _, cascade = run(fake_openai, tmp_path, "cascade", name="cascade")
    cascade_calls = len(fake_openai.completions()) - llm_calls
    escalated, kept = cascade.usage["cascade_llm_answers"], cascade.usage["cascade_offline_answers"]
    print(f"\nexample suite: llm alone {llm_calls} calls, cascade {cascade_calls} calls")
    assert alone.usage["calls"] == llm_calls and cascade.usage["calls"] == cascade_calls
    assert 0 < cascade_calls < llm_calls / 2
    assert cascade_calls / (escalated + kept) <= 0.1  # the target: <= 0.1 per answer
    assert 0 < escalated < kept
    assert cascade.usage["cascade_calls_saved"] > 0
    assert 0 <= cascade.usage["cascade_llm_agreed"] <= escalated


def test_sure_answers_keep_the_offline_verdict_unsure_ones_get_the_llms(
    fake_openai, tmp_path, offline_report
):
    _, alone = run(fake_openai, tmp_path, "llm", "--max-batch", "1", name="alone")
    _, cascade = run(fake_openai, tmp_path, "cascade", "--max-batch", "1", name="cascade")
    offline, llm = by_answer(offline_report), by_answer(alone)
    decided = {"offline": 0, "llm": 0}
    for key, answer in by_answer(cascade).items():
        by = {c.signals["decided_by"] for c in answer.claims}
        assert len(by) <= 1, key  # one judge decides a whole answer
        if not by:
            continue
        (who,) = by
        decided[who] += 1
        source = offline[key] if who == "offline" else llm[key]
        assert [(c.text, c.verdict, c.score) for c in answer.claims] == [
            (c.text, c.verdict, c.score) for c in source.claims
        ], key
        if who == "llm":  # it was unsure offline: some claim lay in the band, none sure
            off = offline[key].claims
            assert any(abs(c.score - 0.5) < DEFAULT_MARGIN for c in off), key
    assert decided["llm"] == cascade.usage["cascade_llm_answers"]
    assert 0 < decided["offline"] <= cascade.usage["cascade_offline_answers"]  # 0 claims: unmarked
    spec = cascade.judge
    assert spec.name == "cascade" and spec.options["cascade_margin"] == DEFAULT_MARGIN
    assert spec.prompt_version.startswith("offline-") and "compare-v2" in spec.prompt_version


def test_an_unchanged_rerun_makes_no_call(fake_openai, tmp_path):
    first, report = run(fake_openai, tmp_path, "cascade", name="c")
    calls = len(fake_openai.completions())
    again, rerun = run(fake_openai, tmp_path, "cascade", name="c")
    assert len(fake_openai.completions()) == calls > 0
    assert again.exit_code == first.exit_code
    assert rerun.usage["calls"] == 0 and rerun.usage["cached"] > 0
    assert [a.counts for a in rerun.analyses] == [a.counts for a in report.analyses]


def test_the_margin_is_settable_and_zero_asks_nothing(fake_openai, tmp_path):
    _, none = run(fake_openai, tmp_path, "cascade", "--cascade-margin", "0", name="zero")
    assert len(fake_openai.completions()) == 0
    assert none.usage.get("cascade_llm_answers", 0) == 0
    _, wide = run(fake_openai, tmp_path, "cascade", "--cascade-margin", "0.3", name="wide")
    _, default = run(fake_openai, tmp_path, "cascade", name="default")
    assert wide.usage["cascade_llm_answers"] > default.usage["cascade_llm_answers"]
    assert wide.judge.options["cascade_margin"] == 0.3


def test_an_llm_failure_on_an_unsure_answer_is_its_harness_error_only(fake_openai, tmp_path):
    _, probe = run(fake_openai, tmp_path, "cascade", "--max-batch", "1", name="probe")
    unsure = next(
        a for a in probe.analyses if a.claims and a.claims[0].signals["decided_by"] == "llm"
    )
    question = next(c.question for c in probe.cases if c.case_id == unsure.case_id)
    fake_openai.script("wrong_enum", match=question, times=None)
    result, report = run(fake_openai, tmp_path, "cascade", "--max-batch", "1", name="broken")
    assert result.exit_code == 2
    failed = {(a.case_id, a.system) for a in report.analyses if a.harness_error}
    assert (unsure.case_id, unsure.system) in failed
    assert {cid for cid, _ in failed} == {unsure.case_id}
    assert all(a.raw_output for a in report.analyses if a.harness_error)


def test_llm_only_options_are_refused_by_the_offline_judge(tmp_path):
    args = ["run", str(EXAMPLE_SUITE), "--judge", "offline", "--no-save", "-q"]
    margin = CliRunner().invoke(app, [*args, "--cascade-margin", "0.2"])
    assert margin.exit_code == 4 and "--cascade-margin only applies to --judge cascade" in (
        margin.output
    )
    batch = CliRunner().invoke(app, [*args, "--batch-api"])
    assert batch.exit_code == 4 and "--batch-api only apply to --judge llm or" in batch.output


@pytest.mark.parametrize(
    ("score", "verdict", "signals", "sure"),
    [
        (0.95, Verdict.CONTRADICTED, {}, True),  # far above the decision
        (0.05, Verdict.SUPPORTED, {}, True),  # far below
        (0.4, Verdict.SUPPORTED, {}, True),  # exactly the margin away: sure
        (0.45, Verdict.PARTIALLY_SUPPORTED, {}, False),  # inside the band
        (0.55, Verdict.UNSUPPORTED, {}, False),
        (0.5, Verdict.CONTRADICTED, {"number_conflict": True}, True),  # a hard signal stands
        (0.5, Verdict.UNSUPPORTED, {"hedge_mismatch": True}, False),  # not a hard signal
        (0.45, Verdict.SUPPORTED, {"number_conflict": True}, False),  # hard, but not flagged
    ],
)
def test_what_counts_as_sure(score, verdict, signals, sure):
    judge = CascadeJudge.__new__(CascadeJudge)  # the rule only: no judges needed
    judge.margin, judge.decision = 0.1, 0.5
    judge.sure_signals = ("number_conflict", "citation_mismatch", "record_conflicts")
    c: ClaimJudgement = claim(verdict, score=score).model_copy(update={"signals": signals})
    assert judge.claim_is_sure(c) is sure


def test_the_dry_run_says_how_many_answers_would_go_to_the_llm(tmp_path):
    args = ["run", str(EXAMPLE_SUITE), "--judge", "cascade", "--dry-run", "--no-save"]
    args += ["--base-url", "http://127.0.0.1:9/v1", "--db", str(tmp_path / "d.db")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "answer(s) unsure offline" in result.output and "dry run: 53 cases" in result.output
