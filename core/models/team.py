"""Records of team review: roles, review-panel labels and the agreement figures.

A team reviews a run's queue (the severe-claims triage or the random audit sample) with
``reviews_per_item`` reviewers per item, each labelling blind; a disagreement goes to an
adjudicator. These records carry what the store keeps and what every face shows.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from .record import Record


class Role(StrEnum):
    """What a person may do: review (label, override), sign off, administer roles."""

    REVIEWER = "reviewer"
    RELEASE_MANAGER = "release_manager"
    ADMIN = "admin"


class RoleChange(Record):
    """One grant or revoke of a role in the store's append-only ``role_grants`` history."""

    id: int
    at: str
    actor: str = Field(description="Who granted or revoked it.")
    action: Literal["grant", "revoke"]
    principal: str = Field(description="The identity: a verified email or a login subject.")
    role: Role


class PanelLabel(Record):
    """One reviewer's blind label of a queue item (audit answer or claim)."""

    id: int
    run_id: str
    item_id: str = Field(description="audit:CASE:SYSTEM, or a claim id.")
    reviewer: str
    label: str = Field(description="HALLUCINATED / FAITHFUL, or a claim verdict.")
    comment: str
    created_at: str


class Assignment(Record):
    """An item of a queue given to a reviewer (claimed, or dealt round-robin)."""

    id: int
    run_id: str
    item_id: str
    reviewer: str
    how: Literal["claimed", "round_robin"]
    assigned_by: str
    at: str


PanelState = Literal["open", "agreed", "disputed", "adjudicated"]


class PanelItem(Record):
    """Where one item of a multi-reviewer queue stands."""

    item_id: str
    state: PanelState = Field(
        description="open (fewer labels than the panel), agreed, disputed (the panel "
        "disagrees, nobody adjudicated) or adjudicated."
    )
    assigned: list[str] = Field(default_factory=list, description="Reviewers assigned.")
    labels: list[PanelLabel] = Field(default_factory=list, description="Oldest first.")
    label_in_force: str | None = Field(
        default=None, description="Agreed or adjudicated label (the one the rates use)."
    )
    adjudicator: str | None = None


class ReviewerAgreement(Record):
    """Agreement between reviewers on the items at least two of them labelled."""

    n_items: int = Field(description="Items with two or more labels.")
    n_labels: int
    raters: int = Field(description="Distinct reviewers among those labels.")
    percent_agreement: float | None = Field(
        default=None, description="Share of those items whose labels were all the same."
    )
    cohen_kappa: float | None = Field(
        default=None,
        description="Cohen's kappa of the first two labels of each item (statsmodels); None "
        "when undefined (fewer than 2 items, or one category only).",
    )
    fleiss_kappa: float | None = Field(
        default=None, description="Fleiss' kappa over the items' first m labels (statsmodels)."
    )
    krippendorff_alpha: float | None = Field(
        default=None, description="Krippendorff's alpha, nominal, every label (krippendorff)."
    )
    disputed: int = Field(default=0, description="Items the panel disagrees on, unadjudicated.")
    adjudicated: int = 0


class RiskConfusion(Record):
    """Judge vs human on "hallucinated" for the items of one risk level (or all)."""

    tp: int = Field(default=0, description="Judge and human say hallucinated.")
    fp: int = Field(default=0, description="Judge says hallucinated, human says not.")
    fn: int = Field(default=0, description="Human says hallucinated, judge says not.")
    tn: int = 0
    precision: float | None = Field(default=None, description="tp / (tp + fp).")
    recall: float | None = Field(default=None, description="tp / (tp + fn).")


class JudgeHumanAgreement(Record):
    """The judge against the labels in force (agreed, adjudicated or single reviews)."""

    n: int = Field(description="Items with a human label in force.")
    by_verdict: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="Judge's label -> human label -> count (verdicts for claims; "
        "HALLUCINATED / FAITHFUL for audit answers).",
    )
    by_risk: dict[str, RiskConfusion] = Field(
        default_factory=dict, description="Case risk level (or NONE) -> confusion on hallucinated."
    )
    overall: RiskConfusion = Field(default_factory=RiskConfusion)


class TeamAgreement(Record):
    """What team review adds to a run's report: panel sizes and both agreement figures."""

    reviews_per_item: int
    items: int = Field(default=0, description="Queue items with at least one panel label.")
    reviewers: ReviewerAgreement | None = None
    judge: JudgeHumanAgreement | None = None
    disputed_items: list[str] = Field(
        default_factory=list, description="Items in dispute: they hold the gate (NEEDS_REVIEW)."
    )
