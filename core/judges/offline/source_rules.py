"""Which evidence counts: superseded document versions and null record fields.

Two rules about the sources rather than the claim: an older dated document that a newer
version among the case's documents replaces is not evidence (unless the claim names it), and
a record field that is null leaves its subject unknown, so a claim about it fills a gap.
Split from alignment.py, which applies them.
"""

from __future__ import annotations

from ...evidence.index import DocumentIndex, EvidenceIndex, Hit, per_index
from ...evidence.records import GENERIC_KEY_STEMS


def null_fields(wanted: set[str], hits: list[Hit]) -> list[str]:
    """Record fields that are null (unknown) and that the claim speaks about, with no other
    retrieved passage stating the same words: the claim fills a gap the record left open."""
    out = []
    for h in hits:
        shared = (h.passage.unknown - GENERIC_KEY_STEMS) & wanted
        if shared and not any(shared <= o.passage.stems for o in hits if not o.passage.unknown):
            out.append(h.passage.text.split(":")[0])
    return out


def current_hits(hits: list[Hit], index: EvidenceIndex, named: DocumentIndex | None) -> list[Hit]:
    """Hits without passages of superseded versions (an older dated document with the same
    title as a newer one), unless the claim names that document itself."""
    old = superseded(index)
    if not old:
        return hits
    keep = named.doc_id if named else None
    return [h for h in hits if h.passage.doc_id not in old or h.passage.doc_id == keep]


@per_index
def superseded(index: EvidenceIndex) -> frozenset[str]:
    """Ids of the case's documents that a newer version among them replaces."""
    dated = [d for d in index.docs if d.recency]
    return frozenset(
        d.doc_id
        for d in dated
        if any(e.recency > d.recency and _similar(e.title_stems, d.title_stems) for e in dated)
    )


def _similar(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) >= 0.6
