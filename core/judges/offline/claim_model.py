"""The offline judge's learned claim features: one model for every suite (numpy only).

The rules of ``judges/offline/judge.py`` name one deciding signal per claim, but on real answers no
single signal separates hallucinated from faithful claims well; a logistic regression over
all of them (and over the answer they sit in) ranks claims far better. Its weights are data
(``data/calibration/offline_v3.json``, written by ``halgate calibrate``).

There is one model, whatever the suite is called: what differs between inputs (a question or
none, prose or structured records, short or long answers and sources) is read from the input
itself (:class:`InputShape`) and enters as features and their interactions, never as a tag.

Feature definitions live here only: training (evaluation/calibrate.py) and inference call the
same ``claim_matrix``, so the two cannot drift apart. The caps and windows inside them (at
most 3 unmatched numbers, the first 400 characters for a refusal) are part of what a feature
means, so they stay with its definition; the numbers that decide are calibration data.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypedDict, cast

import numpy as np

from ...evidence.index import EvidenceIndex, per_index
from ...models import ClaimJudgement, Verdict
from ...text.gates import CaselessTest
from ...text.words import is_content, tokenize


class ClaimSignals(TypedDict, total=False):
    """The signals the offline judge stores with a claim (``ClaimJudgement.signals``),
    typed: the learned model reads them by these names, and mypy checks every read."""

    coverage: float
    n_stems: int
    question_coverage: float
    support_coverage: float
    doc_coverage: float
    retrieval_score: float
    missing_words: list[str]
    numbers_unmatched: list[str]
    numbers_elsewhere: list[str]
    values_invented: list[str]
    number_conflict: bool
    names_missing: list[str]
    sources_unnamed: list[str]  # sources the claim pins its content on that no document names
    negation_mismatch: bool
    hedge_mismatch: bool
    claim_hedged: bool
    attributed_doc: str | None
    citation_mismatch: bool
    evidence_doc: str | None
    null_fields: list[str]
    record_conflicts: list[str]
    listing_conflicts: list[str]  # by the business_listings pack only (empty when it is off)
    informative_uncovered: float
    informative_missing: int
    polarity_flip: bool  # the claim turns round the polarity of the sentence it restates
    restriction_dropped: bool  # the claim leaves out the restriction of that sentence
    name_swapped: bool  # the claim names someone else in that sentence's slot
    actor_swapped: bool  # another party acts in the claim than in that sentence
    bound_reversed: bool  # the claim turns round a bound of that sentence
    strength_changed: bool  # 'must' for 'may', 'all' for 'some' in that sentence's place
    number_swapped: bool  # another number in the place of one of that sentence's
    addition_invented: bool  # a copied sentence with words joined that no evidence holds


#: Every signal name: what the calibration's ``verdicts.hard_signals`` may list.
SIGNAL_NAMES: frozenset[str] = frozenset(ClaimSignals.__annotations__)


class ClaimFeatureRow(NamedTuple):
    """One claim's own features for the learned model, typed and named: the field names
    are the model's base feature names, so the calibration file's feature list is checked
    against them by name when it loads (a missing or unknown feature is an error naming it),
    and a row can never be read in another order than its names say."""

    uncovered: float  # 1 - support coverage of the best evidence
    uncovered_best: float  # 1 - coverage of the single best passage
    uncovered_informative: float  # like uncovered, framing words ("reviewers say") aside
    log_missing_informative: float  # how many such content stems no evidence holds
    novel_stems: float  # share of claim stems found nowhere in the documents
    question_overlap: float  # share of claim stems in the question
    retrieval: float  # blended BM25/overlap score of the best passage
    log_stems: float  # claim length in content stems
    numbers_unmatched: float
    numbers_elsewhere: float  # of those, how many occur in the documents away from the evidence
    number_conflict: float
    names_missing: float
    negation_mismatch: float
    hedge_mismatch: float
    claim_hedged: float
    citation_mismatch: float
    null_field: float  # the claim is about a record field that is null (unknown)
    record_conflict: float  # the claim turns a record flag around or misstates opening hours
    rule_unsupported: float
    rule_contradicted: float
    rule_partial: float
    rule_out_of_scope: float
    position: float  # where in the answer the claim sits (0 first .. 1 last)
    answer_novelty: float  # share of the answer's content words absent from the documents
    answer_log_claims: float
    answer_max_uncovered: float
    answer_mean_uncovered: float
    answer_refusal: float  # the answer declines ("unable to answer")


BASE_FEATURES: tuple[str, ...] = ClaimFeatureRow._fields

#: What the input itself says about its kind (see InputShape).
SHAPE_FEATURES: tuple[str, ...] = (
    "has_question",
    "structured_source",
    "log_answer_words",
    "log_source_words",
)

#: The kinds of input whose habits differ most: each base feature may weigh differently there.
_INTERACTING = ("has_question", "structured_source")

FEATURES: tuple[str, ...] = (
    *BASE_FEATURES,
    *SHAPE_FEATURES,
    *(f"{f}*{kind}" for kind in _INTERACTING for f in BASE_FEATURES),
)


@dataclass(frozen=True)
class InputShape:
    """What differs between inputs, read from the input, never from a name a user types:
    whether there is a question, whether the sources are structured records, and how long
    the answer and the sources are."""

    question: bool
    structured: bool
    answer_words: int
    source_words: int

    def vector(self) -> list[float]:
        """The shape's features, in the order of SHAPE_FEATURES."""
        return [
            float(self.question),
            float(self.structured),
            math.log1p(self.answer_words),
            math.log1p(self.source_words),
        ]


