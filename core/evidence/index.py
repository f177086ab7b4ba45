"""Evidence retrieval: which source sentences could support or contradict a claim.

Every document is split once into passages (sentences with spans; for JSON records, one
passage per key/value leaf) with their tokens, stems, quantities and cue words precomputed,
and cached by document id, because the same documents serve many cases and both systems.
Passages are ranked by BM25 (rank_bm25) blended with content-word overlap: BM25 favours
rare shared words, overlap favours passages that cover the whole claim.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import itertools
import re
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar, cast

from rank_bm25 import BM25Okapi

from ..collector import collector_paused
from ..models import Document
from ..text.negation import negated_stems
from ..text.quantities import Quantity, extract_quantities
from ..text.words import content_stems, hedge_scope, sentence_spans, tokenize
from .records import Leaf, json_leaves

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
    negated: frozenset[str]
    hedges: tuple[str, ...]
    hedged: frozenset[str]
    section: str = ""
    unknown: frozenset[str] = frozenset()  # key stems of a record field that is null
    leaf: Leaf | None = None  # the record field this passage shows (records only)

    @functools.cached_property
    def quantities(self) -> tuple[Quantity, ...]:
        """The passage's numbers, dates and times, read when a claim's values are checked
        against it: most passages of a long document never are."""
        return tuple(extract_quantities(self.text))


@dataclass
class DocumentIndex:
    """A document's passages and document-wide vocabularies, computed once."""

    doc_id: str
    title: str
    text: str
    passages: list[Passage]
    vocabulary: frozenset[str] = field(default=frozenset())
    stems: frozenset[str] = field(default=frozenset())
    title_stems: frozenset[str] = field(default=frozenset())
    title_quantities: tuple[Quantity, ...] = ()
    recency: str = ""  # latest date in the title: of two versions, the newer is in force

    @functools.cached_property
    def quantities(self) -> tuple[Quantity, ...]:
        """Every value the document states (its passages', then its title's), read only
        when a claim's value is missing from its evidence."""
        return tuple(q for p in self.passages for q in p.quantities) + self.title_quantities


class Hit(NamedTuple):
    """A ranked passage with the parts of its score (a tuple: a search makes one for each
    of its best passages, for every claim)."""

    passage: Passage
    score: float
    bm25: float
    overlap: float


def make_passage(
    doc_id: str,
    start: int,
    end: int,
    text: str,
    section: str = "",
    denied: str | None = None,
    unknown: str | None = None,
    leaf: Leaf | None = None,
) -> Passage:
    """A passage with its features; `denied` is what a record's no/false value negates,
    `unknown` what a null value leaves open."""
    tokens = tokenize(text)
    stems = frozenset(content_stems(tokens))
    cues, hedged = hedge_scope(text, tokens)
    if denied is not None:
        negated = frozenset(content_stems(tokenize(denied)))
    else:
        negated = frozenset(negated_stems(text, tokens))
    # Filled as Passage(...) fills it, at a third of the cost of a frozen dataclass's
    # __init__ (a call of object.__setattr__ per field), for every sentence of every document.
    passage = object.__new__(Passage)
    passage.__dict__.update(
        doc_id=doc_id,
        start=start,
        end=end,
        text=text,
        tokens=tuple(tokens),
        stems=stems,
        negated=negated,
        hedges=tuple(cues),
        hedged=frozenset(hedged),
        section=section,
        unknown=frozenset(content_stems(tokenize(unknown))) if unknown else frozenset(),
        leaf=leaf,
    )
    return passage


def index_document(doc: Document, closed_hours: bool = False) -> DocumentIndex:
    """Split a document into passages (JSON records by leaf, prose by sentence;
    `closed_hours`: a record's hours of "0:0-0:0" read "closed", see records.Leaf.pieces).

    The collector is paused while the passages are built: each full collection walked all
    of them, which made indexing grow with the square of the document's size (2 MB: 6.4 s;
    paused: 3.4 s).
    """
    with collector_paused():
        passages = _record_passages(doc, closed_hours)
        if passages:
            words = frozenset(tokenize(doc.text))
        else:
            passages, words = _prose_passages(doc)
    vocabulary = words | frozenset(tokenize(doc.title or ""))
    stems = frozenset().union(*(p.stems for p in passages)) if passages else frozenset()
    # Title dates and versions count: "the March 2024 leaflet" names the document.
    title_quantities = tuple(extract_quantities(doc.title or ""))
    title = (doc.title or "") + " " + re.sub(r"[-_]+", " ", doc.doc_id)
    return DocumentIndex(
        doc.doc_id,
        doc.title or "",
        doc.text,
        passages,
        vocabulary,
        stems,
        title_stems=frozenset(content_stems(tokenize(title))),
        title_quantities=title_quantities,
        recency=max((str(q.value) for q in title_quantities if q.kind == "date"), default=""),
    )


