"""The evidence index's fast paths give what the plain ones give: a passage filled in place
equals the dataclass's own, and a search sorts a short document's passages to the same
ranking a heap gives a long one."""

from __future__ import annotations

import dataclasses

import pytest
from halgate.evidence import index as evidence
from halgate.evidence.index import EvidenceIndex, Passage, make_passage
from halgate.models import Document


def test_a_passage_filled_in_place_equals_the_dataclass_one() -> None:
    text = "Children should not take the tablets, which may cause drowsiness in 2 hours."
    fast = make_passage("leaflet", 10, 10 + len(text), text, "Dosage")
    slow = Passage(**{f.name: getattr(fast, f.name) for f in dataclasses.fields(Passage)})
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert list(fast.__dict__) == [f.name for f in dataclasses.fields(Passage)]
    assert fast.negated and fast.hedges  # the features were computed, not defaulted
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.text = "other"  # type: ignore[misc]


def _price_list(n: int) -> Document:
    rows = [f"The plan allows up to {10 + i} days for customers in region {i}." for i in range(n)]
    return Document(doc_id=f"prices{n}", text=" ".join(rows))


@pytest.mark.parametrize("n", [8, 150])
def test_sorting_and_the_heap_rank_alike(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    index = EvidenceIndex([_price_list(n)])
    queries = [
        (["plan", "allow", "day", "custom", "region"], frozenset({"17", "7"})),
        (["plan", "region"], frozenset()),
        (["custom", "allow"], frozenset({"99"})),
    ]
    monkeypatch.setattr(evidence, "_SORT_BELOW", 10**9)
    sorted_hits = [index.search(stems, 5, values) for stems, values in queries]
    monkeypatch.setattr(evidence, "_SORT_BELOW", 0)
    heap_hits = [index.search(stems, 5, values) for stems, values in queries]
    assert sorted_hits == heap_hits and all(len(h) == 5 for h in sorted_hits)
