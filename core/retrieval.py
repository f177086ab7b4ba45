"""Evidence retrieval: which source sentences could support or contradict a claim.

Every document is split once into passages (sentences with spans; for JSON records, one
passage per key/value leaf) with their tokens, stems, quantities and cue words precomputed,
and cached by document id, because the same documents serve many cases and both systems.
Passages are ranked by BM25 (rank_bm25) blended with content-word overlap: BM25 favours
rare shared words, overlap favours passages that cover the whole claim.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from rank_bm25 import BM25Okapi

from .models import Document
from .quantities import Quantity, extract_quantities
from .records import json_leaves
from .text import content_stems, hedge_cues, negated_stems, sentence_spans, tokenize

_HEADING = re.compile(r"^\s*(?:#{1,6}\s*(?P<md>.+?)|(?P<plain>[A-Z0-9][^.!?:\n]{0,60}):?)\s*$")


@dataclass(frozen=True)
class Passage:
    """One retrievable unit of a document, located by its span in the document text."""

    doc_id: str
    start: int
    end: int
    text: str
    tokens: tuple[str, ...]
    stems: frozenset[str]
    quantities: tuple[Quantity, ...]
    negated: frozenset[str]
    hedges: tuple[str, ...]
    section: str = ""


@dataclass
class DocumentIndex:
    """A document's passages and document-wide vocabularies, computed once."""

    doc_id: str
    title: str
    text: str
    passages: list[Passage]
    vocabulary: frozenset[str] = field(default=frozenset())
    stems: frozenset[str] = field(default=frozenset())
    quantities: tuple[Quantity, ...] = ()


@dataclass(frozen=True)
class Hit:
    """A ranked passage with the parts of its score."""

    passage: Passage
    score: float
    bm25: float
    overlap: float


def make_passage(
    doc_id: str, start: int, end: int, text: str, section: str = "", denied: str | None = None
) -> Passage:
    """A passage with its features; `denied` is what a record's no/false value negates."""
    tokens = tokenize(text)
    stems = frozenset(content_stems(tokens))
    if denied is not None:
        negated = frozenset(content_stems(tokenize(denied)))
    else:
        negated = frozenset(negated_stems(tokens))
    return Passage(
        doc_id=doc_id,
        start=start,
        end=end,
        text=text,
        tokens=tuple(tokens),
        stems=stems,
        quantities=tuple(extract_quantities(text)),
        negated=negated,
        hedges=tuple(hedge_cues(text, tokens)),
        section=section,
    )


def index_document(doc: Document) -> DocumentIndex:
    """Split a document into passages (JSON records by leaf, prose by sentence)."""
    passages = _record_passages(doc) or _prose_passages(doc)
    vocabulary = frozenset(tokenize(doc.text)) | frozenset(tokenize(doc.title or ""))
    stems = frozenset().union(*(p.stems for p in passages)) if passages else frozenset()
    quantities = tuple(q for p in passages for q in p.quantities)
    return DocumentIndex(
        doc.doc_id, doc.title or "", doc.text, passages, vocabulary, stems, quantities
    )


def _prose_passages(doc: Document) -> list[Passage]:
    passages = []
    section = ""
    for start, end in sentence_spans(doc.text):
        sentence = doc.text[start:end]
        heading = _heading(doc.text, start, end)
        if heading:
            section = heading
            continue
        passages.append(make_passage(doc.doc_id, start, end, sentence, section))
    return passages


def _heading(text: str, start: int, end: int) -> str | None:
    """A line of its own that reads as a heading ('## Returns', 'Section 4: Refunds')."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : len(text) if line_end < 0 else line_end]
    if line.strip() != text[start:end].strip() or "\n" not in text:
        return None
    m = _HEADING.match(line)
    if not m or (m.group("plain") and len(tokenize(line)) > 8):
        return None
    return (m.group("md") or m.group("plain") or "").strip(" :#")


def _record_passages(doc: Document) -> list[Passage]:
    """One passage per leaf of a JSON record, so 'WiFi: no' can contradict 'has WiFi'."""
    leaves = json_leaves(doc.text)
    passages = []
    for leaf in leaves:
        for start, end, text in leaf.pieces():
            passages.append(make_passage(doc.doc_id, start, end, text, leaf.section, leaf.negative))
    return passages


_DOC_CACHE: OrderedDict[str, DocumentIndex] = OrderedDict()
_DOC_CACHE_SIZE = 8192


def cached_index(doc: Document) -> DocumentIndex:
    """`index_document` memoised by doc id (checked against the text, so edits re-index)."""
    hit = _DOC_CACHE.get(doc.doc_id)
    if hit is not None and hit.text == doc.text and hit.title == (doc.title or ""):
        _DOC_CACHE.move_to_end(doc.doc_id)
        return hit
    index = index_document(doc)
    _DOC_CACHE[doc.doc_id] = index
    if len(_DOC_CACHE) > _DOC_CACHE_SIZE:
        _DOC_CACHE.popitem(last=False)
    return index


class EvidenceIndex:
    """BM25 plus overlap ranking over the passages of one case's documents."""

    def __init__(self, documents: Sequence[Document], bm25_weight: float = 0.5):
        self.docs = [cached_index(d) for d in documents]
        self.passages = [p for d in self.docs for p in d.passages]
        self.bm25_weight = bm25_weight
        self.stems: frozenset[str] = frozenset().union(*(d.stems for d in self.docs))
        self.vocabulary: frozenset[str] = frozenset().union(*(d.vocabulary for d in self.docs))
        corpus = [list(p.stems) or ["\x00"] for p in self.passages]
        self._bm25 = BM25Okapi(corpus) if corpus else None

    def search(self, stems: Sequence[str], k: int = 5) -> list[Hit]:
        """The `k` best passages for a claim's content stems, best first (ties: text order)."""
        if not self.passages or not stems:
            return []
        query = list(dict.fromkeys(stems))
        raw = self._bm25.get_scores(query) if self._bm25 else [0.0] * len(self.passages)
        top = max(max(raw), 1e-9)
        wanted = set(query)
        hits = []
        for i, passage in enumerate(self.passages):
            overlap = len(wanted & passage.stems) / len(wanted)
            bm = max(float(raw[i]), 0.0) / top
            score = self.bm25_weight * bm + (1 - self.bm25_weight) * overlap
            hits.append((-score, i, Hit(passage, score, bm, overlap)))
        hits.sort(key=lambda h: (h[0], h[1]))
        return [h[2] for h in hits[:k]]