def input_shape(question: str, answer: str, index: EvidenceIndex) -> InputShape:
    """The shape of one answer's input (records are the documents the index split by field)."""
    return InputShape(
        question=bool(question.strip()),
        structured=any(p.leaf is not None for d in index.docs for p in d.passages[:1]),
        answer_words=len(answer.split()),
        source_words=_source_words(index),
    )


@per_index
def _source_words(index: EvidenceIndex) -> int:
    """Words in the case's documents, counted once per evidence index and not once per
    answer: splitting a 5 MB document took 50 ms, for each system's answer."""
    return sum(len(d.text.split()) for d in index.docs)


@dataclass(frozen=True)
class AnswerContext:
    """Answer-wide facts every claim's score may depend on."""

    novelty: float
    n_claims: int
    max_uncovered: float
    mean_uncovered: float
    refusal: bool


def answer_context(
    claims: Sequence[ClaimJudgement], novelty: float, refusal: bool
) -> AnswerContext:
    """The context of one answer from its rule-judged claims."""
    unc = [1 - float(cast(ClaimSignals, c.signals).get("support_coverage", 1.0)) for c in claims]
    return AnswerContext(
        novelty=novelty,
        n_claims=len(claims),
        max_uncovered=max(unc, default=0.0),
        mean_uncovered=sum(unc) / len(unc) if unc else 0.0,
        refusal=refusal,
    )


def base_vector(c: ClaimJudgement, ctx: AnswerContext) -> ClaimFeatureRow:
    """One claim's own features, read from its typed signals (signals.ClaimSignals)."""
    s = cast(ClaimSignals, c.signals)
    return ClaimFeatureRow(
        uncovered=1 - float(s.get("support_coverage", 1.0)),
        uncovered_best=1 - float(s.get("coverage", 1.0)),
        uncovered_informative=float(s.get("informative_uncovered", 0.0)),
        log_missing_informative=math.log1p(int(s.get("informative_missing", 0))),
        novel_stems=1 - float(s.get("doc_coverage", 1.0)),
        question_overlap=float(s.get("question_coverage", 0.0)),
        retrieval=float(s.get("retrieval_score", 0.0)),
        log_stems=math.log1p(int(s.get("n_stems", 0))),
        numbers_unmatched=min(len(s.get("numbers_unmatched", [])), 3),
        numbers_elsewhere=min(len(s.get("numbers_elsewhere", [])), 3),
        number_conflict=float(bool(s.get("number_conflict"))),
        names_missing=min(len(s.get("names_missing", [])), 3),
        negation_mismatch=float(bool(s.get("negation_mismatch"))),
        hedge_mismatch=float(bool(s.get("hedge_mismatch"))),
        claim_hedged=float(bool(s.get("claim_hedged"))),
        citation_mismatch=float(bool(s.get("citation_mismatch"))),
        null_field=float(bool(s.get("null_fields"))),
        record_conflict=min(
            len(s.get("record_conflicts", [])) + len(s.get("listing_conflicts", [])), 3
        ),
        rule_unsupported=float(c.verdict == Verdict.UNSUPPORTED),
        rule_contradicted=float(c.verdict == Verdict.CONTRADICTED),
        rule_partial=float(c.verdict == Verdict.PARTIALLY_SUPPORTED),
        rule_out_of_scope=float(c.verdict == Verdict.OUT_OF_SCOPE),
        position=c.index / max(ctx.n_claims - 1, 1),
        answer_novelty=ctx.novelty,
        answer_log_claims=math.log1p(ctx.n_claims),
        answer_max_uncovered=ctx.max_uncovered,
        answer_mean_uncovered=ctx.mean_uncovered,
        answer_refusal=float(ctx.refusal),
    )


def claim_matrix(
    claims: Sequence[ClaimJudgement], ctx: AnswerContext, shape: InputShape
) -> np.ndarray:
    """The feature matrix of an answer's claims (one row per claim, columns as FEATURES)."""
    n, width = len(claims), len(BASE_FEATURES)
    out = np.empty((n, len(FEATURES)))  # filled in place: this runs for every answer
    base = out[:, :width]
    if n:
        base[:] = [base_vector(c, ctx) for c in claims]
    sv = shape.vector()
    end = width + len(sv)
    out[:, width:end] = sv
    for k in _INTERACTING:
        np.multiply(base, sv[SHAPE_FEATURES.index(k)], out=out[:, end : end + width])
        end += width
    return out


_REFUSAL = CaselessTest(
    r"\bunable to (?:answer|determine|provide)\b|\bcannot be (?:answered|determined)\b"
    r"|\b(?:do|does) not (?:provide|contain|include|mention|specify) (?:any |enough |specific )?"
    r"(?:information|details?|answer)\b"
)


def is_refusal(answer: str) -> bool:
    """The answer declines to answer from the passages (RAGTruth's instructed abstention)."""
    return _REFUSAL(answer[:400])


def answer_novelty(answer: str, vocabulary: frozenset[str]) -> float:
    """Share of the answer's content words absent from the documents' vocabulary."""
    words = [t for t in tokenize(answer) if is_content(t)]
    return 0.0 if not words else sum(w not in vocabulary for w in words) / len(words)
