"""Reviews applied incrementally: after a reviewer's next decision, redo only what it changes.

An overturn changes one claim, so one answer's claims and per-answer metrics. ``review_run``
re-derives all of them (tens of thousands of answers in a large run) before the rates,
comparison and gate that do depend on every answer; ``review_run_since`` takes the other
answers from the previous reviewed run and recomputes the rest exactly as ``review_run``
does, so its result is the same record (tested on every kind of override). Anything it
cannot do that way (a decided pair, an audit label, a history that is not the previous one
plus new overrides) is handed to ``review_run``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..inputs.policy import Policy
from ..models import AnswerAnalysis, RunReport
from ..models.review import Override
from ..scoring.rescore import reanalysed, rescore
from .audit import audit_input
from .effective import apply_override, claim_index, judge_agreement, pair_review_ids
from .panel import hold_for_disputes
from .queue import queue_ids
from .reviewed import ReviewedRun, build_queue, review_run


def review_run_since(
    previous: ReviewedRun,
    judged: RunReport,
    overrides: Sequence[Override],
    disputed: Sequence[str] = (),
) -> ReviewedRun:
    """``review_run(previous.run_id, judged, overrides)``, reusing ``previous`` (the same
    judged report reviewed with an older part of the same history) for the answers that no
    new override touches."""
    history = sorted(overrides, key=lambda o: o.id)
    report = _effective_since(previous, judged, history)
    if report is None:
        return review_run(previous.run_id, judged, history, disputed)
    report = hold_for_disputes(report, disputed)
    return ReviewedRun(
        run_id=previous.run_id,
        judged=judged,
        report=report,
        overrides=history,
        queue=build_queue(judged, report, history),
        agreement=judge_agreement(previous.run_id, judged, history),
        disputed=tuple(disputed),
    )


def _effective_since(
    previous: ReviewedRun, judged: RunReport, history: list[Override]
) -> RunReport | None:
    """The effective report of ``history``, or None when it cannot be derived from
    ``previous`` answer by answer."""
    before = {o.id for o in previous.overrides}
    new = [o for o in history if o.id not in before]
    known = claim_index(judged)
    if (
        previous.judged is not judged
        or not before <= {o.id for o in history}
        or any(o.claim_id not in known for o in new)  # a pair or an audit label
    ):
        return None
    touched = {o.claim_id for o in new}
    analyses = [
        now if not any(c.claim_id in touched for c in judged_a.claims)
        else _reviewed_answer(judged, judged_a, history)
        for judged_a, now in zip(judged.analyses, previous.report.analyses, strict=True)
    ]  # fmt: skip
    pairs = pair_review_ids(judged)
    reviewed = {o.claim_id for o in history if o.claim_id in known or o.claim_id in pairs}
    return rescore(
        previous.report.model_copy(update={"analyses": analyses}),
        reviewed=reviewed,
        extra_review_ids=queue_ids(judged),
        audit=audit_input(judged, history),
        fresh=True,  # every answer's metrics are current: kept, or just recomputed
    )


def _reviewed_answer(
    judged: RunReport, answer: AnswerAnalysis, history: list[Override]
) -> AnswerAnalysis:
    """One answer with every override of its claims folded in, oldest first, and its
    per-answer metrics recomputed (``effective.with_overrides`` then ``rescore``)."""
    claims = []
    for c in answer.claims:
        for o in history:
            if o.claim_id == c.claim_id:
                c = apply_override(c, o)
        claims.append(c)
    policy = Policy.model_validate(judged.policy)
    return reanalysed(judged, answer.model_copy(update={"claims": claims}), policy)
