"""A run's outcome: rates, comparison, gate decision, pairwise judgements, the report."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .audit import CorrectedChange, CorrectedRate, CorrectedTypeRate
from .claims import AnswerAnalysis, VerdictCounts
from .record import Record
from .suite import Case, Document
from .verdicts import SCHEMA_VERSION, GateStatus, HallucinationType, Mode, Preference

GateMeasure = Literal["answers", "claims"]
"""Which hallucination rate gates: answers with a hallucination, or claims hallucinated."""

MEASURE_LABELS: dict[str, str] = {
    "answers": "answers with a hallucination",
    "claims": "claims hallucinated",
}


class Interval(Record):
    """A confidence interval of a rate (DESIGN.md §3)."""

    low: float
    high: float
    confidence: float = 0.95
    method: Literal["wilson", "bootstrap", "cluster"] = Field(
        description="wilson: Wilson score interval of a share of answers; bootstrap: percentile "
        "interval from resampling answers (claims of one answer stay together); cluster: "
        "normal interval of a pooled claim rate with answers as clusters, no narrower than "
        "the Wilson interval over the answers."
    )


class JudgeFlips(Record):
    """Repeated judging (policy ``judge_samples`` > 1): how often the judge changed its mind.

    ``share`` = flipped / compared, over the claims of the first sample that every other
    sample also judged (``scoring.judge_samples.judge_flips``, docs/metrics.md).
    """

    samples: int = Field(description="k: judgements of each answer.")
    compared: int = Field(description="Claims judged in every sample.")
    flipped: int = Field(description="Of those, claims whose verdict was not the same in all.")
    share: float | None = Field(description="flipped / compared; null when none compared.")
    answers: int = Field(description="Answers judged in every sample.")
    answers_flipped: int = Field(
        description="Of those, answers counted hallucinated in some samples, clean in others."
    )
    flipped_claims: list[str] = Field(
        default_factory=list, description="Claim ids of the flipped claims, in answer order."
    )


class SystemRates(Record):
    """Suite aggregates for one system, three ways, and its abstentions (DESIGN.md §3)."""

    system: str
    n_answers: int = Field(description="Answers judged (harness errors excluded).")
    n_claims: int = Field(description="Claims of the answers that did not abstain.")
    counts: VerdictCounts
    micro_rate: float | None = Field(
        description="Claims hallucinated: hallucinated claims / all claims, pooled."
    )
    macro_rate: float | None = Field(description="Mean of per-answer rates (answers with claims).")
    answer_level_rate: float | None = Field(
        description="Answers with a hallucination: n_hallucinated_answers / n_rated_answers."
    )
    fabrication_rate: float | None
    contradiction_rate: float | None
    severity_counts: dict[str, int] = Field(default_factory=dict)
    type_counts: dict[str, int] = Field(default_factory=dict)
    n_rated_answers: int = Field(
        default=0,
        description="Answers in the answer-level rate: those that did not abstain, plus every "
        "answer to a should-abstain case.",
    )
    n_hallucinated_answers: int = Field(
        default=0,
        description="Rated answers with at least one hallucinated claim, or with claims on a "
        "should-abstain case.",
    )
    n_should_abstain_answered: int = Field(
        default=0, description="Should-abstain cases answered with claims (counted hallucinated)."
    )
    answer_level_interval: Interval | None = Field(
        default=None, description="95% Wilson interval of answer_level_rate."
    )
    micro_interval: Interval | None = Field(
        default=None, description="95% bootstrap interval of micro_rate (resampling answers)."
    )
    n_abstained: int = Field(default=0, description="Abstentions on cases that expect an answer.")
    n_expected_answers: int = Field(
        default=0, description="Answers to cases that expect one (not tagged should-abstain)."
    )
    abstention_rate: float | None = Field(
        default=None,
        description="n_abstained / n_expected_answers: empty, refusal, nonsense or no claim.",
    )
    fabrication_interval: Interval | None = Field(
        default=None, description="Interval of fabrication_rate (answers as clusters)."
    )
    contradiction_interval: Interval | None = Field(
        default=None, description="Interval of contradiction_rate (answers as clusters)."
    )
    abstention_interval: Interval | None = Field(
        default=None, description="95% Wilson interval of abstention_rate."
    )
    abstention_reasons: dict[str, int] = Field(
        default_factory=dict, description="Abstentions on cases that expect an answer, by kind."
    )
    corrected: CorrectedRate | None = Field(
        default=None,
        description="Answers with a hallucination corrected by the reviewed audit sample "
        "(prediction-powered); None until a reviewed report has an audit sample.",
    )
    corrected_fabrication: CorrectedTypeRate | None = Field(
        default=None,
        description="fabrication_rate corrected by the same audit sample; None without one.",
    )
    corrected_contradiction: CorrectedTypeRate | None = Field(
        default=None,
        description="contradiction_rate corrected by the same audit sample; None without one.",
    )
    judge_flips: JudgeFlips | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="Repeated judging (judge_samples > 1): the share of claim verdicts that "
        "flipped across samples; absent with one sample.",
    )

    def gated_rate(self, measure: GateMeasure) -> tuple[float | None, Interval | None]:
        """The rate and interval of one measure: answers with a hallucination or claims."""
        if measure == "claims":
            return self.micro_rate, self.micro_interval
        return self.answer_level_rate, self.answer_level_interval


class RateChange(Record):
    """Candidate minus baseline rate (positive = worse) with a paired bootstrap CI."""

    estimate: float | None
    ci_low: float | None
    ci_high: float | None
    confidence: float = 0.95
    resamples: int
    seed: int
    n_cases: int
    method: Literal["bootstrap", "newcombe"] = Field(
        default="bootstrap",
        description="bootstrap: percentile interval of a paired bootstrap over cases; newcombe: "
        "Newcombe's paired interval of a change of shares (the abstention change: never zero "
        "width while few cases differ).",
    )
    cells: list[int] = Field(
        default_factory=list,
        description="newcombe: the paired table it rests on, cases counted on both sides "
        "(yes on both, baseline only, candidate only, neither); what the gate projects "
        "'about N more cases' from. Empty otherwise.",
    )


def ci_bounds(
    interval: Interval | RateChange | CorrectedRate | CorrectedChange | CorrectedTypeRate | None,
) -> tuple[float | None, float | None]:
    """The (low, high) ends of a rate's interval or of a change's, (None, None) when absent."""
    if interval is None:
        return None, None
    if isinstance(interval, Interval):
        return interval.low, interval.high
    return interval.ci_low, interval.ci_high


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
    rate_change: RateChange = Field(description="Change of the claims hallucinated (micro).")
    new_hallucination_types: list[HallucinationType] = Field(
        description="Types the candidate shows and the baseline never did (reported, not gated)."
    )
    severity_shift: dict[str, Shift]
    type_shift: dict[str, Shift]
    tag_shift: dict[str, Shift]
    regression_detected: bool = Field(
        description="The gated measure's change interval lies above zero (the corrected "
        "change's when gated_on_corrected), or a severity block fires."
    )
    answer_rate_change: RateChange | None = Field(
        default=None, description="Change of the answers with a hallucination."
    )
    abstention_change: RateChange | None = Field(
        default=None, description="Change of the abstention rate."
    )
    gated_measure: GateMeasure = Field(
        default="claims",
        description="The measure the gate uses: answers (answer_rate_change) or claims "
        "(rate_change).",
    )
    corrected_change: CorrectedChange | None = Field(
        default=None,
        description="Change of the audit-corrected answers with a hallucination (reviewed "
        "reports with an audit sample).",
    )
    gated_on_corrected: bool = Field(
        default=False,
        description="The gate and regression_detected used corrected_change (policy "
        "gate_on_corrected, audit complete).",
    )

    def gated_change(self) -> RateChange:
        """The change of the gated measure (rate_change when an old report lacks the other)."""
        if self.gated_measure == "answers" and self.answer_rate_change is not None:
            return self.answer_rate_change
        return self.rate_change


class GateReason(Record):
    """One rule's finding, with the numbers and claims behind it."""

    rule: str
    status: GateStatus = Field(description="What this finding alone would decide.")
    message: str
    observed: float | None = None
    threshold: float | None = None
    claim_ids: list[str] = Field(default_factory=list)
    why: str = Field(
        default="",
        description="Why, in a few words, for the decision's headline (e.g. 'the whole "
        "interval is above the limit', 'undecided: label 12 more audit answers').",
    )
    more_to_decide: int | None = Field(
        default=None,
        description="An undecided rate rule: labels (or pairs) that would decide it at the "
        "current variance.",
    )


class GateDecision(Record):
    """The release decision and every reason for it."""

    status: GateStatus
    exit_code: int
    reasons: list[GateReason]
    gated_system: str
    headline: str = Field(
        default="",
        description="One line: what the gate decided and why (the same words in every face).",
    )
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
    audit_seed: int | None = Field(
        default=None,
        description="Seed of the audit sample, drawn by the store (a fresh secret random value) "
        "when the run is saved or imported, and set when the store loads the run. A report's "
        "own value is discarded on save, so nobody who writes a report chooses its sample.",
    )
