"""A run's outcome: rates, comparison, gate decision, pairwise judgements, the report."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .claims import AnswerAnalysis, VerdictCounts
from .record import Record
from .suite import Case, Document
from .verdicts import SCHEMA_VERSION, GateStatus, HallucinationType, Mode, Preference


class SystemRates(Record):
    """Suite aggregates for one system, three ways (DESIGN.md §3)."""

    system: str
    n_answers: int
    n_claims: int
    counts: VerdictCounts
    micro_rate: float | None = Field(description="Hallucinated claims / all claims, pooled.")
    macro_rate: float | None = Field(description="Mean of per-answer rates (answers with claims).")
    answer_level_rate: float | None = Field(description="Share of answers with a hallucination.")
    fabrication_rate: float | None
    contradiction_rate: float | None
    severity_counts: dict[str, int] = Field(default_factory=dict)
    type_counts: dict[str, int] = Field(default_factory=dict)


class RateChange(Record):
    """Candidate minus baseline micro rate (positive = worse) with a paired bootstrap CI."""

    estimate: float | None
    ci_low: float | None
    ci_high: float | None
    confidence: float = 0.95
    resamples: int
    seed: int
    n_cases: int


class Shift(Record):
    """Baseline vs candidate count for one category (a severity, type or tag)."""

    baseline: int
    candidate: int
    delta: int


class ComparisonSummary(Record):
    """Did the candidate regress? Rates, interval, types and severity shift."""

    baseline: str
    candidate: str
    rates: dict[str, SystemRates]
    rate_change: RateChange
    new_hallucination_types: list[HallucinationType]
    severity_shift: dict[str, Shift]
    type_shift: dict[str, Shift]
    tag_shift: dict[str, Shift]
    regression_detected: bool = Field(
        description="Interval of rate_change above zero, or a new hallucination type."
    )


class GateReason(Record):
    """One rule's finding, with the numbers and claims behind it."""

    rule: str
    status: GateStatus = Field(description="What this finding alone would decide.")
    message: str
    observed: float | None = None
    threshold: float | None = None
    claim_ids: list[str] = Field(default_factory=list)


class GateDecision(Record):
    """The release decision and every reason for it."""

    status: GateStatus
    exit_code: int
    reasons: list[GateReason]
    gated_system: str
    pending_review: list[str] = Field(
        default_factory=list, description="Claims in the review queue without a review."
    )


class JudgeSpec(Record):
    """Identifies a judge in every record: never the object, only its description."""

    name: str
    model: str | None = None
    prompt_version: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    @property
    def judge_id(self) -> str:
        """Short id: name/model@prompt_version."""
        parts = [self.name] + ([self.model] if self.model else [])
        pv = f"@{self.prompt_version}" if self.prompt_version else ""
        return "/".join(parts) + pv


class SuiteInfo(Record):
    """What was evaluated, so a report can be traced back to its inputs."""

    name: str
    path: str
    content_hash: str
    n_cases: int
    systems: list[str]


class PairwiseJudgement(Record):
    """Pairwise mode's verdict on one case, judged twice with the positions swapped."""

    case_id: str
    system_a: str = Field(description="System shown as output A in the first judgement.")
    system_b: str = Field(description="System shown as output B in the first judgement.")
    preference: Preference = Field(
        description="A = system_a is more factual, B = system_b, TIE = neither (or disagreement)."
    )
    justification: str = Field(description="Why, in a few sentences.")
    confidence: float = Field(ge=0.0, le=1.0, description="Judge's confidence in the preference.")
    tie_breaker: str | None = Field(
        default=None, description="The criterion that decided a close call, if one was needed."
    )
    swapped_preference: Preference | None = Field(
        default=None,
        description="Preference of the swapped judgement, mapped back to system_a/system_b.",
    )
    disagreement: bool = Field(
        default=False, description="The two orders disagreed (position bias): needs a human."
    )
    needs_review: bool = Field(default=False, description="A person must decide this pair.")
    error: str | None = Field(default=None, description="The judge failed on this pair.")


class RunReport(Record):
    """One evaluation of a suite by a judge: the unit the gate, store and dashboard use."""

    schema_version: str = SCHEMA_VERSION
    run_id: str
    created_at: str = Field(description="UTC time, ISO 8601.")
    mode: Mode
    suite: SuiteInfo
    judge: JudgeSpec
    policy: dict[str, Any] = Field(description="The policy in force, as TOML-able data.")
    systems: list[str] = Field(description="Systems judged; in compare mode [baseline, candidate].")
    cases: list[Case] = Field(description="The suite's cases (documents are in `documents`).")
    documents: list[Document] = Field(description="Every document a case refers to.")
    answers: dict[str, dict[str, str]] = Field(description="Answer text by system, then case_id.")
    analyses: list[AnswerAnalysis]
    rates: dict[str, SystemRates]
    comparison: ComparisonSummary | None = None
    pairwise: list[PairwiseJudgement] | None = Field(
        default=None, description="Pairwise mode: one preference per case."
    )
    decision: GateDecision
    usage: dict[str, int] = Field(default_factory=dict, description="Calls and tokens in total.")
    timings: dict[str, float] = Field(default_factory=dict, description="Seconds per phase.")
