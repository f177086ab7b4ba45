"""Alignment signals between one claim and its retrieved evidence.

The offline judge decides from these explicit, inspectable features (coverage, numbers,
names, negation, hedging, attribution) rather than from an opaque score, so every verdict can
name the signal that decided it, and the same features are stored with the claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .quantities import Quantity, comparable, extract_quantities, quantity_matches
from .retrieval import DocumentIndex, EvidenceIndex, Hit, Passage
from .text import (
    certainty_cues,
    content_stems,
    hedge_cues,
    negated_stems,
    proper_names,
    tokenize,
)

_ATTRIBUTION = [
    re.compile(r"\baccording to (?:the )?(?P<src>[^,.;:]{2,80})", re.I),
    re.compile(
        r"\b(?:as )?(?:stated|noted|described|mentioned|outlined|explained|specified|listed)"
        r" (?:in|by) (?:the )?(?P<src>[^,.;:]{2,80})",
        re.I,
    ),
    re.compile(
        r"^(?:the )?(?P<src>[A-Z][^,.;:]{2,60}?) (?:says|states|notes|reports|explains|"
        r"specifies|indicates|confirms)\b"
    ),
]


# A claim that keeps a modal ("can take", "could cause") has not turned a hedge into a fact.
_MODALS = frozenset("can could may might should".split())


@dataclass(frozen=True)
class ClaimFeatures:
    """What a claim asserts, in the terms the alignment rules compare."""

    text: str
    stems: tuple[str, ...]
    quantities: tuple[Quantity, ...]
    names: tuple[str, ...]
    negated: frozenset[str]
    hedged: bool
    certain: bool
    attribution: str | None


def claim_features(text: str) -> ClaimFeatures:
    """Features of a claim; words naming an attributed source are not matched as content."""
    attribution, body = _attribution(text)
    tokens = tokenize(body)
    return ClaimFeatures(
        text=text,
        stems=tuple(dict.fromkeys(content_stems(tokens))),
        quantities=tuple(extract_quantities(body)),
        names=tuple(proper_names(body)),
        negated=frozenset(negated_stems(tokens)),
        hedged=bool(hedge_cues(body, tokens)) or any(t in _MODALS for t in tokens),
        certain=bool(certainty_cues(tokens)),
        attribution=attribution,
    )


def _attribution(text: str) -> tuple[str | None, str]:
    for pattern in _ATTRIBUTION:
        m = pattern.search(text)
        if m:
            src = m.group("src").strip()
            return src, text[: m.start("src")] + " " * len(src) + text[m.end("src") :]
    return None, text


@dataclass
class Alignment:
    """How a claim lines up with the evidence; every field is a signal the rules can use."""

    hits: list[Hit]
    best: Passage | None
    coverage: float  # share of claim stems in the best passage
    support_coverage: float  # best of single passage and discounted multi-passage union
    doc_coverage: float  # share of claim stems anywhere in the case's documents
    question_coverage: float  # share of claim stems in the question
    support: list[Passage] = field(default_factory=list)
    missing_stems: list[str] = field(default_factory=list)
    numbers_unmatched: list[str] = field(default_factory=list)
    number_conflict: Passage | None = None
    names_missing: list[str] = field(default_factory=list)
    negation_mismatch: bool = False
    hedge_mismatch: bool = False
    attributed_doc: str | None = None
    citation_mismatch: bool = False


def align(
    claim: ClaimFeatures,
    index: EvidenceIndex,
    question_vocab: frozenset[str],
    question_stems: frozenset[str],
    k: int,
    multi: int,
    multi_discount: float,
) -> Alignment:
    """Retrieve evidence for a claim and compute every alignment signal."""
    wanted = set(claim.stems)
    hits = index.search(claim.stems, k) if claim.stems else []
    ranked = sorted(hits, key=lambda h: (-len(wanted & h.passage.stems), -h.score))
    best = ranked[0].passage if ranked else None
    coverage = _cover(wanted, best.stems) if best else 0.0
    support, union = _greedy_cover(wanted, ranked[:multi])
    multi_cov = _cover(wanted, union) * multi_discount
    al = Alignment(
        hits=hits,
        best=best,
        coverage=coverage,
        support_coverage=max(coverage, multi_cov),
        doc_coverage=_cover(wanted, index.stems),
        question_coverage=_cover(wanted, question_stems),
        support=[best] if best and coverage >= multi_cov else support,
        missing_stems=sorted(wanted - union - (best.stems if best else frozenset())),
    )
    _numbers(claim, al, index.docs)
    known = (index.vocabulary, question_vocab)
    al.names_missing = [n for n in claim.names if not _name_known(n, known)]
    if best:
        al.negation_mismatch = _negation_mismatch(claim, best)
        al.hedge_mismatch = _hedge_mismatch(claim, best, ranked, wanted)
    _citation(claim, al, index)
    return al


def _greedy_cover(wanted: set[str], hits: list[Hit]) -> tuple[list[Passage], frozenset[str]]:
    """Passages that together cover the claim, each adding words the others lack."""
    chosen: list[Passage] = []
    covered: set[str] = set()
    for h in hits:
        new = (wanted & h.passage.stems) - covered
        if new:
            chosen.append(h.passage)
            covered |= new
    return chosen, frozenset(covered)


def _cover(wanted: set[str], have: frozenset[str]) -> float:
    return len(wanted & have) / len(wanted) if wanted else 1.0


def _numbers(claim: ClaimFeatures, al: Alignment, docs: list[DocumentIndex]) -> None:
    """Unmatched claim numbers; a comparable different number nearby is a conflict."""
    near = [p for p in al.support] + ([al.best] if al.best and al.best not in al.support else [])
    for q in claim.quantities:
        if any(quantity_matches(q, o) for p in near for o in p.quantities):
            continue
        if al.best and any(comparable(q, o) for o in al.best.quantities):
            al.number_conflict = al.best
            al.numbers_unmatched.append(claim.text[q.start : q.end])
            continue
        if not any(quantity_matches(q, o) for d in docs for o in d.quantities):
            al.numbers_unmatched.append(claim.text[q.start : q.end])


def _name_known(name: str, vocabs: tuple[frozenset[str], ...]) -> bool:
    return all(any(t in v for v in vocabs) for t in tokenize(name))


def _negation_mismatch(claim: ClaimFeatures, passage: Passage) -> bool:
    """One side denies what the other asserts, judged on the words they share."""
    claim_denies = bool(claim.negated & passage.stems)
    source_denies = bool(passage.negated & set(claim.stems))
    return claim_denies != source_denies


def _hedge_mismatch(
    claim: ClaimFeatures, best: Passage, ranked: list[Hit], wanted: set[str]
) -> bool:
    """The source only suggests ('may', 'in some cases') what the claim asserts flatly.

    Not a mismatch when another passage states the claim just as well without hedging.
    """
    if claim.hedged or not best.hedges:
        return False
    best_cov = _cover(wanted, best.stems)
    return not any(
        not h.passage.hedges and _cover(wanted, h.passage.stems) >= best_cov for h in ranked
    )


def _citation(claim: ClaimFeatures, al: Alignment, index: EvidenceIndex) -> None:
    """A claim attributed to one document (or section) whose evidence sits in another."""
    if not claim.attribution or not al.best:
        return
    src = set(content_stems(tokenize(claim.attribution)))
    if not src:
        return
    named = _named_doc(src, index.docs)
    if named is None:
        return
    doc, section = named
    al.attributed_doc = doc.doc_id
    wanted = set(claim.stems)
    own = [p for p in doc.passages if not section or p.section == section]
    own_cov = max((_cover(wanted, p.stems) for p in own), default=0.0)
    same_place = al.best.doc_id == doc.doc_id and (not section or al.best.section == section)
    al.citation_mismatch = not same_place and own_cov < al.coverage


def _named_doc(src: set[str], docs: list[DocumentIndex]) -> tuple[DocumentIndex, str | None] | None:
    """The document (and section) whose title or heading best matches an attribution."""
    best: tuple[float, DocumentIndex, str | None] | None = None
    for d in docs:
        names = [(d.title + " " + d.doc_id.replace("-", " ").replace("_", " "), None)]
        names += [(s, s) for s in dict.fromkeys(p.section for p in d.passages) if s]
        for name, section in names:
            share = _cover(src, frozenset(content_stems(tokenize(name))))
            if share >= 0.5 and (best is None or share > best[0]):
                best = (share, d, section)
    return (best[1], best[2]) if best else None
