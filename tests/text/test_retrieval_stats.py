"""The evidence index's BM25 statistics: its counting pass for stem sets must give exactly
rank_bm25's BM25Okapi figures (the IDF floor depends on their order and sum); its vocabulary
must be exactly the tokens of the text."""

from __future__ import annotations

from halgate.evidence.index import _StemSetBM25, index_document
from halgate.models import Document
from halgate.text.words import tokenize
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


PROSE = st.lists(
    st.sampled_from([*"abcXYZ019 .!?\n-*•:#()'’\"İ", "e.g.", "Dr.", "1. ", "## ", "don't"]),
    max_size=60,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(text=PROSE, title=st.text(alphabet="ab 1.", max_size=8))
def test_a_documents_vocabulary_is_every_token_of_its_text_and_title(text, title):
    # Gathered from its sentences, headings and bullets, not by tokenising the text again.
    index = index_document(Document(doc_id="d", text=text, title=title))
    assert index.vocabulary == frozenset(tokenize(text)) | frozenset(tokenize(title))
