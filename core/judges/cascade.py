"""The cascade judge: the offline judge reads every answer, the LLM judge only the unsure ones.

Registered as ``cascade``. The offline judge scores each claim in [0, 1] and calls it
hallucinated at or above its calibration's ``score.decision_score`` (0.5). A claim is
**sure** when its score lies at least ``cascade_margin`` from that decision
(``|score - decision| >= margin``), or when its hallucinated verdict rests on one of the
calibration's hard signals (``verdicts.hard_signals``: a number conflict, a misattributed
citation, a contradicted record field, an invented value), findings the offline judge treats
as precise enough to stand even where its learned model doubts them (their score is then
floored at the decision, which is no measure of doubt). An answer is sure when every claim
is; an answer with no checkable claim has no score in doubt and is sure too. Every other
answer, and any answer the offline judge failed on, goes to the LLM judge, which then
decides it alone (its harness error stays a harness error: there is no silent fallback).

Both answers of a compare case that are unsure go to the LLM in one request, as the LLM
judge would send them; small cases are packed together as usual; the LLM judge's cache
(same keys, same table) makes an unchanged re-run free and lets a killed run resume.

Every claim carries ``signals["decided_by"]`` (``offline`` or ``llm``); each case's usage
counts ``cascade_offline_answers`` and ``cascade_llm_answers``, ``cascade_llm_agreed`` (the
escalated answers where the LLM agreed with the offline judge on whether the answer holds a
hallucinated claim) and ``cascade_calls_saved`` (the LLM calls the run would have planned
for every answer, less those it planned for the escalated ones), besides the LLM's calls and
tokens, so a report's usage sums them for the run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from ..errors import UsageError
from ..inputs.policy import SeverityRules
from ..models import HALLUCINATED, ClaimJudgement, JudgeSpec, Mode
from .llm.batch import pack_batches
from .llm.batch_ask import apportion
from .llm.estimate import CostEstimate
from .llm.judge import LLMJudge, make_llm_judge
from .llm.requests import claim_requests, task_mode
from .offline.judge import OfflineJudge
from .protocol import JudgeResult, JudgeTask, ProgressCallback
from .registry import register_judge

DEFAULT_MARGIN = 0.1
"""Default half-width of the unsure band around the decision score: on the example suite it
escalates 11 of 106 answers (10 cases); 0.05 escalates 9, 0.2 escalates 13."""


@dataclass(frozen=True)
class CascadeEstimate:
    """A dry run of the cascade: how many answers the LLM would see, and what it would cost."""

    answers: int
    escalated: int
    margin: float
    llm: CostEstimate

    def text(self) -> str:
        """A few lines for the terminal."""
        return (
            f"cascade: {self.escalated} of {self.answers} answer(s) unsure offline "
            f"(within {self.margin:g} of the decision score) would go to the LLM\n"
            + self.llm.text()
        )


class CascadeJudge:
    """The offline judge first; the answers it is unsure of are judged by the LLM judge."""

    def __init__(self, offline: OfflineJudge, llm: LLMJudge, margin: float = DEFAULT_MARGIN):
        if not 0.0 <= margin <= 1.0:
            raise UsageError(f"--cascade-margin {margin}: must be between 0 and 1")
        self.offline = offline
        self.llm = llm
        self.margin = margin
        self.decision = offline.cal.score.decision_score
        self.sure_signals = tuple(offline.cal.verdicts.hard_signals)
        self.spec = JudgeSpec(
            name="cascade",
            model=llm.spec.model,
            prompt_version=f"{offline.spec.prompt_version}+{llm.spec.prompt_version}",
            options={
                "cascade_margin": margin,
                "decision_score": self.decision,
                "sure_signals": list(self.sure_signals),
                "offline": {"prompt_version": offline.spec.prompt_version, **offline.spec.options},
                "llm": {"prompt_version": llm.spec.prompt_version, **llm.spec.options},
            },
        )

    # ------------------------------------------------------------------ the rule

    def claim_is_sure(self, claim: ClaimJudgement) -> bool:
        """Far enough from the decision score, or hallucinated on a hard signal."""
        if abs(claim.score - self.decision) >= self.margin - 1e-9:  # 0.4 is 0.1 from 0.5
            return True
        return claim.verdict in HALLUCINATED and any(
            claim.signals.get(s) for s in self.sure_signals
        )

    def unsure_answers(self, task: JudgeTask, offline: JudgeResult) -> list[str]:
        """The systems of a task whose answers go to the LLM (offline failures too)."""
        return [
            s
            for s in task.answers
            if s in offline.errors
            or not all(self.claim_is_sure(c) for c in offline.claims.get(s, []))
        ]

    # ------------------------------------------------------------------ judging

    def judge(
        self, tasks: Sequence[JudgeTask], progress: ProgressCallback | None = None
    ) -> list[JudgeResult]:
        """Judge every task offline, then the unsure answers with the LLM; task order."""
        offline = self.offline.judge(tasks)
        unsure = [self.unsure_answers(t, r) for t, r in zip(tasks, offline, strict=True)]
        merged: list[JudgeResult | None] = [None] * len(tasks)
        for i, (task, result) in enumerate(zip(tasks, offline, strict=True)):
            if not unsure[i]:
                merged[i] = done = self._merge(task, result, None, [])
                if progress is not None:
                    progress(done)
        escalated = [i for i, u in enumerate(unsure) if u]
        sub = [_only(tasks[i], unsure[i]) for i in escalated]
        where = {tasks[i].case.case_id: i for i in escalated}

        def tick(llm_result: JudgeResult) -> None:
            i = where[llm_result.case_id]
            merged[i] = done = self._merge(tasks[i], offline[i], llm_result, unsure[i])
            if progress is not None:
                progress(done)

        llm_results = self.llm.judge(sub, tick) if sub else []
        for i, llm_result in zip(escalated, llm_results, strict=True):
            if merged[i] is None:
                merged[i] = self._merge(tasks[i], offline[i], llm_result, unsure[i])
        results = [r for r in merged if r is not None]
        self._count_saved(tasks, sub, results, unsure)
        return results

    def estimate(
        self, tasks: Sequence[JudgeTask], mode: Mode, systems: Sequence[str]
    ) -> CascadeEstimate:
        """A dry run: the offline pass for real, then the LLM's estimate for the unsure."""
        offline = self.offline.judge(tasks)
        unsure = [self.unsure_answers(t, r) for t, r in zip(tasks, offline, strict=True)]
        sub = [_only(t, u) for t, u in zip(tasks, unsure, strict=True) if u]
        llm_mode = Mode.COMPARE if mode == Mode.PAIRWISE else mode  # claims, not pairs
        cost = replace(self.llm.estimate(sub, llm_mode, systems), cases=len(tasks))
        answers = sum(len(t.answers) for t in tasks)
        return CascadeEstimate(answers, sum(len(u) for u in unsure), self.margin, cost)

    # ------------------------------------------------------------------ assembling

    def _merge(
        self,
        task: JudgeTask,
        offline: JudgeResult,
        llm: JudgeResult | None,
        unsure: Sequence[str],
    ) -> JudgeResult:
        result = JudgeResult(case_id=task.case.case_id)
        usage: Counter[str] = Counter(llm.usage if llm is not None else {})
        for system in task.answers:
            if system not in unsure:
                result.claims[system] = _decided(offline.claims.get(system, []), "offline")
                usage["cascade_offline_answers"] += 1
                continue
            usage["cascade_llm_answers"] += 1
            if llm is None or system in llm.errors:
                result.errors[system] = llm.errors[system] if llm else "not judged by the LLM"
                if llm is not None and system in llm.raw:
                    result.raw[system] = llm.raw[system]
                continue
            claims = llm.claims.get(system, [])
            result.claims[system] = _decided(claims, "llm")
            if system not in offline.errors:
                usage["cascade_llm_agreed"] += _flagged(claims) == _flagged(
                    offline.claims.get(system, [])
                )
        result.usage = {k: v for k, v in usage.items() if v or k == "calls"}
        result.usage.setdefault("calls", 0)
        return result

    def _count_saved(
        self,
        tasks: Sequence[JudgeTask],
        sub: Sequence[JudgeTask],
        results: Sequence[JudgeResult],
        unsure: Sequence[Sequence[str]],
    ) -> None:
        """Spread the calls saved over the cases, by their answers decided offline."""
        saved = max(0, self._planned(tasks) - self._planned(sub))
        weights = [len(t.answers) - len(u) for t, u in zip(tasks, unsure, strict=True)]
        for result, share in zip(results, apportion({"calls": saved}, weights), strict=True):
            if share["calls"]:
                result.usage["cascade_calls_saved"] = share["calls"]

    def _planned(self, tasks: Sequence[JudgeTask]) -> int:
        """LLM calls the LLM judge would plan for ``tasks`` (before cache and repairs)."""
        settings = self.llm.settings
        plans = []
        for t in tasks:
            try:
                plans.append(claim_requests(t, task_mode(t, self.llm.mode), settings))
            except Exception:  # noqa: BLE001 - the LLM judge records it as a harness error
                plans.append([])
        batches = pack_batches(plans, settings)
        alone = sum(len(p) for p in plans) - sum(len(b.requests) for b in batches)
        return alone + len(batches)


