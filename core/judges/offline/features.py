"""What the alignment rules compare: a claim's and a question's features, and the Alignment
of a claim with its evidence (shared by alignment and number checks).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...evidence.index import Hit, Passage
from ...text.negation import negated_stems
from ...text.quantities import Quantity, extract_quantities
from ...text.words import (
    content_stems,
    entities_decoded,
    hedge_cues,
    proper_names,
    tokenize,
)
from .attribution import SourceReference, find_reference
from .record_checks import Conflict

# A claim that keeps a modal ("can take", "must give", "is allowed") keeps the source's
# modality: it has not turned a possibility into a flat fact.
_MODALS = frozenset("can could may might must allowed allow allows permitted".split())


@dataclass(frozen=True)
class ClaimFeatures:
    """What a claim asserts, in the terms the alignment rules compare."""

    text: str
    body: str  # the text with any named source blanked out
    tokens: tuple[str, ...]
    #: The tokens of the whole text, the named source included ('According to WPIX ...'):
    #: what a slot finder aligns with a passage, which keeps its source's words.
    words: tuple[str, ...]
    stems: tuple[str, ...]
    quantities: tuple[Quantity, ...]
    names: tuple[str, ...]
    negated: frozenset[str]
    hedged: bool
    reference: SourceReference | None

    def word_for(self, stem: str) -> str:
        """The claim's own word for one of its content stems ('free' for 'fr'): a rationale
        names what the claim says, not the stemmer's form of it."""
        return next((t for t in self.tokens if content_stems([t]) == [stem]), stem)


def claim_features(text: str) -> ClaimFeatures:
    """Features of a claim; words naming an attributed source are not matched as content."""
    ref = find_reference(text)
    decoded = body = entities_decoded(text)
    if ref is not None:  # blank the source's name out, keeping offsets
        body = body[: ref.start] + " " * (ref.end - ref.start) + body[ref.end :]
    tokens = tokenize(body)
    return ClaimFeatures(
        text=text,
        body=body,
        tokens=tuple(tokens),
        words=tuple(tokens) if ref is None else tuple(tokenize(decoded)),
        stems=tuple(dict.fromkeys(content_stems(tokens))),
        quantities=tuple(extract_quantities(body)),
        names=tuple(proper_names(body)),
        negated=frozenset(negated_stems(body, tokens)),
        hedged=bool(hedge_cues(tokens)) or _keeps_modality(tokens),
        reference=ref,
    )


def _keeps_modality(tokens: list[str]) -> bool:
    pairs = zip(tokens, tokens[1:], strict=False)
    return any(t in _MODALS for t in tokens) or ("up", "to") in pairs


@dataclass(frozen=True)
class QuestionFeatures:
    """The question's words and numbers: an answer may repeat them without a source."""

    vocabulary: frozenset[str]
    stems: frozenset[str]
    quantities: tuple[Quantity, ...]


def question_features(text: str) -> QuestionFeatures:
    """Features of a case's question."""
    tokens = tokenize(text)
    return QuestionFeatures(
        frozenset(tokens), frozenset(content_stems(tokens)), tuple(extract_quantities(text))
    )


@dataclass
class Alignment:
    """How a claim lines up with the evidence; every field is a signal the rules can use.

    Built once per claim (alignment.align): the retrieved evidence first, then each signal
    computed on its own from it (numbers: number_checks.NumberFindings; wording, attribution,
    names, null fields, record conflicts) and the record assembled from those results, so no
    signal writes into a record another one reads."""

    hits: list[Hit]
    best: Passage | None
    coverage: float  # share of claim stems in the best passage
    support_coverage: float  # best of single passage and discounted multi-passage union
    doc_coverage: float  # share of claim stems anywhere in the case's documents
    question_coverage: float  # share of claim stems in the question
    support: list[Passage] = field(default_factory=list)
    missing_stems: list[str] = field(default_factory=list)
    numbers_unmatched: list[str] = field(default_factory=list)
    #: Unmatched numbers that do occur in the documents, away from the claim's evidence.
    numbers_elsewhere: list[str] = field(default_factory=list)
    #: Dates, clock times and phone numbers of the claim that no source holds: invented.
    values_invented: list[str] = field(default_factory=list)
    number_conflict: Passage | None = None
    #: How the evidence puts a value the claim states as something else: "says 'over 12
    #: years' where the claim says 'under 12'", "gives '10 seconds' as the former value, now
    #: '30 seconds'".
    values_misread: list[str] = field(default_factory=list)
    names_missing: list[str] = field(default_factory=list)
    #: Sources the claim pins its content on ("4.0 stars on Google") that no document names.
    sources_unnamed: list[str] = field(default_factory=list)
    negation_mismatch: bool = False
    hedge_mismatch: bool = False
    attributed_doc: str | None = None
    #: The document that holds the evidence or values of a claim pinned on another one.
    evidence_elsewhere: str | None = None
    null_fields: list[str] = field(default_factory=list)
    record_conflicts: list[Conflict] = field(default_factory=list)
    #: Record fields the claim contradicts by the business_listings pack's conventions only
    #: (empty when the pack is off: not computed).
    listing_conflicts: list[Conflict] = field(default_factory=list)

    @property
    def citation_mismatch(self) -> bool:
        """The claim names one document, and its evidence is in another."""
        return self.evidence_elsewhere is not None
