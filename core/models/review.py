"""Records the review store hands out: overrides, sign-offs, audit entries, run rows.

They are plain pydantic models so the CLI, the dashboard and JSON exports share one shape;
none of them carries a database handle.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from .audit import AuditLabel
from .claims import ClaimJudgement
from .record import Record
from .report import GateMeasure, PairwiseJudgement, RunReport
from .team import TeamAgreement
from .verdicts import GateStatus, HallucinationType, Mode, Preference, Severity, Verdict


class SignOffDecision(StrEnum):
    """A release manager's final word on a run."""

    APPROVED = "APPROVED"
    REJECTED = "REJECTED"


class Override(Record):
    """A reviewer's correction (or confirmation) of one claim or pair; never edited, only
    superseded.

    Fields left ``None`` keep the value in force before this override, so a bare override
    with a comment is a *confirmation*: it marks the claim reviewed without changing it. A
    pairwise case is decided under ``pairwise:CASE`` with a ``preference`` (A, B or TIE), an
    answer of the audit sample under ``audit:CASE:SYSTEM`` with a ``label``.
    """

    id: int = Field(description="Sequence number in the store; higher is newer.")
    run_id: str
    claim_id: str
    verdict: Verdict | None = Field(default=None, description="New verdict, if changed.")
    hallucination_type: HallucinationType | None = Field(default=None, description="New type.")
    severity: Severity | None = Field(default=None, description="New severity.")
    preference: Preference | None = Field(
        default=None, description="A pairwise case's decision: A, B or TIE (pairs only)."
    )
    label: AuditLabel | None = Field(
        default=None,
        description="An audited answer as a whole: HALLUCINATED or FAITHFUL (audit sample only).",
    )
    comment: str = Field(description="Why the reviewer decided so.")
    reviewer: str = Field(description="Who decided (free-form identity).")
    created_at: str = Field(description="UTC time, ISO 8601.")


class SignOff(Record):
    """A release manager's APPROVED / REJECTED, pinned to the decision it was made on."""

    id: int
    run_id: str
    decision: SignOffDecision
    reviewer: str
    comment: str
    created_at: str
    decision_status: GateStatus = Field(description="Effective gate status when signed.")
    inputs_hash: str = Field(description="Hash of the report and overrides the decision used.")
    report_hash: str | None = Field(
        default=None,
        description="Hash of the judged report approved (None: signed before it was kept).",
    )
    stale: bool = Field(
        default=False, description="True when an override was recorded after this sign-off."
    )
    override_gate: bool = Field(
        default=False,
        description="An approval of a decision other than PASSED, explicitly acknowledged.",
    )
    in_force: bool = Field(
        default=False, description="The newest sign-off of the run, and not stale."
    )

    @property
    def standing(self) -> str:
        """'in force' (the newest, not stale), 'stale' (overrides followed) or 'superseded'."""
        if self.in_force:
            return "in force"
        return "stale" if self.stale else "superseded"


class AuditEntry(Record):
    """One line of the append-only audit log: who did what, when, to which run."""

    id: int
    at: str
    actor: str
    action: str = Field(description="save_run, update_run, override or signoff.")
    run_id: str | None = None
    detail: dict[str, Any] = Field(default_factory=dict)


class AgreementCell(Record):
    """How often the reviewers kept the judge's verdict, for one slice of claims."""

    reviewed: int = 0
    kept: int = 0
    rate: float | None = Field(default=None, description="kept / reviewed; None if none reviewed.")


class JudgeAgreement(Record):
    """Judge agreement from overrides (DESIGN.md §3): the judge's measured precision."""

    run_id: str
    overall: AgreementCell = Field(default_factory=AgreementCell)
    by_verdict: dict[str, AgreementCell] = Field(
        default_factory=dict, description="Keyed by the judge's verdict."
    )
    by_severity: dict[str, AgreementCell] = Field(
        default_factory=dict, description="Keyed by the judge's severity ('NONE' if unset)."
    )


class ReviewItem(Record):
    """One entry of a run's review queue, with the judge's and the effective view."""

    claim: ClaimJudgement = Field(description="The claim with overrides applied.")
    judged: ClaimJudgement = Field(description="The claim as the judge left it.")
    reviewed: bool
    latest_override: Override | None = None


