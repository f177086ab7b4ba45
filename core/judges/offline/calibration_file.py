"""The offline judge's calibration file (``data/calibration/offline_v3.json``), typed.

Every number that moves an offline verdict lives here rather than in code: the retrieval
settings, the rule thresholds (``thresholds``), the claim score's decision point and the
rules' score weights and bounds (``score``) and the learned claim model (``model``, written
by ``halgate calibrate``). The file is read and checked once, by
:func:`load_calibration_file`; a bad file is refused with its path and the field at fault.
``provenance`` records how the model was trained so anyone can retrain it; the judge never
reads it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from ...errors import UsageError
from ...models import Verdict
from .answer_model import ANSWER_FEATURES, GeneralModel, Logistic
from .claim_model import FEATURES, SIGNAL_NAMES


class CalibrationError(UsageError):
    """A calibration file is missing, not JSON, or not of the expected form."""


class _Section(BaseModel):
    """A part of the file: unknown keys are errors (a misspelt threshold must not be ignored)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Retrieval(_Section):
    """How evidence passages are found for a claim."""

    top_k: int = Field(ge=1)
    """Passages retrieved per claim (BM25/overlap blend); the rules see only these."""
    bm25_weight: float = Field(ge=0, le=1)
    """Weight of the BM25 score in the retrieval blend; the rest is plain word overlap."""
    multi_hop_passages: int = Field(ge=1)
    """How many of the best-ranked passages may together cover one claim."""


class Thresholds(_Section):
    """The cut-offs of the rules that turn alignment signals into a verdict.

    Coverage is the share of a claim's content stems found in the evidence.
    """

    support_coverage: float = Field(ge=0)
    """SUPPORTED at or above this support coverage (when no stronger rule fired)."""
    partial_coverage: float = Field(ge=0)
    """PARTIALLY_SUPPORTED at or above this coverage, UNSUPPORTED below it; also the least
    coverage for a misattribution, a record conflict or a firmed hedge to count."""
    contradiction_coverage: float = Field(ge=0)
    """Least coverage of the best passage for a negation or a rival number there to make
    the claim CONTRADICTED (below it the passage is not about the same thing)."""
    multi_hop_discount: float = Field(ge=0, le=1)
    """Factor on the coverage of several passages combined (single-passage support counts
    in full)."""
    out_of_scope_doc_coverage: float = Field(ge=0)
    """OUT_OF_SCOPE when the claim's coverage by all documents together is below this, it
    shares no word with the question and it has no number."""
    citation_margin: float = Field(ge=0)
    """Head start in the evidence ranking for passages of the document a claim names."""
    missing_name_coverage: float = Field(ge=0)
    """A name found in no source makes the claim UNSUPPORTED only while its support
    coverage is below this."""
    identifying_quantity_bonus: float = Field(ge=0)
    """Evidence ranking bonus per version or date the passage shares with the claim."""
    hedge_min_stems: int = Field(ge=1)
    """Hedged claim words the best passage must hold (at most the claim's own count) for
    a flat claim to have firmed up a hedge (OMISSION_AS_FACT)."""
    number_context_slack: float = Field(ge=0)
    """A passage other than the best one backs a claim's number only if its coverage is
    at most this much below the best passage's."""
    number_context_before: int = Field(ge=0)
    """Characters before a number read as its context (what the value is about)."""
    number_context_after: int = Field(ge=0)
    """Characters after a number read as its context."""
    derived_value_tolerance: float = Field(ge=0)
    """Relative tolerance for a number to count as the sum, difference, product or ratio
    of two other numbers of the claim (shown working, not invented)."""


class Verdicts(_Section):
    """Verdicts of rule outcomes that are a matter of policy."""

    omission_as_fact: Verdict
    """Verdict of a claim that states as fact what the source only hedges."""
    citation_error: Verdict
    """Verdict of a claim pinned on a document that does not hold its evidence."""
    hard_signals: list[str] = Field(default_factory=list)
    """Rule signals precise enough to stand on their own: a claim they make UNSUPPORTED or
    CONTRADICTED stays so even when the learned model doubts it (a rival value in the
    sentence the claim restates, a misattributed source, a record field turned around)."""

    @field_validator("hard_signals")
    @classmethod
    def _known_signals(cls, names: list[str]) -> list[str]:
        unknown = sorted(set(names) - SIGNAL_NAMES)
        if unknown:
            raise ValueError(
                f"unknown signal(s) {', '.join(unknown)}; known: {', '.join(sorted(SIGNAL_NAMES))}"
            )
        return names


class ScoreWeights(_Section):
    """Logit weights of the rule score's signals."""

    uncovered: float
    """Times the share of the claim's content stems no evidence holds."""
    number_unmatched: float
    """Times the share of the claim's numbers that no source has."""
    number_conflict: float
    """When a passage about the same thing gives another value."""
    name_missing: float
    """Times the share of the claim's names that no source has."""
    negation_mismatch: float
    """When claim and evidence disagree on a negation."""
    hedge_mismatch: float
    """When the claim states flatly what the source hedges."""
    citation_mismatch: float
    """When the claim names a document that does not hold its evidence."""
    record_conflict: float
    """When the claim turns a record field around or misstates opening hours."""


