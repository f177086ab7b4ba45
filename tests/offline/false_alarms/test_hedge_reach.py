"""A hedge puts in doubt what follows it in its clause, not every word near it: "the
presence of a pesticide at the villa may have caused the illnesses" leaves the pesticide a
fact; "about 2 miles east of the airport" approximates a distance, and the number checks
read that; "does not appear on the list" is a presence, not a seeming; a sentence glued to
the next without a space ("as well.Many cases") ends its clause. The hedges a claim drops
are still found: "dizziness may occur", "is thought to offer", "usually clears"."""

from __future__ import annotations

import pytest
from halgate.models import Document, HallucinationType, Verdict
from halgate.text.words import hedge_cues, hedge_scope, hedged_predicates, tokenize

from ...conftest import offline_claims


def _fired(claim: str, source: str) -> set[str]:
    (judged,) = offline_claims(claim, [Document(doc_id="src", text=source)])
    return {f.rule for f in judged.findings}


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Inspectors found a pesticide at the rented villa in St. John.",
            "Inspectors said the presence of a pesticide at the rented villa in St. John may "
            "have caused the illnesses.",
        ),
        (
            "The plane went down near the Central Illinois Regional Airport in Bloomington.",
            "The plane went down overnight about 2 miles east of the Central Illinois Regional "
            "Airport in Bloomington.",
        ),
        (
            "He was rescued by the crew of a container ship.",
            "He was rescued by the crew of a container ship, who thought it was a yacht that "
            "had wrecked.",
        ),
        (
            "Sandra Bullock did not make the list of the most beautiful women.",
            "Sandra Bullock doesn't appear anywhere on the list of the most beautiful women.",
        ),
        (
            "Group A streptococci cause most cases of necrotizing fasciitis.",
            "Fungi can also rarely lead to this condition as well.Most cases of "
            "necrotizing fasciitis are caused by group A streptococci.",
        ),
    ],
)
def test_a_hedge_does_not_reach_words_it_does_not_put_in_doubt(claim: str, source: str) -> None:
    assert "hedge" not in _fired(claim, source)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Dizziness occurs in patients.", "Dizziness may occur in some patients."),
        (
            "In patients aged 80 or older, 50 mg once daily offers similar protection.",
            "In patients aged 80 or older, 50 mg once daily is thought to offer similar "
            "protection.",
        ),
        (
            "Error 503 clears within a few seconds.",
            "Error 503 is returned during a failover and usually clears within a few seconds.",
        ),
        (
            "Three people died from listeria in Blue Bell products.",
            "Three people died from listeria that might be linked to Blue Bell products.",
        ),
    ],
)
def test_a_dropped_hedge_is_still_found(claim: str, source: str) -> None:
    (judged,) = offline_claims(claim, [Document(doc_id="src", text=source)])
    assert judged.deciding_rule == "hedge", judged.rationale
    assert judged.hallucination_type is HallucinationType.OMISSION_AS_FACT
    assert judged.verdict is Verdict.UNSUPPORTED


def test_what_a_hedge_puts_in_doubt_is_what_follows_it() -> None:
    ((clause, predicate),) = hedged_predicates(
        "The presence of a pesticide at the villa may have caused the illnesses."
    )
    assert {"pesticid", "villa"} <= clause
    assert predicate.isdisjoint({"pesticid", "villa", "presenc"}) and "illness" in predicate


@pytest.mark.parametrize(
    "text",
    ["It is about 2 miles from the airport.", "The navy will grow to an estimated 435 ships."],
)
def test_an_approximate_number_hedges_no_clause(text: str) -> None:
    assert hedge_cues(tokenize(text))  # a claim that says 'about 2 miles' still hedges
    assert hedge_scope(text) == ([], set())


def test_estimated_before_a_clause_still_hedges_it() -> None:
    cues, scoped = hedge_scope("It is estimated that half of the ships are new.")
    assert cues == ["estimated"] and "ship" in scoped
