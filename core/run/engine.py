"""One engine for every mode: plan judge tasks, judge, aggregate, decide."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from ..collector import relaxed_collector
from ..errors import SuiteError, UsageError
from ..inputs.policy import Policy
from ..judges.protocol import Judge, JudgeResult, JudgeTask, ProgressCallback
from ..models import (
    AnswerAnalysis,
    Case,
    Document,
    GateDecision,
    GateStatus,
    Mode,
    RunReport,
    Suite,
    SuiteInfo,
)
from ..scoring.abstention import answer_problem, unjudgeable
from ..scoring.resampled import draws_not_kept
from ..scoring.rescore import analysis_of, rescore
from .pairwise import judge_pairs
from .parallel import judge_tasks

NO_REFERENCE = "case has no reference_answer"


def check_two_systems(
    mode: Mode, baseline: str, candidate: str, named: tuple[str, str] = ("baseline", "candidate")
) -> None:
    """Compare and pairwise need two different systems: a system set against itself is a
    usage error (refused before anything is judged); `named` says how the face calls them."""
    if mode in (Mode.COMPARE, Mode.PAIRWISE) and baseline == candidate:
        raise UsageError(
            f"{named[0]} and {named[1]} are both {baseline!r}: compare two different systems"
        )


def choose_systems(
    suite: Suite, mode: Mode, baseline: str | None, candidate: str | None, system: str | None
) -> list[str]:
    """Systems a mode judges, checked against the suite; compare gives [baseline, candidate]."""
    known = sorted(suite.answers)
    if mode in (Mode.COMPARE, Mode.PAIRWISE):
        names = [baseline or "baseline", candidate or "candidate"]
        check_two_systems(mode, names[0], names[1])
    else:
        pick = system or candidate or ("candidate" if "candidate" in known else known[-1])
        names = [pick]
    for n in names:
        if n not in suite.answers:
            raise UsageError(f"system {n!r} has no answers/{n}.jsonl; known: {', '.join(known)}")
    return names


def check_runnable(suite: Suite, systems: Sequence[str]) -> None:
    """A suite with no cases, or a judged system with no answers, is bad input (exit 4):
    there would be nothing to gate on, and an empty gate must never pass."""
    where = suite.path or suite.name
    if not suite.cases:
        raise SuiteError([f"{where}: cases.jsonl: the suite has no cases: nothing to evaluate"])
    empty = [s for s in systems if not suite.answers.get(s)]
    if empty:
        raise SuiteError(
            [f"{where}: answers/{s}.jsonl: system {s!r} has no answers" for s in empty]
        )


def reference_document(case: Case) -> Document | None:
    """The case's reference answer as a document, for consistency mode."""
    if case.reference_answer is None:
        return None
    return Document(
        doc_id=f"{case.case_id}:reference", text=case.reference_answer, title="reference answer"
    )


def plan_tasks(suite: Suite, mode: Mode, systems: Sequence[str]) -> list[JudgeTask]:
    """One task per case, holding every judged system's answer (documents sent once)."""
    tasks = []
    for case in suite.cases:
        if mode == Mode.CONSISTENCY:
            ref = reference_document(case)
            docs = [ref] if ref else []
        else:
            docs = suite.case_documents(case)
            ref = reference_document(case) if mode == Mode.PAIRWISE else None
            docs = docs + [ref] if ref else docs  # pairwise: reference facts too
        answers = {}
        for s in systems:
            text = suite.answers[s][case.case_id].answer
            if unjudgeable(text) is None and docs:
                answers[s] = text  # empty, nonsense and refusals are abstentions, not judged
        tasks.append(JudgeTask(case=case, documents=docs, answers=answers))
    return tasks


def _analyses(
    suite: Suite,
    mode: Mode,
    systems: Sequence[str],
    tasks: Sequence[JudgeTask],
    results: Sequence[JudgeResult],
    policy: Policy,
    made: Mapping[str, tuple[JudgeResult, list[AnswerAnalysis]]] | None = None,
) -> list[AnswerAnalysis]:
    """Every judged system's analysis of every case, in case order; `made` holds those
    already built while judging, by case id with the result they were built from (used
    only if the judge returned that very result)."""
    out = []
    for case, task, res in zip(suite.cases, tasks, results, strict=True):
        streamed = made.get(case.case_id) if made else None
        if streamed is not None and streamed[0] is res:
            out += streamed[1]
        else:
            out += _case_analyses(mode, systems, case, task, res, suite, policy)
    return out