class PairReviewItem(Record):
    """A pairwise case in a run's review queue: the pair as judged and with the decision in
    force (``pair.preference`` is the reviewer's A / B / TIE once one is recorded)."""

    review_id: str = Field(description="The id its decision is recorded under: pairwise:CASE.")
    pair: PairwiseJudgement = Field(description="The pair with the reviewer's decision applied.")
    judged: PairwiseJudgement = Field(description="The pair as the judge left it.")
    reviewed: bool
    latest_override: Override | None = None


class RunRow(Record):
    """A run as listed by ``Store.list_runs``: identity plus effective status and rates."""

    run_id: str
    created_at: str = Field(description="When the report says it was made (its own field).")
    saved_at: str | None = Field(
        default=None, description="When this store saved it: the order of the run list."
    )
    mode: Mode
    suite_name: str
    suite_hash: str
    judge_id: str
    prompt_version: str | None = None
    gated_system: str
    judged_status: GateStatus = Field(description="Decision as judged, before any override.")
    status: GateStatus = Field(description="Decision from effective verdicts.")
    exit_code: int
    micro_rate: float | None = Field(
        description="Claims hallucinated: the gated system's effective claim-level rate."
    )
    rate_change: float | None = Field(
        description="Candidate − baseline of the claims hallucinated (compare mode)."
    )
    answer_rate: float | None = Field(
        default=None,
        description="Answers with a hallucination: the gated system's effective answer-level "
        "rate (None when a run stored before it was listed lacks it, or has no rated answer).",
    )
    answer_rate_change: float | None = Field(
        default=None, description="Candidate − baseline of the answers with a hallucination."
    )
    gated_measure: GateMeasure | None = Field(
        default=None,
        description="The measure the gate used: answers or claims (None: not recorded).",
    )
    n_claims: int
    n_review: int = Field(description="Items (claims and pairs) in the review queue.")
    pending_review: int = Field(description="Of those, not yet reviewed.")
    n_overrides: int
    agreement: float | None = Field(description="Overall judge agreement, if any review.")
    signoff: SignOffDecision | None = Field(default=None, description="Latest sign-off.")
    signoff_stale: bool = False


class ClaimReview(Record):
    """One reviewed claim as an export shows it: the judge's reading beside the one in force,
    and who decided it, when and why (the newest override of the claim)."""

    claim_id: str
    judge_verdict: Verdict = Field(description="The judge's verdict, never edited.")
    judge_hallucination_type: HallucinationType | None = None
    judge_severity: Severity | None = None
    verdict: Verdict = Field(description="The verdict in force (the gate decided on it).")
    hallucination_type: HallucinationType | None = None
    severity: Severity | None = None
    changed: bool = Field(
        description="The review changed the judge's verdict, type or severity (False: confirmed)."
    )
    reviewer: str
    comment: str
    reviewed_at: str = Field(description="UTC time of the override in force, ISO 8601.")
    override_id: int = Field(description="The override in force (see `overrides`).")
    n_overrides: int = Field(description="Overrides recorded on this claim, the superseded too.")


class ReviewRecord(Record):
    """What an export carries beside the effective report: each reviewed claim with the
    judge's reading, the whole override history, and the sign-off in force with every
    sign-off, so nothing a reviewer changed is applied silently."""

    judged_status: GateStatus = Field(description="The gate decision before any review.")
    claims: list[ClaimReview] = Field(
        default_factory=list, description="Claims with an override in force, in report order."
    )
    overrides: list[Override] = Field(
        default_factory=list,
        description="Every override of the run (claims and pairs), oldest first.",
    )
    signoff_in_force: SignOff | None = Field(
        default=None, description="The newest sign-off unless it is stale; None when none is."
    )
    signoffs: list[SignOff] = Field(
        default_factory=list,
        description="Every sign-off, oldest first, each marked stale or in force.",
    )
    team: TeamAgreement | None = Field(
        default=None,
        description="Team review: inter-reviewer and judge-human agreement, items in dispute.",
    )


class ReviewedReport(RunReport):
    """A reviewed run as ``halgate export -f json`` writes it: the effective report (overrides
    applied; rates and decision recomputed) plus ``review``, what the reviews changed."""

    review: ReviewRecord