def _prose_passages(doc: Document) -> tuple[list[Passage], frozenset[str]]:
    """The sentences as passages, and every word of the text: the passages' tokens, plus
    those of headings and of the text between sentences (bullets), so the text is not
    tokenised a second time (a token never crosses a sentence's edge)."""
    passages = []
    words: set[str] = set()
    section = ""
    text = doc.text
    # Line bounds once per document: looking them up per sentence would cost the whole
    # text each time (quadratic on a long document without line breaks).
    breaks = [i for i, ch in enumerate(text) if ch == "\n"] if "\n" in text else []
    done = 0
    for start, end in sentence_spans(text):
        between = text[done:start]
        if between and not between.isspace():
            words.update(tokenize(between))
        done = end
        sentence = text[start:end]
        heading = _heading(text, start, end, breaks) if breaks else None
        if heading:
            section = heading
            words.update(tokenize(sentence))
            continue
        passage = make_passage(doc.doc_id, start, end, sentence, section)
        words.update(passage.tokens)
        passages.append(passage)
    words.update(tokenize(text[done:]))
    return passages, frozenset(words)


def _heading(text: str, start: int, end: int, breaks: list[int]) -> str | None:
    """A line of its own that reads as a heading ('## Returns', 'Section 4: Refunds');
    `breaks` are the offsets of the text's line breaks, in order."""
    at = bisect.bisect_left(breaks, start)
    line_start = breaks[at - 1] + 1 if at > 0 else 0
    after = bisect.bisect_left(breaks, end)
    line_end = breaks[after] if after < len(breaks) else len(text)
    line = text[line_start:line_end]
    if line.strip() != text[start:end].strip():
        return None
    m = _HEADING.match(line)
    if not m or (m.group("plain") and len(tokenize(line)) > 8):
        return None
    return (m.group("md") or m.group("plain") or "").strip(" :#")


def _record_passages(doc: Document, closed_hours: bool = False) -> list[Passage]:
    """One passage per leaf of a JSON record, so 'WiFi: no' can contradict 'has WiFi'."""
    leaves = json_leaves(doc.text)
    passages = []
    for leaf in leaves:
        for start, end, text in leaf.pieces(closed_hours):
            denied = leaf.key_words() if leaf.negative else None
            unknown = leaf.key_words() if leaf.unknown else None
            whole = leaf if (start, end) == (leaf.key_start, leaf.value_end) else None
            passages.append(
                make_passage(doc.doc_id, start, end, text, leaf.section, denied, unknown, whole)
            )
    return passages


_DOC_CACHE: OrderedDict[tuple[str, bool], DocumentIndex] = OrderedDict()
# Indexed documents kept per process: enough for the documents a suite shares between its
# cases, bounded so a 10,000-document run does not hold every index (5,000 took 390 MB).
_DOC_CACHE_SIZE = 2048


def cached_index(doc: Document, closed_hours: bool = False) -> DocumentIndex:
    """`index_document` memoised by doc id and reading (checked against the text, so edits
    re-index)."""
    key = (doc.doc_id, closed_hours)
    hit = _DOC_CACHE.get(key)
    if hit is not None and hit.text == doc.text and hit.title == (doc.title or ""):
        _DOC_CACHE.move_to_end(key)
        return hit
    index = index_document(doc, closed_hours)
    _DOC_CACHE[key] = index
    if len(_DOC_CACHE) > _DOC_CACHE_SIZE:
        _DOC_CACHE.popitem(last=False)
    return index


