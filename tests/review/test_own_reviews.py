"""What "my reviews" are (``halgate.review.own_reviews``) and how the store lists them:
a reviewer's overrides in every run, newest first by the store's sequence, each saying what
it did and whether a later review of the same item replaced it."""

from __future__ import annotations

import pytest
from halgate.models import Override
from halgate.review import override_change, own_reviews, review_kind
from halgate.store import Store

from ..conftest import build_report, disagreeing_pair

A, B = "20260101T000000Z-aaaaaa", "20260102T000000Z-bbbbbb"


def _o(id: int, reviewer: str, claim: str = "q1/candidate/0", run: str = A, **change) -> Override:
    return Override(
        id=id,
        run_id=run,
        claim_id=claim,
        comment=f"c{id}",
        reviewer=reviewer,
        created_at=f"2026-01-0{9 - id}T00:00:00.000+00:00",  # clocks disagree with the ids
        **change,
    )


def test_mine_are_the_overrides_under_my_name_newest_first_by_sequence():
    history = [_o(1, "ana"), _o(2, "bo"), _o(3, " ana "), _o(4, "Ana"), _o(5, "ana", run=B)]
    mine = own_reviews("ana", history, {A: "tiny", B: "other"}, {})
    assert [r.override.id for r in mine] == [5, 3, 1]  # "Ana" is someone else's name
    assert [r.suite_name for r in mine] == ["other", "tiny", "tiny"]
    assert own_reviews("  ", history, {}, {}) == []


def test_a_review_is_in_force_until_anyone_reviews_the_same_item_again():
    history = [_o(1, "ana"), _o(2, "bo"), _o(3, "ana", claim="q2/candidate/0")]
    latest = {(A, "q1/candidate/0"): 2, (A, "q2/candidate/0"): 3}
    assert [(r.override.id, r.in_force) for r in own_reviews("ana", history, {}, latest)] == [
        (3, True),
        (1, False),
    ]


@pytest.mark.parametrize(
    "item, change, kind, text",
    [
        ("q1/candidate/0", {}, "claim", "confirmed"),
        ("q1/candidate/0", {"verdict": "SUPPORTED", "severity": "LOW"}, "claim",
         "verdict=SUPPORTED severity=LOW"),
        ("pairwise:q1", {"preference": "B"}, "pair", "preference=B"),
        ("audit:q1:candidate", {"label": "FAITHFUL"}, "audit", "label=FAITHFUL"),
    ],
)  # fmt: skip
def test_each_review_says_what_it_did(item, change, kind, text):
    o = _o(1, "ana", claim=item, **change)
    assert (review_kind(item), override_change(o)) == (kind, text)


def test_the_store_lists_my_reviews_across_runs_with_their_suite(store_db):
    pairs = build_report(run_id=B, candidate={}).model_copy(
        update={"pairwise": [disagreeing_pair("q1")]}
    )
    with Store(store_db) as store:
        store.save_run(build_report(run_id=A))
        store.save_run(pairs)
        store.add_override(A, "q1/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="ana")
        store.add_override(A, "q1/candidate/0", comment="no, contradicted", reviewer="bo")
        store.add_override(B, "pairwise:q1", preference="B", comment="B keeps it", reviewer="ana")
        store.add_override(A, "q2/candidate/0", comment="yes", reviewer="ana")
        mine = store.reviews_by(" ana")
        newest = store.reviews_by("ana", limit=1)
        assert store.reviews_by("nobody") == [] and store.reviews_by("") == []
    assert [(r.override.run_id, r.override.claim_id, r.kind, r.in_force) for r in mine] == [
        (A, "q2/candidate/0", "claim", True),
        (B, "pairwise:q1", "pair", True),
        (A, "q1/candidate/0", "claim", False),
    ]
    assert [r.change for r in mine] == ["confirmed", "preference=B", "verdict=SUPPORTED"]
    assert {r.suite_name for r in mine} == {"tiny"}
    assert [r.override.claim_id for r in newest] == ["q2/candidate/0"]
