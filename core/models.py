"""The records halgate reads and writes.

Every judgement is a named record carrying its reason and evidence; failures are records
too. The JSON Schemas in ``data/schemas/`` are generated from these models
(``halgate schemas``) and a test fails when they drift.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = "1.0"


class Verdict(StrEnum):
    """How a claim stands against the sources (the one internal verdict enum)."""

    SUPPORTED = "SUPPORTED"
    PARTIALLY_SUPPORTED = "PARTIALLY_SUPPORTED"
    UNSUPPORTED = "UNSUPPORTED"
    CONTRADICTED = "CONTRADICTED"
    OUT_OF_SCOPE = "OUT_OF_SCOPE"


class HallucinationType(StrEnum):
    """What kind of error a non-supported claim is."""

    FABRICATION = "FABRICATION"
    DISTORTION = "DISTORTION"
    OMISSION_AS_FACT = "OMISSION_AS_FACT"
    CITATION_ERROR = "CITATION_ERROR"


class Severity(StrEnum):
    """How much harm a hallucinated claim can do; also used as a case's risk level."""

    LOW = "LOW"
    MEDIUM = "MEDIUM"
    HIGH = "HIGH"
    CRITICAL = "CRITICAL"

    @property
    def rank(self) -> int:
        """Order for comparisons: LOW=0 ... CRITICAL=3."""
        return _SEVERITY_ORDER.index(self)


_SEVERITY_ORDER = [Severity.LOW, Severity.MEDIUM, Severity.HIGH, Severity.CRITICAL]
SEVERITIES_DESC = list(reversed(_SEVERITY_ORDER))


class GateStatus(StrEnum):
    """The release decision; each maps to one CLI exit code."""

    PASSED = "PASSED"
    FAILED = "FAILED"
    NEEDS_REVIEW = "NEEDS_REVIEW"
    HARNESS_ERROR = "HARNESS_ERROR"

    @property
    def exit_code(self) -> int:
        """Exit code a CI job acts on (DESIGN.md §4)."""
        return EXIT_CODES[self]


EXIT_CODES = {
    GateStatus.PASSED: 0,
    GateStatus.FAILED: 1,
    GateStatus.HARNESS_ERROR: 2,
    GateStatus.NEEDS_REVIEW: 3,
}
EXIT_BAD_INPUT = 4


class GateLabel(StrEnum):
    """The vocabulary of `gate` mode, mapped from Verdict at the edges (see GATE_LABELS)."""

    VERIFIED = "VERIFIED"
    FABRICATED = "FABRICATED"
    UNVERIFIABLE = "UNVERIFIABLE"


#: A claim the references confirm is VERIFIED; one they do not back or that they contradict is
#: FABRICATED; one that is only partly backed or outside their scope is UNVERIFIABLE.
GATE_LABELS = {
    Verdict.SUPPORTED: GateLabel.VERIFIED,
    Verdict.PARTIALLY_SUPPORTED: GateLabel.UNVERIFIABLE,
    Verdict.UNSUPPORTED: GateLabel.FABRICATED,
    Verdict.CONTRADICTED: GateLabel.FABRICATED,
    Verdict.OUT_OF_SCOPE: GateLabel.UNVERIFIABLE,
}


class Mode(StrEnum):
    """The four ways to ask (DESIGN.md §1)."""

    COMPARE = "compare"
    GATE = "gate"
    CONSISTENCY = "consistency"
    PAIRWISE = "pairwise"


class Record(BaseModel):
    """Base for all records: unknown fields are errors, so typos in input files surface."""

    model_config = ConfigDict(extra="forbid", use_enum_values=False)


# --------------------------------------------------------------------------- suite


class Document(Record):
    """A source document that answers are checked against."""

    doc_id: str = Field(min_length=1, description="Stable id, referenced by cases and citations.")
    text: str = Field(description="Full text; citation spans index into it.")
    title: str | None = Field(default=None, description="Human-readable title.")


class Case(Record):
    """One golden question with the documents its answer must rest on."""

    case_id: str = Field(min_length=1, description="Stable id, unique in the suite.")
    question: str = Field(description="The question put to the system.")
    doc_ids: list[str] = Field(default_factory=list, description="Ids of the source documents.")
    documents: list[Document] = Field(
        default_factory=list, description="Inline documents (an alternative to doc_ids)."
    )
    reference_answer: str | None = Field(default=None, description="The golden answer, if any.")
    tags: list[str] = Field(default_factory=list, description="Failure modes, e.g. multi-hop.")
    risk_level: Severity | None = Field(default=None, description="Risk of the case's domain.")
    domain: str | None = Field(default=None, description="Subject area, e.g. medication.")