def _only(task: JudgeTask, systems: Sequence[str]) -> JudgeTask:
    """The task with only the given systems' answers (documents sent as before)."""
    return JudgeTask(task.case, task.documents, {s: task.answers[s] for s in systems})


def _decided(claims: Sequence[ClaimJudgement], by: str) -> list[ClaimJudgement]:
    """Copies of the claims marked with the judge that decided them."""
    return [c.model_copy(update={"signals": {**c.signals, "decided_by": by}}) for c in claims]


def _flagged(claims: Sequence[ClaimJudgement]) -> bool:
    return any(c.verdict in HALLUCINATED for c in claims)


@register_judge("cascade")
def make_cascade_judge(
    *,
    severity_rules: SeverityRules | None = None,
    mode: Mode | str | None = None,
    cascade_margin: float | None = None,
    null_field_claims: str = "unsupported",
    calibration: str | None = None,
    rule_packs: Sequence[str] = (),
    **llm_options: Any,
) -> CascadeJudge:
    """Build the cascade: the offline judge (``null_field_claims``, ``calibration``) and the
    LLM judge (every LLM option: model, endpoint, key, batching, ``prefetch``, db)."""
    offline = OfflineJudge(
        severity_rules, calibration, null_field_claims=null_field_claims, rule_packs=rule_packs
    )
    llm = cast(LLMJudge, make_llm_judge(severity_rules=severity_rules, mode=mode, **llm_options))
    return CascadeJudge(offline, llm, DEFAULT_MARGIN if cascade_margin is None else cascade_margin)
