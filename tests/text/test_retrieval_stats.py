"""The evidence index's BM25 statistics: its counting pass for stem sets must give exactly
rank_bm25's BM25Okapi figures (the IDF floor depends on their order and sum)."""

from __future__ import annotations

from halgate.evidence.index import _StemSetBM25
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

STEM_SETS = st.lists(
    st.lists(st.sampled_from("abcdefghij"), unique=True, min_size=1, max_size=6).map(sorted)
    | st.just(["\x00"]),
    min_size=1,
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(STEM_SETS)
def test_stem_set_bm25_has_bm25okapis_statistics(corpus):
    plain, fast = BM25Okapi(corpus), _StemSetBM25(corpus)
    assert list(fast.idf.items()) == list(plain.idf.items())  # same values, same order
    assert (fast.avgdl, fast.doc_len, fast.corpus_size, fast.average_idf) == (
        plain.avgdl,
        plain.doc_len,
        plain.corpus_size,
        plain.average_idf,
    )
