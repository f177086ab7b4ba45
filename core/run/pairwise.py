"""Running pairwise mode: the judge's own pairwise method, else preferences from its claims."""

from __future__ import annotations

from collections.abc import Sequence

from ..inputs.policy import Policy
from ..judges.pairwise import DEFAULT_MARGIN, combine_swapped, failed_pair, prefer_by_claims
from ..judges.protocol import Judge, JudgeResult, JudgeTask, ProgressCallback
from ..models import (
    SHOULD_ABSTAIN_TAG,
    ClaimJudgement,
    PairwiseJudgement,
)


def _claims_of(result: JudgeResult, task: JudgeTask, system: str) -> list[ClaimJudgement] | None:
    return result.claims.get(system, []) if system in task.answers else None


def pairwise_from_results(
    tasks: Sequence[JudgeTask],
    results: Sequence[JudgeResult],
    systems: Sequence[str],
    policy: Policy,
    margin: float = DEFAULT_MARGIN,
) -> list[PairwiseJudgement]:
    """Pairwise judgements derived from claim analyses, each checked in both orders."""
    sa, sb = systems
    out = []
    for task, res in zip(tasks, results, strict=True):
        cid = task.case.case_id
        if res.errors:
            out.append(failed_pair(cid, sa, sb, "; ".join(sorted(set(res.errors.values())))))
            continue
        a, b = _claims_of(res, task, sa), _claims_of(res, task, sb)
        abstain = SHOULD_ABSTAIN_TAG in task.case.tags
        first = prefer_by_claims(a, b, policy, margin, abstain)
        swapped = prefer_by_claims(b, a, policy, margin, abstain)
        out.append(combine_swapped(cid, sa, sb, first, swapped))
    return out


def judge_pairs(
    judge: Judge,
    tasks: Sequence[JudgeTask],
    systems: Sequence[str],
    policy: Policy,
    progress: ProgressCallback | None = None,
) -> tuple[list[JudgeResult], list[PairwiseJudgement]]:
    """Pairwise judgements with the judge's own pairwise method, else from its claims."""
    direct = getattr(judge, "judge_pairwise", None)
    if direct is not None:
        return direct(tasks, systems, progress)
    from .parallel import judge_tasks  # the offline judge spreads over processes there

    results = judge_tasks(judge, tasks, progress)
    return results, pairwise_from_results(tasks, results, systems, policy)