class Answer(Record):
    """One system's answer to one case."""

    case_id: str = Field(min_length=1, description="The case answered.")
    answer: str = Field(description="The system's answer text; claim spans index into it.")


class Suite(Record):
    """A loaded, validated golden suite: cases, documents, and answers per system."""

    name: str = Field(description="Suite name (folder name unless suite.json says otherwise).")
    path: str = Field(description="Folder it was loaded from.")
    content_hash: str = Field(description="sha256 over every input file, for reproducibility.")
    documents: dict[str, Document] = Field(description="Documents by doc_id.")
    cases: list[Case] = Field(description="Cases in file order.")
    answers: dict[str, dict[str, Answer]] = Field(
        description="Answers by system name, then by case_id."
    )

    def case_documents(self, case: Case) -> list[Document]:
        """The documents a case's answers are checked against, in the case's order."""
        return [self.documents[d] for d in case.doc_ids] + list(case.documents)


# --------------------------------------------------------------------------- claims


class Citation(Record):
    """Evidence for a verdict; halgate itself checks that the quote occurs in the source."""

    doc_id: str = Field(description="Document the quote is taken from.")
    start: int | None = Field(default=None, ge=0, description="Start offset in the document.")
    end: int | None = Field(default=None, ge=0, description="End offset (exclusive).")
    quote: str = Field(description="The quoted passage as given by the judge.")
    verified: bool = Field(description="True when the quote was found in the named document.")
    match: Literal["exact", "normalized", "fuzzy", "none"] = Field(
        default="exact", description="How the quote was located."
    )


class Claim(Record):
    """One verifiable statement of an answer, located by its character span."""

    claim_id: str = Field(description="Stable id: case_id/system/index.")
    case_id: str = Field(description="Case whose answer holds the claim.")
    system: str = Field(description="System that produced the answer.")
    index: int = Field(ge=0, description="Position of the claim in its answer.")
    text: str = Field(description="The claim text, equal to answer[start:end].")
    start: int = Field(ge=0, description="Start offset in the answer.")
    end: int = Field(ge=0, description="End offset in the answer (exclusive).")


class ClaimJudgement(Claim):
    """A claim with the judge's verdict, reason and evidence."""

    verdict: Verdict = Field(description="The judge's verdict.")
    hallucination_type: HallucinationType | None = Field(
        default=None, description="Set for non-supported claims."
    )
    severity: Severity | None = Field(default=None, description="Set for non-supported claims.")
    rationale: str = Field(description="Why the judge decided so, in one or two sentences.")
    citations: list[Citation] = Field(default_factory=list, description="Supporting evidence.")
    score: float = Field(
        ge=0.0, le=1.0, description="Judge's hallucination score (0 = surely supported)."
    )
    signals: dict[str, Any] = Field(
        default_factory=dict, description="Judge-specific features behind the verdict."
    )


# --------------------------------------------------------------------------- analyses


class VerdictCounts(Record):
    """Claim counts per verdict."""

    SUPPORTED: int = 0
    PARTIALLY_SUPPORTED: int = 0
    UNSUPPORTED: int = 0
    CONTRADICTED: int = 0
    OUT_OF_SCOPE: int = 0

    @property
    def total(self) -> int:
        """All claims counted."""
        return (self.SUPPORTED + self.PARTIALLY_SUPPORTED + self.UNSUPPORTED
                + self.CONTRADICTED + self.OUT_OF_SCOPE)


class AnswerAnalysis(Record):
    """The judged claims of one answer and the rates derived from them."""

    case_id: str
    system: str
    claims: list[ClaimJudgement] = Field(default_factory=list)
    counts: VerdictCounts = Field(default_factory=VerdictCounts)
    hallucination_rate: float | None = Field(
        default=None, description="Null when the answer has no factual claims (never 0/0 = 0)."
    )
    fabrication_rate: float | None = None
    contradiction_rate: float | None = None
    consistency_score: float | None = Field(
        default=None, description="(SUPPORTED + 0.5 * PARTIALLY_SUPPORTED) / total claims."
    )
    hallucination_flag: bool = Field(default=False, description="Any claim contradicted.")
    answer_score: float = Field(
        default=0.0, ge=0.0, le=1.0, description="Answer-level hallucination score (max claim)."
    )
    error_message: str | None = Field(
        default=None, description="Why the answer could not be analysed (empty, nonsense)."
    )
    harness_error: str | None = Field(
        default=None, description="The judge failed on this answer after retries."
    )
    raw_output: str | None = Field(
        default=None, description="The judge's unusable raw output, kept for diagnosis."
    )
    usage: dict[str, int] = Field(default_factory=dict, description="Calls and tokens spent.")


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


class Preference(StrEnum):
    """Which of two outputs is more factual; A and B name positions, not systems."""

    A = "A"
    B = "B"
    TIE = "TIE"


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
