"""Claims of known truth generated from a suite's own documents.

Each source sentence is drawn (seeded) from a document a case cites, and every transform is
tried on it; the claim is judged as an answer to that case, against the case's documents, so
retrieval meets the same competing passages a real answer meets.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from ..evidence.index import evidence_index
from ..judges.offline.source_rules import superseded
from ..models import Case, Document
from ..text.claims import extract_claims
from ..text.words import normalize, proper_names, sentence_spans
from .transform import Source, Transform

_MIN_WORDS, _MAX_WORDS = 5, 60
_WORD = re.compile(r"[A-Za-z]+")
#: How a sentence that states something ends: a full stop or an exclamation mark, maybe
#: inside quotes or brackets ('"Never again."'); a heading ('### The Beatles in New
#: Zealand'), a title or a question does not.
_ENDS = re.compile(r"[.!][\"'”’)\]]*$")


@dataclass(frozen=True)
class Target:
    """A case and its documents: where generated claims are judged."""

    case: Case
    documents: list[Document]

    @cached_property
    def replaced(self) -> frozenset[str]:
        """The documents a newer version among the case's documents replaces (the judge's
        reading of versions). A sentence of one is no longer in force in this case, so a
        claim restating it has no known truth there: it is not drawn for this case."""
        return superseded(evidence_index(self.documents))


@dataclass(frozen=True)
class GeneratedClaim:
    """One generated claim with its known truth and where it came from."""

    transform: Transform
    target: Target
    doc_id: str
    source: str
    text: str

    @property
    def expected(self) -> str:
        """SUPPORTED for a truth-preserving transform, else NOT_SUPPORTED."""
        return "SUPPORTED" if self.transform.preserves_truth else "NOT_SUPPORTED"


def source_sentences(text: str) -> list[str]:
    """The document's prose sentences a claim can restate (records, headings, questions and
    fragments left out)."""
    if text.lstrip()[:1] in "{[":
        return []
    out = []
    for start, end in sentence_spans(text):
        sentence = text[start:end].strip()
        words = _WORD.findall(sentence)
        if not _MIN_WORDS <= len(words) <= _MAX_WORDS or not _ENDS.search(sentence):
            continue  # a fragment, a question, or a heading or title (no full stop)
        if sentence.startswith("#"):
            continue  # a Markdown heading
        if sum(map(len, words)) < 0.6 * len(sentence.replace(" ", "")):
            continue  # mostly digits or symbols: a table row
        if not extract_claims(sentence, "selftest", "selftest"):
            continue  # advice or a first-person remark: no fact a verdict could be about
        out.append(sentence)
    return out


def _rng(seed: int, *parts: str) -> random.Random:
    """A generator fixed by the seed and the parts, whatever else is drawn before it."""
    digest = hashlib.sha256("\x1f".join((str(seed), *parts)).encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def generate_claims(
    targets: Sequence[tuple[Document, Sequence[Target]]],
    transforms: Sequence[Transform],
    seed: int = 0,
    per_document: int = 6,
) -> list[GeneratedClaim]:
    """For each document (with the targets that cite it and hold no newer version of it),
    up to ``per_document`` sentences drawn with ``seed``, each tried with every transform;
    sentence i is judged under target i mod n, so the documents' cases (and their risk
    levels) are all met."""
    claims = []
    for doc, cited_by in targets:
        doc_targets = [t for t in cited_by if doc.doc_id not in t.replaced]
        if not doc_targets:
            continue
        sentences = source_sentences(doc.text)
        picked = sorted(
            _rng(seed, doc.doc_id).sample(range(len(sentences)), min(per_document, len(sentences)))
        )
        names = tuple(dict.fromkeys(proper_names(doc.text)))
        for i, k in enumerate(picked):
            target = doc_targets[i % len(doc_targets)]
            claims.extend(_claims_of(sentences[k], doc, target, names, transforms, seed))
    return claims


def _stated(target: Target) -> frozenset[str]:
    """The target's source sentences, normalised (a changed claim must not be one)."""
    return frozenset(
        normalize(d.text[a:b]) for d in target.documents for a, b in sentence_spans(d.text)
    )


def _claims_of(
    sentence: str,
    doc: Document,
    target: Target,
    names: tuple[str, ...],
    transforms: Sequence[Transform],
    seed: int,
) -> list[GeneratedClaim]:
    out = []
    stated = _stated(target)
    for t in transforms:
        src = Source(sentence, doc.text, names, _rng(seed, doc.doc_id, sentence, t.name))
        text = t.apply(src)
        if text is None:
            continue
        if not t.preserves_truth and normalize(text) in stated:
            continue  # the 'changed' claim is a sentence of the sources: not a change
        out.append(GeneratedClaim(t, target, doc.doc_id, sentence, text))
    return out