class EvidenceIndex:
    """BM25 plus overlap ranking over the passages of one case's documents.

    rank_bm25 supplies the IDF and length statistics; scores are accumulated over an
    inverted index so a query costs its postings, not a pass over every passage.
    """

    def __init__(
        self, documents: Sequence[Document], bm25_weight: float = 0.5, closed_hours: bool = False
    ):
        self.docs = [cached_index(d, closed_hours) for d in documents]
        self.passages = [p for d in self.docs for p in d.passages]
        self.bm25_weight = bm25_weight
        self.facts: dict[Callable[[EvidenceIndex], object], object] = {}  # see per_index
        self.stems: frozenset[str] = frozenset().union(*(d.stems for d in self.docs))
        self.vocabulary: frozenset[str] = frozenset().union(*(d.vocabulary for d in self.docs))
        self._postings: dict[str, list[int]] = {}
        for i, p in enumerate(self.passages):
            for term in p.stems:
                self._postings.setdefault(term, []).append(i)
        self._idf: dict[str, float] = {}
        self._norm: list[float] = []
        self._weights: dict[str, list[tuple[int, float]]] = {}
        if self.passages:
            bm25 = _StemSetBM25([sorted(p.stems) or ["\x00"] for p in self.passages])
            self._idf = {t: max(float(v), 0.0) for t, v in bm25.idf.items()}
            # Every term occurs once per sentence (stems are a set): tf = 1 in BM25's formula.
            self._norm = [
                (bm25.k1 + 1) / (1 + bm25.k1 * (1 - bm25.b + bm25.b * dl / bm25.avgdl))
                for dl in bm25.doc_len
            ]

    def search(
        self, stems: Sequence[str], k: int = 5, values: frozenset[str] = frozenset()
    ) -> list[Hit]:
        """The `k` best passages sharing a stem with the claim, best first (ties: those
        holding most of the claim's `values`, then text order)."""
        query = list(dict.fromkeys(stems))
        if not self.passages or not query:
            return []
        raw: dict[int, float] = {}
        shared: dict[int, int] = {}
        for term in query:
            for i, weight in self._weighted(term):
                if i in raw:
                    raw[i] += weight
                    shared[i] += 1
                else:
                    raw[i] = weight
                    shared[i] = 1
        if not raw:
            return []
        top = max(max(raw.values()), 1e-9)
        w = self.bm25_weight
        scored = []
        for i, r in raw.items():
            overlap = shared[i] / len(query)
            score = w * (r / top) + (1 - w) * overlap
            scored.append((-score, i, r / top, overlap))
        # The k + 1 best either way: a sort is faster for a few passages, a heap for many.
        few = len(scored) <= _SORT_BELOW
        best = sorted(scored)[: k + 1] if few else heapq.nsmallest(k + 1, scored)
        if values and any(a[0] == b[0] for a, b in zip(best, best[1:], strict=False)):
            best = self._by_values(
                scored, best[-1][0] if len(best) <= k else best[k - 1][0], values
            )
        return [Hit(self.passages[i], -neg, bm, ov) for neg, i, bm, ov in best[:k]]

    def _by_values(
        self, scored: list[_Scored], cut: float, values: frozenset[str]
    ) -> list[_Scored]:
        """The passages scoring at least the `k`-th best's (`cut`), best first, ties broken
        by the claim's values each holds: like sentences of a list (a price list, a table
        written out) hold the same words, and only their numbers, days or months tell which
        one a claim speaks of."""
        tied = [s for s in scored if s[0] <= cut]
        passages = self.passages

        def key(s: _Scored) -> tuple[float, int, int]:
            return s[0], -len(values.intersection(passages[s[1]].tokens)), s[1]

        return sorted(tied, key=key)

    def _weighted(self, term: str) -> list[tuple[int, float]]:
        """The passages holding `term` with its BM25 weight in each, worked out once per term
        (an answer's claims share most of their words)."""
        found = self._weights.get(term)
        if found is None:
            idf = self._idf.get(term, 0.0)
            found = [(i, idf * self._norm[i]) for i in self._postings.get(term, ())]
            self._weights[term] = found
        return found


#: A search that scores at most this many passages sorts them (more: a heap of the best).
_SORT_BELOW = 64

#: A passage's place in a search: minus its score, its position, its BM25 and overlap parts.
_Scored = tuple[float, int, float, float]


class _StemSetBM25(BM25Okapi):
    """rank_bm25's BM25Okapi over passages that hold each stem once (their stem sets): its
    counting pass built a frequency table per passage that the index never reads (a
    quarter of a millisecond per case). The document frequencies come in the same order,
    so its IDFs are exactly BM25Okapi's."""

    def _initialize(self, corpus: list[list[str]]) -> dict[str, int]:
        self.doc_len = [len(d) for d in corpus]
        self.corpus_size = len(corpus)
        self.avgdl = sum(self.doc_len) / self.corpus_size
        return dict(Counter(itertools.chain.from_iterable(corpus)))


_EVIDENCE_CACHE: OrderedDict[tuple[str, ...], EvidenceIndex] = OrderedDict()
_EVIDENCE_CACHE_SIZE = 1024


def evidence_index(
    documents: Sequence[Document], bm25_weight: float = 0.5, closed_hours: bool = False
) -> EvidenceIndex:
    """An `EvidenceIndex` memoised by the documents' ids (cases often share a document set)
    and the reading of their records (`closed_hours`, the business_listings pack's).

    A hit is used only if every document still indexes to the same cached object, so an
    edited document is never searched through a stale index.
    """
    key = tuple(d.doc_id for d in documents) + (str(bm25_weight), str(closed_hours))
    hit = _EVIDENCE_CACHE.get(key)
    if hit is not None and all(
        cached_index(d, closed_hours) is ix for d, ix in zip(documents, hit.docs, strict=True)
    ):
        _EVIDENCE_CACHE.move_to_end(key)
        return hit
    index = EvidenceIndex(documents, bm25_weight, closed_hours)
    _EVIDENCE_CACHE[key] = index
    if len(_EVIDENCE_CACHE) > _EVIDENCE_CACHE_SIZE:
        _EVIDENCE_CACHE.popitem(last=False)
    return index


_T = TypeVar("_T")


def per_index(fn: Callable[[EvidenceIndex], _T]) -> Callable[[EvidenceIndex], _T]:
    """Memoise a fact about a case's whole evidence (asked once per claim). The index keeps
    its facts (``facts``, by function), so they go when it does."""

    @functools.wraps(fn)
    def cached(index: EvidenceIndex) -> _T:
        facts = index.facts
        try:
            return cast(_T, facts[cached])
        except KeyError:
            value = facts[cached] = fn(index)
            return value

    return cached
