"""The review record an export carries: what reviewers changed, beside what the judge said.

Every export format (JSON, Markdown, HTML, CSV, JUnit) is drawn from the same record, so a
claim's judge verdict, its verdict in force, reviewer, comment and time, and the sign-off in
force are derived here once (pure functions, no SQLite).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..models import ClaimJudgement
from ..models.review import ClaimReview, Override, ReviewedReport, ReviewRecord, SignOff
from ..models.team import TeamAgreement
from .effective import latest_by_claim
from .reviewed import ReviewedRun


def _labels(c: ClaimJudgement) -> tuple[object, ...]:
    return (c.verdict, c.hallucination_type, c.severity)


def review_comment(history: Sequence[Override]) -> str:
    """Why the claim reads as it does: the newest override's comment, and, when that
    override left the verdict as it was (a type or severity only), first the comment of the
    override whose verdict is in force, so a later type fix never hides why the verdict
    changed. ``history`` holds the claim's overrides, oldest first."""
    latest = history[-1]
    by = next((o for o in reversed(history) if o.verdict is not None), None)
    if by is None or by is latest:
        return latest.comment
    return (
        f"verdict {by.verdict.value if by.verdict else ''} by {by.reviewer} at "
        f"{by.created_at}: {by.comment}; then {latest.reviewer}: {latest.comment}"
    )


def claim_review(
    judged: ClaimJudgement,
    effective: ClaimJudgement,
    latest: Override,
    n_overrides: int,
    history: Sequence[Override] = (),
) -> ClaimReview:
    """One reviewed claim: the judge's reading, the one in force, and the override behind it
    (``history``: the claim's overrides, oldest first, for the comment; default the latest)."""
    return ClaimReview(
        claim_id=effective.claim_id,
        judge_verdict=judged.verdict,
        judge_hallucination_type=judged.hallucination_type,
        judge_severity=judged.severity,
        verdict=effective.verdict,
        hallucination_type=effective.hallucination_type,
        severity=effective.severity,
        changed=_labels(judged) != _labels(effective),
        reviewer=latest.reviewer,
        comment=review_comment(history or [latest]),
        reviewed_at=latest.created_at,
        override_id=latest.id,
        n_overrides=n_overrides,
    )


def signoff_in_force(signoffs: Sequence[SignOff]) -> SignOff | None:
    """The sign-off in force: the newest one, unless overrides followed it (then none)."""
    return next((s for s in reversed(signoffs) if s.in_force), None)


def review_record(
    run: ReviewedRun, signoffs: Sequence[SignOff] = (), team: TeamAgreement | None = None
) -> ReviewRecord:
    """The review record of a run: reviewed claims in report order, every override, every
    sign-off (``Store.signoffs`` marks which one is in force)."""
    latest = latest_by_claim(run.overrides)
    counts = Counter(o.claim_id for o in run.overrides)
    histories: dict[str, list[Override]] = {}
    for o in sorted(run.overrides, key=lambda o: o.id):
        histories.setdefault(o.claim_id, []).append(o)
    judged = {c.claim_id: c for a in run.judged.analyses for c in a.claims}
    claims = [
        claim_review(
            judged[c.claim_id], c, latest[c.claim_id], counts[c.claim_id], histories[c.claim_id]
        )
        for a in run.report.analyses
        for c in a.claims
        if c.claim_id in latest and c.claim_id in judged
    ]
    return ReviewRecord(
        judged_status=run.judged.decision.status,
        claims=claims,
        overrides=list(run.overrides),
        signoff_in_force=signoff_in_force(signoffs),
        signoffs=list(signoffs),
        team=team,
    )


def reviewed_report(
    run: ReviewedRun, signoffs: Sequence[SignOff] = (), team: TeamAgreement | None = None
) -> ReviewedReport:
    """The effective report with its review record: what ``halgate export`` writes."""
    # Built without re-validating: the effective report is valid already, and a 10,000-case
    # report would take seconds to check again.
    return ReviewedReport.model_construct(
        **dict(run.report), review=review_record(run, signoffs, team)
    )