class Score(_Section):
    """The claim score (0 = surely supported, 1 = surely hallucinated): where it decides, and
    the rules' score, a logistic function of the signals kept on its verdict's side."""

    decision_score: float = Field(gt=0, lt=1)
    """A claim rescored by the learned model is hallucinated (UNSUPPORTED or CONTRADICTED)
    iff its score is at least this; each task's answer threshold is mapped onto it."""
    bias: float
    """Logit of a claim with no signal."""
    weights: ScoreWeights
    supported_max: float = Field(ge=0, le=1)
    """Highest score of a SUPPORTED claim."""
    undecided_max: float = Field(ge=0, le=1)
    """Highest score of a PARTIALLY_SUPPORTED or OUT_OF_SCOPE claim."""
    hallucinated_min: float = Field(ge=0, le=1)
    """Lowest score of an UNSUPPORTED or CONTRADICTED claim."""


class LogisticParams(_Section):
    """A standardised logistic regression, with its features named."""

    features: list[str]
    """Feature names, in the order of the arrays below (matched to this halgate's by name)."""
    mean: list[float]
    """Per-feature mean subtracted before weighting."""
    scale: list[float]
    """Per-feature scale divided by before weighting."""
    weights: list[float]
    """Per-feature logit weight."""
    bias: float
    """Logit intercept."""

    @model_validator(mode="after")
    def _lengths_match(self) -> LogisticParams:
        n = len(self.features)
        for name in ("mean", "scale", "weights"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} has {len(getattr(self, name))} values, not {n}")
        return self

    def logistic(self, expected: tuple[str, ...]) -> Logistic:
        """The regression over `expected` features (matched by name, so the file's order
        may differ); features this halgate does not know, or lacks, are an error."""
        if sorted(self.features) != sorted(expected):
            missing = sorted(set(expected) - set(self.features))
            unknown = sorted(set(self.features) - set(expected))
            raise ValueError(
                f"model features do not match this halgate's (missing {missing}, "
                f"unknown {unknown}): retrain it with halgate calibrate"
            )
        pos = [self.features.index(f) for f in expected]
        arr = {
            k: np.asarray(getattr(self, k), dtype=float)[pos] for k in ("mean", "scale", "weights")
        }
        return Logistic(arr["mean"], arr["scale"], arr["weights"], self.bias)


class GeneralModelParams(_Section):
    """The one learned model: claims, then the answer over its claims, then its threshold."""

    claim: LogisticParams
    """Hallucination probability of a claim (features: claim_model.FEATURES)."""
    answer: LogisticParams
    """Probability of the answer from its claims (features: answer_model.ANSWER_FEATURES)."""
    threshold: float = Field(gt=0, lt=1)
    """Answer probability at which the answer counts as hallucinated; rescaled onto
    ``score.decision_score``."""

    @model_validator(mode="after")
    def _features_match(self) -> GeneralModelParams:
        self.claim.logistic(FEATURES)
        self.answer.logistic(ANSWER_FEATURES)
        return self

    def general_model(self, decision_score: float) -> GeneralModel:
        """The model as the judge applies it."""
        return GeneralModel(
            self.claim.logistic(FEATURES),
            self.answer.logistic(ANSWER_FEATURES),
            self.threshold,
            decision_score,
        )


class LearnedModel(_Section):
    """The learned model that rescores the rule verdicts of every suite."""

    general: GeneralModelParams
    """The model, the same for every suite (what differs is read from the input)."""


class TrainedWith(_Section):
    """The data and seed the model was trained with (information only)."""

    rows: int
    seed: int
    part: str
    benchmarks: list[str] = Field(default_factory=list)
    weights: dict[str, float] | None = None
    """Benchmark (id prefix) -> weight of its rows, when not all 1 (``--weight``)."""
    rule_packs: list[str] = Field(default_factory=list)
    """The rule packs the rules and signals ran with when the model was fitted (none: the
    core alone, what a suite gets by default); the model sees the feature values it was
    fitted on only under these packs."""


class GroupFigures(_Section):
    """Out-of-fold figures of the trained model on one benchmark's task (information only)."""

    n_answers: int
    oof_auroc: float
    oof_balanced_accuracy: float


class Training(_Section):
    """Figures of the training (information only)."""

    l2: float
    """The claim model's L2 strength, chosen by mean out-of-fold AUROC over the groups."""
    n_answers: int
    n_claims: int
    groups: dict[str, GroupFigures]
    """Benchmark and task -> out-of-fold figures at the shipped threshold."""


class Provenance(_Section):
    """How ``model`` was trained, so it can be reproduced; never read by the judge."""

    trained_with: TrainedWith
    training: Training


class Calibration(_Section):
    """The whole calibration file."""

    version: str
    """The judge's version in every record it writes (``offline@<version>``)."""
    retrieval: Retrieval
    thresholds: Thresholds
    verdicts: Verdicts
    score: Score
    model: LearnedModel | None = None
    """Absent: every case is judged by the rules alone."""
    provenance: Provenance | None = None


def load_calibration_file(path: Path) -> Calibration:
    """Read and check a calibration file; a bad one raises CalibrationError naming the file
    and the field at fault."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read calibration file ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise CalibrationError(
            f"{path}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    try:
        return Calibration.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{path}: {'.'.join(map(str, e['loc'])) or '(root)'}: {e['msg']}" for e in exc.errors()
        ]
        raise CalibrationError(
            "invalid calibration file:\n"
            + "\n".join(problems[:10])
            + (f"\n... and {len(problems) - 10} more" if len(problems) > 10 else "")
        ) from None


def load_model(cal: Calibration) -> GeneralModel | None:
    """The learned model of a calibration (None without a "model" section: rules alone)."""
    if cal.model is None:
        return None
    return cal.model.general.general_model(cal.score.decision_score)


def calibration_json(cal: Calibration) -> str:
    """The file's text as ``halgate calibrate`` writes it."""
    return json.dumps(cal.model_dump(mode="json", exclude_none=True), indent=1) + "\n"
