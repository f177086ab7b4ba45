"""Alignment signals between one claim and its retrieved evidence.

The offline judge decides from these explicit, inspectable features (coverage, numbers,
names, negation, hedging, attribution) rather than from an opaque score, so every verdict can
name the signal that decided it, and the same features are stored with the claim.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...evidence.index import EvidenceIndex, Hit, Passage, per_index
from ...evidence.records import GENERIC_KEY_STEMS
from ...text.names import name_known
from ...text.negation import (
    is_question,
    negated_heads,
    negated_stems,
    negation_scope,
    prefixed_alike,
)
from ...text.quantities import Quantity, quantity_matches
from ...text.values import value_words
from ...text.words import content_stems, hedged_predicates, is_content, sentence_spans, tokenize
from .attribution import initials_written, resolve_reference, spelled_out, unnamed_sources
from .conventions import CORE_CONVENTIONS, LISTING_KEY_STEMS, Conventions
from .features import Alignment, ClaimFeatures, QuestionFeatures
from .number_checks import check_numbers
from .opening_hours import HOURS_STEMS
from .record_checks import (
    Conflict,
    case_facts,
    hours_confirmed,
    listing_facts,
    record_conflicts,
    unlisted_hours,
)
from .source_rules import (
    cover,
    current_hits,
    null_fields,
    pinned_documents,
    unknown_said,
    version_marks,
    version_named,
)

if TYPE_CHECKING:
    from .calibration_file import Retrieval, Thresholds

_EXCEPTIONS = frozenset("unless except only".split())


# Versions and dates say which document or release a passage is about; plain values are
# what is being checked, so they must not steer the choice of evidence.
_IDENTIFYING = frozenset({"version", "date"})


def align(
    claim: ClaimFeatures,
    index: EvidenceIndex,
    question: QuestionFeatures,
    retrieval: Retrieval,
    th: Thresholds,
    context: tuple[Quantity, ...] = (),
    null_field_claims: bool = True,
    conventions: Conventions = CORE_CONVENTIONS,
) -> Alignment:
    """Retrieve evidence for a claim and compute every alignment signal (`context`: the
    versions and dates named by the claims before it in its answer; `null_field_claims`:
    whether a claim about a record field that is null counts, policy ``null_field_claims``;
    `conventions`: those of the suite's rule packs)."""
    wanted = set(claim.stems)
    values = value_words(tuple(claim.tokens))
    hits = index.search(claim.stems, retrieval.top_k, values) if claim.stems else []
    named = resolve_reference(claim.reference, index.docs) if claim.reference else None
    version = None if named else version_named(version_marks(claim.quantities) or context, index)
    if version is not None:
        # The claim names a version ("under the 2022 terms"): its siblings are not evidence.
        named, siblings = version
        hits = [h for h in hits if h.passage.doc_id not in siblings] or hits
    ranked = _rank(hits, claim, index, named.doc_id if named else None, th)
    best = ranked[0].passage if ranked else None
    facts = case_facts(index)
    # Opening hours the record's week confirms: its day fields say the claim's hour words.
    said = HOURS_STEMS & wanted if hours_confirmed(claim.body, facts) else frozenset()
    coverage = cover(wanted, best.stems | said) if best else 0.0
    support, union = _greedy_cover(wanted, ranked[: retrieval.multi_hop_passages])
    multi_cov = cover(wanted, union | said) * th.multi_hop_discount
    # The retrieved evidence first; every signal below reads it and returns its own typed
    # result, and the claim's Alignment is assembled from them once, at the end.
    found = Alignment(
        hits=hits,
        best=best,
        coverage=coverage,
        support_coverage=max(coverage, multi_cov),
        doc_coverage=cover(wanted, index.stems),
        question_coverage=cover(wanted, question.stems) if wanted else 0.0,
        support=[best] if best and coverage >= multi_cov else support,
        missing_stems=sorted(wanted - union - said - (best.stems if best else frozenset())),
    )
    numbers = check_numbers(
        claim, found, index, current_hits(hits, index, named), question, th, named
    )
    known = (index.vocabulary, question.vocabulary, _id_words(index))
    generic = GENERIC_KEY_STEMS | (LISTING_KEY_STEMS if conventions.listings else frozenset())
    conflicts = record_conflicts(claim.body, claim.tokens, facts)
    listing: list[Conflict] = []
    if conventions.listings:
        conflicts, listing = _by_listing(claim, index, conflicts)
    negation, hedge = _wording(claim, found, ranked, wanted, th)
    attributed, elsewhere = pinned_documents(claim, found, index, None if version else named)
    # The signals go into the Alignment built above (no copy: nothing else holds it yet).
    found.numbers_unmatched = numbers.unmatched
    found.numbers_elsewhere = numbers.elsewhere
    found.values_invented = numbers.invented
    found.number_conflict = numbers.conflict
    found.values_misread = numbers.misread
    found.negation_mismatch = negation
    found.hedge_mismatch = hedge
    found.attributed_doc = attributed
    found.evidence_elsewhere = elsewhere
    # A name is known by its words, or by the code the sources write for it or spell out.
    found.names_missing = [
        n
        for n in claim.names
        if not name_known(n, known, written=_dotted_codes(index))  # "U.N." for "UN"
        and not initials_written(n, index.docs)
        and not spelled_out(n, index.docs)
    ]
    # A source must be named: by its words, or by a code the documents write in capitals
    # ("CDC"), not by an everyday word that happens to spell it ("go" for "Google").
    found.sources_unnamed = unnamed_sources(
        claim.text,
        claim.reference,
        lambda n: name_known(n, known, _capital_codes(index)) or spelled_out(n, index.docs),
    )
    if null_field_claims and any((h.passage.unknown - generic) & wanted for h in hits):
        found.null_fields = null_fields(wanted - unknown_said(claim.text), hits, generic, index)
    if null_field_claims and facts.hours and not conventions.listings:
        found.null_fields += unlisted_hours(claim.body, facts)
    found.record_conflicts = conflicts
    found.listing_conflicts = listing
    return found


def _wording(
    claim: ClaimFeatures, found: Alignment, ranked: list[Hit], wanted: set[str], th: Thresholds
) -> tuple[bool, bool]:
    """Whether the evidence denies what the claim asserts (negation), or only suggests it
    (hedge). Any field of a record the claim rests on may deny it ("WiFi: no" among
    others); another sentence in prose, a record's text field too (a review), only when it
    shares words with the claim and denies one the best passage does not speak to."""
    best = found.best
    if not best:
        return False, False
    negation = _negation_mismatch(claim, best) or any(
        _negation_mismatch(claim, p)
        if _field(best) and _field(p)
        else _denies_elsewhere(claim, p, best)
        for p in found.support
        if p is not best and not is_question(p.text)  # a question denies nothing
    )
    hedge = _hedge_mismatch(claim, best, ranked, wanted, th.hedge_min_stems)
    return negation, hedge


def _by_listing(
    claim: ClaimFeatures, index: EvidenceIndex, core: list[Conflict]
) -> tuple[list[Conflict], list[Conflict]]:
    """The record conflicts by the business_listings conventions (which replace the core
    ones when the pack is on), split into those the core conventions also find and those
    only the pack's find (computed only when the pack is on)."""
    seen = {c.field for c in core}
    found = record_conflicts(claim.body, claim.tokens, listing_facts(index))
    return [c for c in found if c.field in seen], [c for c in found if c.field not in seen]


def _rank(
    hits: list[Hit], claim: ClaimFeatures, index: EvidenceIndex, named: str | None, th: Thresholds
) -> list[Hit]:
    """Evidence order: coverage, plus shared versions/dates, plus a head start for a document
    the claim names; ties go to the newest document version, then to retrieval score."""
    per_shared, bonus = th.identifying_quantity_bonus, th.citation_margin
    wanted = set(claim.stems)
    recency = _newest_first(index)
    identifying = [q for q in claim.quantities if q.kind in _IDENTIFYING]

    def key(h: Hit) -> tuple[float, str, float]:
        p = h.passage
        shared = (
            sum(any(quantity_matches(q, o) for o in p.quantities) for q in identifying)
            if identifying
            else 0
        )
        cov = cover(wanted, p.stems) + per_shared * shared + (bonus if p.doc_id == named else 0.0)
        return (-cov, recency.get(p.doc_id, ""), -h.score)

    return sorted(hits, key=key)


#: Sorts newest first in an ascending sort: each digit d becomes 9 - d.
_DIGITS_REVERSED = str.maketrans("0123456789", "9876543210")


@per_index
def _newest_first(index: EvidenceIndex) -> dict[str, str]:
    """Each document's recency as a key that sorts the newest version first."""
    return {d.doc_id: d.recency.translate(_DIGITS_REVERSED) for d in index.docs}


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


@per_index
def _id_words(index: EvidenceIndex) -> frozenset[str]:
    """The words of the documents' ids: an answer may name a source by its id ("Passage 2"
    for ``passage_2``, "the FAQ" for ``faq``), which is no name the sources must hold."""
    return frozenset(t for d in index.docs for t in tokenize(d.doc_id))


#: A short code as the sources write it: two or three capitals ("CA", "NSW").
_CODE = re.compile(r"\b[A-Z]{2,3}\b")
#: Initials written with periods ("U.N.", "U.S."): a claim's "UN" is their code.
_DOTTED = re.compile(r"(?<![\w.])(?:[A-Z]\.){2,3}")


@per_index
def _capital_codes(index: EvidenceIndex) -> tuple[str, ...]:
    """The short codes the case's documents write in capitals ("CA", "NSW"), lower-cased."""
    found = {m.group().lower() for d in index.docs for m in _CODE.finditer(d.text)}
    return tuple(sorted(c for c in found if is_content(c)))


@per_index
def _dotted_codes(index: EvidenceIndex) -> frozenset[str]:
    """The initials the case's documents write with periods, as codes ("U.N." -> "un")."""
    return frozenset(
        m.group().replace(".", "").lower() for d in index.docs for m in _DOTTED.finditer(d.text)
    )


#: A record's string value of more words than this is prose (a review), not a field's value.
_FIELD_WORDS = 8


def _field(p: Passage) -> bool:
    """A record's field with a value, not prose: "Music: false", not a review's text."""
    value = p.leaf.value if p.leaf is not None else None
    return p.leaf is not None and not (isinstance(value, str) and value.count(" ") >= _FIELD_WORDS)


def _negation_mismatch(claim: ClaimFeatures, passage: Passage) -> bool:
    """One side denies what the other asserts, judged on the words they share; "not X
    unless Y" restates "X with Y", so a claim with an exception is not compared."""
    if _EXCEPTIONS & set(claim.tokens) or is_question(passage.text):
        return False
    alike = prefixed_alike(claim.tokens, passage.tokens)  # "nonfiction" on both sides
    claim_denies = bool((claim.negated - alike) & passage.stems)
    denied = (passage.negated - alike) & set(claim.stems)
    if claim_denies == bool(denied):
        return False  # both deny words the other says, or neither does
    if denied:  # a claim that denies too must speak of what the passage's denial is about
        return _denial_stands(claim, passage, denied, about=bool(claim.negated))
    # A word both put under a negation is denied by both, though one side also says it
    # plainly ("the new sit-out rule: castaways are not allowed to sit out").
    return not claim.negated & negation_scope(passage.text, list(passage.tokens))


def _about(denying: ClaimFeatures | Passage, other: ClaimFeatures | Passage) -> bool:
    """The other side says what a denial of `denying` is about (`negated_heads`): "found no
    reason to doubt his story" contradicts no claim that tells the story. A record field
    names no act: a field's denial is about its key, a claim's denial of a field's words
    ("does not offer WiFi or music" against "Music: true") about the field."""
    if isinstance(other, Passage) and _field(other):
        return True
    if isinstance(denying, Passage):
        if denying.leaf is not None and denying.leaf.negative:
            return True
        text, tokens = denying.text, list(denying.tokens)
    else:
        text, tokens = denying.body, list(denying.tokens)
    return bool(negated_heads(text, tokens) & set(other.stems))


def _claim_denies_too(claim: ClaimFeatures, passage: Passage) -> bool:
    """The claim puts under a negation a word the passage denies: both deny that act, though
    the claim also names it plainly ("castaways could not sit out consecutive challenges")."""
    return bool(passage.negated & negation_scope(claim.body, list(claim.tokens)))


def _denies_elsewhere(claim: ClaimFeatures, passage: Passage, best: Passage) -> bool:
    """A further passage of the evidence (two or more words shared with the claim) denies a
    word the claim asserts and the best passage does not hold."""
    if _EXCEPTIONS & set(claim.tokens) or len(set(claim.stems) & passage.stems) < 2:
        return False
    denied = passage.negated & (set(claim.stems) - claim.negated - best.stems)
    return bool(denied) and _denial_stands(claim, passage, denied, about=True)


def _denial_stands(
    claim: ClaimFeatures, passage: Passage, denied: frozenset[str], about: bool
) -> bool:
    """The passage's denial of `denied`, words the claim asserts, holds against the claim:
    the claim does not deny the same act, the denial is about what the claim says (asked
    when `about`), and one sentence of the passage denies them beside the claim's words."""
    return (
        not _claim_denies_too(claim, passage)
        and (not about or _about(passage, claim))
        and _denied_beside(claim, passage, denied)
    )


def _denied_beside(claim: ClaimFeatures, passage: Passage, denied: frozenset[str]) -> bool:
    """A sentence of the passage that denies one of `denied` shares two words with the
    claim: in a review of many sentences, "the lack of service and attention" denies
    nothing of "a sports bar that offers barbeque and restaurant services"."""
    sentences = _sentences(passage)
    if not sentences:
        return True  # the passage is the sentence (and a record field's denial is its value's)
    wanted = set(claim.stems)
    for sentence in sentences:
        tokens = tokenize(sentence)
        if (
            negated_stems(sentence, tokens) & denied
            and len(wanted.intersection(content_stems(tokens))) >= 2
        ):
            return True
    return False


def _hedge_mismatch(
    claim: ClaimFeatures, best: Passage, ranked: list[Hit], wanted: set[str], min_stems: int
) -> bool:
    """The source only suggests ('may', 'in some patients') what the claim asserts flatly:
    it hedges at least `min_stems` of the claim's words (all of a shorter claim's).

    Not a mismatch when another passage states the claim just as well without hedging.
    """
    need = min(min_stems, len(wanted))
    if claim.hedged or len(best.hedged & wanted) < need or not _hedged_together(best, wanted, need):
        return False
    best_cov = cover(wanted, best.stems)
    return not any(
        len(h.passage.hedged & wanted) < need and cover(wanted, h.passage.stems) >= best_cov
        for h in ranked
    )


def _hedged_together(passage: Passage, wanted: set[str], need: int) -> bool:
    """One clause of the passage hedges `need` of the claim's words, one of them after the
    cue: in a review of many sentences, 'around 2pm' and 'possible' hedge nothing of the bar
    the claim describes, and "the presence of a pesticide may have caused the illnesses"
    leaves the pesticide's presence a fact."""
    return any(
        len(scoped & wanted) >= need and not predicate.isdisjoint(wanted)
        for sentence in _sentences(passage) or [passage.text]
        for scoped, predicate in hedged_predicates(sentence)
    )


def _sentences(passage: Passage) -> list[str]:
    """The sentences of a passage of several (a review kept whole as a record field), else none."""
    spans = sentence_spans(passage.text)
    return [passage.text[a:b] for a, b in spans] if len(spans) > 1 else []
