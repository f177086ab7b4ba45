"""The audit sample's records: reviewers' answer labels and the review-corrected rates.

Reviewers label a seeded random sample of answers as a whole (``AuditLabel``); the
prediction-powered estimate (Angelopoulos et al., Science 2023) then corrects the judge's
answer-level rate by the mean disagreement on that sample (DESIGN.md §3, ``scoring.corrected``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from .record import Record


class AuditLabel(StrEnum):
    """A reviewer's word on a whole answer of the audit sample."""

    HALLUCINATED = "HALLUCINATED"
    FAITHFUL = "FAITHFUL"


class AuditInput(Record):
    """What the correction needs from the review side: the sample and its labels.

    Every mapping is keyed by system, then case id; ``sample`` lists, per system, the cases
    whose answer was drawn into the audit sample (answers the answer-level rate counts), in
    draw order.
    """

    sample: dict[str, list[str]] = Field(description="System -> case ids drawn, in draw order.")
    labels: dict[str, dict[str, bool]] = Field(
        default_factory=dict, description="System -> case -> the reviewer says hallucinated."
    )
    judged: dict[str, dict[str, bool]] = Field(
        default_factory=dict,
        description="System -> case -> the judge (before any override) says hallucinated; "
        "for the judge's precision and recall on the audit.",
    )
    order: list[str] = Field(
        default_factory=list,
        description="Every drawn case in draw order (the sample in force): a change's pairing "
        "cuts the cases either system rates at its looks by it.",
    )
    ahead: list[int] = Field(
        default_factory=list,
        description="Audit answers still to label on each case of the draw order after "
        "``order``, in draw order (labelling on continues the sample there): what the "
        "pairing's 'label N more' counts. Empty: one answer a case.",
    )
    ahead_cases: list[str] = Field(
        default_factory=list,
        description="The cases of ``ahead``, in the same order: which systems' looks they "
        "count toward (a system's rate counts only the cases it rates).",
    )


class CorrectedRate(Record):
    """One system's answers-with-a-hallucination rate corrected by the audit sample (PPI).

    estimate = judge rate over all N rated answers + mean(reviewer − judge) over the n
    labelled ones; the 95% interval is the normal interval of that estimator. "Judge" labels
    are the effective ones (claim overrides in force), the figure the gate uses otherwise.
    """

    system: str
    judge_rate: float | None = Field(description="Answers with a hallucination, as judged.")
    n_answers: int = Field(description="N: the rated answers the rate is over.")
    n_sample: int = Field(description="Answers of this system in the audit sample.")
    n_labelled: int = Field(description="Of those, answers with a label in force.")
    n_by_rule: int = Field(
        default=0,
        description="Of the labelled, answers to should-abstain cases: counted hallucinated "
        "by rule whatever a reviewer says, so labelled without one.",
    )
    complete: bool = Field(description="Every answer of the sample is labelled.")
    first_look: int = Field(
        default=0,
        description="The first look of the sequential audit, in this system's answers: those "
        "among the policy's first k drawn cases; the interval in force changes only at it, "
        "twice it, four times it, ... labels (docs/gate.md).",
    )
    eligible: int = Field(
        default=0,
        description="The last look: every answer of this system the audit can draw (n_answers; "
        "a case it skips holds none).",
    )
    beyond_look: int = Field(
        default=0,
        description="Labelled answers past the last look reached, counted at the next one.",
    )
    answers_to_looks: list[int] = Field(
        default_factory=list,
        description="Audit answers still to label, every system's, in draw order, to reach "
        "each look of this system's schedule (0 once reached): what its 'label N more' counts.",
    )
    std_error_at_looks: list[float] = Field(
        default_factory=list,
        description="The standard error the same shares of labels would give at each look: "
        "what 'label N more' projects from (the cases' own sampling and the pseudo-labels do "
        "not shrink like 1/sqrt(n)).",
    )
    rectifier: float | None = Field(
        default=None, description="mean(reviewer − judge) over the labelled answers."
    )
    estimate: float | None = Field(default=None, description="The corrected rate.")
    std_error: float | None = Field(default=None, description="Standard error (n >= 2).")
    ci_low: float | None = None
    ci_high: float | None = None
    confidence: float = 0.95
    method: Literal["ppi"] = "ppi"
    unlabelled: list[str] = Field(
        default_factory=list,
        description="Review ids (audit:CASE:SYSTEM) of sampled answers still without a label.",
    )
    judge_precision: float | None = Field(
        default=None,
        description="Of the labelled answers the judge flagged, the share reviewers flagged "
        "(the judge's own labels, before overrides).",
    )
    judge_recall: float | None = Field(
        default=None,
        description="Of the labelled answers reviewers flagged, the share the judge flagged.",
    )


