"""The unit, month and number-word patterns are prefix tries; they must match exactly what
the plain longest-first alternation they replaced matches, at every position."""

from __future__ import annotations

import re

from halgate.collector import RUN_GC_THRESHOLD, relaxed_collector
from halgate.text.lexicon import trie_pattern
from hypothesis import given, settings
from hypothesis import strategies as st

WORDS = st.lists(st.text(alphabet="abc d.", min_size=1, max_size=5), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(words=WORDS, text=st.text(alphabet="abcd. x", max_size=30))
def test_a_trie_matches_what_the_longest_first_alternation_matches(words, text):
    plain = "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
    for tail in ("", r"(?![a-z])", r"\s?x"):  # followed by more pattern, as in quantities.py
        old = re.compile(f"(?:{plain}){tail}", re.I)
        new = re.compile(f"(?:{trie_pattern(sorted(set(words)))}){tail}", re.I)
        for pos in range(len(text) + 1):
            a, b = old.match(text, pos), new.match(text, pos)
            assert (a and a.group()) == (b and b.group()), (words, text, pos, tail)


def test_the_collector_is_relaxed_during_a_run_and_restored_after():
    import gc

    before = gc.get_threshold()
    with relaxed_collector():
        assert gc.get_threshold()[0] == RUN_GC_THRESHOLD
        assert gc.get_threshold()[1:] == before[1:]
    assert gc.get_threshold() == before
    try:
        with relaxed_collector():
            raise RuntimeError("a failing run")
    except RuntimeError:
        pass
    assert gc.get_threshold() == before
