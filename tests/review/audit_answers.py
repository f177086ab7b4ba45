"""The audit answers of a compare run in the order reviewers label them, and the run after
reviewers who know the truth labelled some (the 'label N more' tests of issue #33)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from halgate.inputs.policy import Policy
from halgate.models import Case, GateDecision, JudgeSpec, Mode, Override, RunReport, SuiteInfo
from halgate.review import ReviewedRun, review_run
from halgate.review.audit import audit_order
from halgate.scoring.rescore import analysis_of, rescore

from ..conftest import claim

REFUSAL = "I'm sorry, I can't answer that from the documents I have."


def audit_report(
    run_id: str,
    policy: Policy,
    n: int,
    refused: Collection[str],
    bad: Mapping[str, Collection[str]],
    seed: int,
) -> RunReport:
    """A compare run of `n` cases, one claim an answer: the candidate refuses the `refused`
    cases, and the judge flags each system's `bad` ones (the reviewers will agree)."""
    cases = [Case(case_id=f"k{i}", question="q") for i in range(n)]
    analyses, answers = [], {"baseline": {}, "candidate": {}}
    for case, system in ((c, s) for c in cases for s in answers):
        cid = case.case_id
        if system == "candidate" and cid in refused:
            answers[system][cid] = REFUSAL
            analyses.append(analysis_of(cid, system, [], policy, answer_text=REFUSAL))
            continue
        answers[system][cid] = "It opens at nine."
        verdict = "UNSUPPORTED" if cid in bad[system] else "SUPPORTED"
        c = claim(verdict, "FABRICATION", "LOW", case_id=cid, system=system)
        analyses.append(analysis_of(cid, system, [c], policy))
    report = RunReport(
        run_id=run_id, created_at="2026-01-07T00:00:00+00:00", mode=Mode.COMPARE,
        suite=SuiteInfo(name="audit", path="audit", content_hash="0" * 64, n_cases=n, systems=[]),
        judge=JudgeSpec(name="fixture"), policy=policy.model_dump(mode="json"),
        systems=["baseline", "candidate"], cases=cases, documents=[], answers=answers,
        analyses=analyses, rates={},
        decision=GateDecision(status="PASSED", exit_code=0, reasons=[], gated_system="candidate"),
        audit_seed=seed,
    )  # fmt: skip
    return rescore(report)


def answers_in_order(report: RunReport, refused: Collection[str]) -> list[tuple[str, str]]:
    """(case, system) of every audit answer in the order Triage and `halgate review` offer
    them: draw order, then system order; the candidate's refusals are no answer to label."""
    return [
        (c, s)
        for c in audit_order(report)
        for s in report.systems
        if not (s == "candidate" and c in refused)
    ]


def labelled(
    run_id: str,
    report: RunReport,
    answers: list[tuple[str, str]],
    bad: Mapping[str, Collection[str]],
) -> ReviewedRun:
    """The run after reviewers who know the truth (`bad`: each system's hallucinated
    cases) labelled ``answers``."""
    labels = [
        Override(id=i + 1, run_id=run_id, claim_id=f"audit:{c}:{s}", comment="read it",
                 label="HALLUCINATED" if c in bad[s] else "FAITHFUL", reviewer="ana",
                 created_at="2026-01-07T01:00:00+00:00")
        for i, (c, s) in enumerate(answers)
    ]  # fmt: skip
    return review_run(run_id, report, labels)