class CorrectedChange(Record):
    """Candidate − baseline of the corrected rates (positive = worse), with its interval.

    Paired over the cases either system's rate counts, a case one side does not rate
    counting a known 0 there (the pairing cancels case difficulty, ``scoring.corrected``);
    independent (variances add) only when fewer than two cases are labelled on every side.
    """

    baseline: str
    candidate: str
    judge_change: float | None = Field(description="Change of the judge's rates.")
    estimate: float | None = None
    std_error: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    confidence: float = 0.95
    paired: bool = Field(description="Paired over cases (else independent samples).")
    n_cases: int = Field(
        description="Cases either rate counts, the pairing's (paired), or 0 (independent)."
    )
    n_one_sided: int = Field(
        default=0,
        description="Of n_cases, cases only one system's rate counts (the other abstained, "
        "had no countable claim or a harness error): paired with a known 0 on that side.",
    )
    n_labelled: int = Field(
        default=0,
        description="Cases of the pairing in the audit sample in force with a label on every "
        "side that rates them (paired), or 0.",
    )
    first_look: int = Field(
        default=0, description="The pairing's first look, in cases of n_cases (paired), or 0."
    )
    eligible: int = Field(default=0, description="The pairing's last look (paired), or 0.")
    beyond_look: int = Field(
        default=0,
        description="Labelled cases of the pairing past its last look reached (paired), or 0.",
    )
    answers_to_looks: list[int] = Field(
        default_factory=list,
        description="Audit answers still to label to reach each look of the pairing's "
        "schedule (k, 2k, 4k, ..., eligible; 0 once reached): what its 'label N more' "
        "counts (paired), or empty.",
    )
    std_error_at_looks: list[float] = Field(
        default_factory=list,
        description="As CorrectedRate.std_error_at_looks, at the pairing's looks (paired), or "
        "empty.",
    )
    complete: bool = Field(description="Both systems' audit samples are completely labelled.")


class CorrectedTypeRate(Record):
    """A claim-type rate (fabrications or contradictions per claim, pooled) corrected by the
    same audit sample as the answer rate (``scoring.corrected_types``).

    The audit labels whole answers: FAITHFUL removes the judge's claims of the type from the
    answer, HALLUCINATED keeps the types in force (claim overrides fix a type), and an answer
    the judge missed has a type nobody recorded: the interval spans none to one claim of the
    type there (``n_unknown``), so it covers the truth whatever that type is.
    """

    system: str
    kind: Literal["fabrication", "contradiction"]
    judge_rate: float | None = Field(description="The judge's rate (effective verdicts).")
    n_claims: int = Field(description="Claims of the rated answers: the rate's denominator.")
    n_labelled: int = Field(description="Labelled answers of the audit sample in force.")
    n_unknown: int = Field(
        default=0,
        description="Labelled answers a reviewer flagged where the judge found no hallucinated "
        "claim: their type is unknown, counted 0 at the interval's low end and 1 at its high.",
    )
    estimate: float | None = Field(
        default=None, description="Midpoint of the corrected rates with those counted 0 and 1."
    )
    ci_low: float | None = None
    ci_high: float | None = None
    confidence: float = 0.95
    first_look: int = Field(default=0, description="As CorrectedRate.first_look.")
    eligible: int = Field(default=0, description="As CorrectedRate.eligible.")
    beyond_look: int = Field(default=0, description="As CorrectedRate.beyond_look.")
    complete: bool = Field(default=False, description="Every sampled answer is labelled.")