def _case_analyses(
    mode: Mode,
    systems: Sequence[str],
    case: Case,
    task: JudgeTask,
    res: JudgeResult,
    suite: Suite,
    policy: Policy,
) -> list[AnswerAnalysis]:
    out = []
    for s in systems:
        text = suite.answers[s][case.case_id].answer
        # Planning sent only answers that are not empty, nonsense or a refusal: for
        # those the text tells nothing more, and asking again cost 0.5 s at 20,000.
        judged = s in task.answers
        problem = None if judged else answer_problem(text)
        if problem is None and mode == Mode.CONSISTENCY and case.reference_answer is None:
            problem = NO_REFERENCE
        usage = res.usage if s == systems[0] else {}
        out.append(
            analysis_of(
                case.case_id,
                s,
                res.claims.get(s, []),
                policy,
                error_message=problem,
                harness_error=res.errors.get(s),
                usage=usage,
                raw_output=res.raw.get(s) if s in res.errors else None,
                answer_text=None if judged else text,
                failure=res.failures.get(s),
                sample_counts=res.sample_counts.get(s),
            )
        )
    return out


class _AnalysingProgress:
    """A progress callback that also builds each arriving result's analyses: while the
    judge workers fill both cores, the main process would otherwise wait, and build all
    20,000 analyses of a 10,000-case run alone afterwards (0.6 s)."""

    def __init__(
        self,
        suite: Suite,
        mode: Mode,
        systems: Sequence[str],
        tasks: Sequence[JudgeTask],
        policy: Policy,
        progress: ProgressCallback | None,
    ):
        self.suite, self.mode, self.systems, self.policy = suite, mode, systems, policy
        self.where = {t.case.case_id: (c, t) for c, t in zip(suite.cases, tasks, strict=True)}
        self.progress = progress
        self.made: dict[str, tuple[JudgeResult, list[AnswerAnalysis]]] = {}

    def __call__(self, res: JudgeResult) -> None:
        found = self.where.get(res.case_id)
        if found is not None:
            case, task = found
            built = _case_analyses(
                self.mode, self.systems, case, task, res, self.suite, self.policy
            )
            self.made[res.case_id] = (res, built)
        if self.progress:
            self.progress(res)


def run_suite(
    suite: Suite,
    judge: Judge,
    policy: Policy,
    mode: Mode = Mode.COMPARE,
    baseline: str | None = None,
    candidate: str | None = None,
    system: str | None = None,
    progress: ProgressCallback | None = None,
) -> RunReport:
    """Evaluate a suite with a judge and decide the gate; the core of `halgate run`."""
    systems = choose_systems(suite, mode, baseline, candidate, system)
    check_runnable(suite, systems)
    with relaxed_collector():
        return _run(suite, judge, policy, mode, systems, progress)


def _run(
    suite: Suite,
    judge: Judge,
    policy: Policy,
    mode: Mode,
    systems: list[str],
    progress: ProgressCallback | None,
) -> RunReport:
    t0 = time.perf_counter()
    tasks = plan_tasks(suite, mode, systems)
    pairs = None
    made = None
    if mode == Mode.PAIRWISE:
        results, pairs = judge_pairs(judge, tasks, systems, policy, progress)
    else:
        streamed = _AnalysingProgress(suite, mode, systems, tasks, policy, progress)
        results = judge_tasks(judge, tasks, streamed)
        made = streamed.made
    t1 = time.perf_counter()
    analyses = _analyses(suite, mode, systems, tasks, results, policy, made)
    usage: dict[str, int] = {}
    for r in results:
        for k, v in r.usage.items():
            usage[k] = usage.get(k, 0) + v
    used_docs = {d.doc_id for c in suite.cases for d in suite.case_documents(c)}
    report = RunReport(
        run_id=new_run_id(),
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        mode=mode,
        suite=SuiteInfo(
            name=suite.name,
            path=suite.path,
            content_hash=suite.content_hash,
            n_cases=len(suite.cases),
            systems=sorted(suite.answers),
        ),
        judge=judge.spec,
        policy=policy.model_dump(mode="json"),
        systems=list(systems),
        cases=suite.cases,
        documents=[suite.documents[d] for d in sorted(used_docs) if d in suite.documents],
        answers={
            s: {c.case_id: suite.answers[s][c.case_id].answer for c in suite.cases} for s in systems
        },
        analyses=analyses,
        rates={},
        pairwise=pairs,
        decision=_placeholder_decision(systems[-1]),
        usage=usage,
        timings={"judge_seconds": round(t1 - t0, 3)},
    )
    with draws_not_kept():  # nothing updates this derivation in place
        report = rescore(report, policy, fresh=True)
    report.timings["total_seconds"] = round(time.perf_counter() - t0, 3)
    return report


def new_run_id() -> str:
    """Sortable and unique: UTC time plus random hex."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def _placeholder_decision(system: str) -> GateDecision:
    # Replaced by rescore() before the report leaves run_suite.
    return GateDecision(status=GateStatus.PASSED, exit_code=0, reasons=[], gated_system=system)
