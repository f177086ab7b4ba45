"""Fit the evidence of a case into the model's context budget, never cutting an answer.

When the documents fit, they are sent whole. When they do not, the passages most relevant to
the answers' sentences are chosen with ``halgate.retrieval`` (round-robin over sentences, so
every claim gets its best evidence before any claim gets its second best) and sent as
verbatim excerpts in document order. Excerpts are copied from the source, so a quote taken
from them still locates in the full document.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...evidence.index import EvidenceIndex, Passage
from ...models import Document
from ...text.words import content_stems, sentence_spans, tokenize

GAP = "\n[...]\n"
_PER_SENTENCE = 4


def estimate_tokens(text: str) -> int:
    """Rough token count (~4 characters per token) for budgets and dry-run estimates."""
    return math.ceil(len(text) / 4)


def window_documents(
    documents: Sequence[Document], answers: Sequence[str], budget_tokens: int
) -> tuple[list[Document], bool]:
    """Documents that fit ``budget_tokens``; True when they had to be cut to excerpts."""
    if sum(estimate_tokens(d.text) for d in documents) <= budget_tokens:
        return list(documents), False
    chosen = _choose_passages(documents, answers, max(budget_tokens, 0))
    excerpts = []
    for doc in documents:
        mine = sorted((p for p in chosen if p.doc_id == doc.doc_id), key=lambda p: p.start)
        if mine:
            text = GAP.join(doc.text[start:end] for start, end in _merge(mine))
            excerpts.append(Document(doc_id=doc.doc_id, title=doc.title, text=text))
    return excerpts, True


def _ranked_lists(documents: Sequence[Document], answers: Sequence[str]) -> list[list[Passage]]:
    """For every answer sentence, its best passages, best first."""
    index = EvidenceIndex(documents)
    lists = []
    for answer in answers:
        for start, end in sentence_spans(answer):
            stems = content_stems(tokenize(answer[start:end]))
            hits = index.search(stems, k=_PER_SENTENCE)
            lists.append([h.passage for h in hits if h.score > 0])
    return lists


def _choose_passages(
    documents: Sequence[Document], answers: Sequence[str], budget: int
) -> list[Passage]:
    lists = _ranked_lists(documents, answers)
    chosen: dict[tuple[str, int], Passage] = {}
    used = 0
    for rank in range(_PER_SENTENCE):
        for ranked in lists:
            if rank >= len(ranked):
                continue
            p = ranked[rank]
            cost = estimate_tokens(p.text) + 2
            if (p.doc_id, p.start) in chosen or used + cost > budget:
                continue
            chosen[(p.doc_id, p.start)] = p
            used += cost
    return list(chosen.values())


def _merge(passages: list[Passage]) -> list[tuple[int, int]]:
    """(start, end) spans of the passages, joined where they touch or overlap, so excerpts
    read as continuous text; `passages` are sorted by start."""
    spans: list[tuple[int, int]] = []
    for p in passages:
        if spans and p.start <= spans[-1][1] + 2:
            start, end = spans[-1]
            spans[-1] = (start, max(end, p.end))
        else:
            spans.append((p.start, p.end))
    return spans
