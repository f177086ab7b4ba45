"""What a claim's restated sentence says against it is found once per claim and read by the
rules and the stored signals alike: the signals name exactly the rules' signals, and the
rule that decides quotes the finding the signals record."""

from __future__ import annotations

import pytest
from halgate.evidence.index import evidence_index
from halgate.judges.offline.alignment import align
from halgate.judges.offline.features import claim_features, question_features
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.offline.restating.context import Restatement, Slot, restatement_of
from halgate.models import Case, Document

from ..conftest import offline_claims
from .test_rule_table import restating_rules, slot_fields

DOC = Document(
    doc_id="boats",
    text=(
        "Never take a boat out when the wind is over 5 Beaufort. "
        "The customer pays the cleaning fee of 20 euros unless the boat is returned clean. "
        "Anna Berg signs every rental contract at the harbour office. "
        "Guests should wear a life jacket on the jetty. "
        "Store the sails dry; the warranty on them is 24 months."
    ),
)
CASE = Case(case_id="c", question="What are the rental rules?")
_PASSAGE = evidence_index([DOC]).passages[0]


def _restatement(text: str) -> Restatement:
    judge = OfflineJudge(use_model=False)
    f = claim_features(text)
    index = evidence_index([DOC])
    al = align(f, index, question_features(CASE.question), judge.cal.retrieval, judge.th)
    return restatement_of(f, al)


def test_the_signals_are_the_restating_rules_signals() -> None:
    by_field = {name: r.signal for name, r in restating_rules().items()}  # from the table
    assert set(by_field) == set(slot_fields()) and len(by_field) == len(set(by_field.values()))
    assert set(Restatement().signals()) == set(by_field.values())
    for name, signal in by_field.items():  # each signal says whether its own field is found
        found = Restatement(**{name: Slot(_PASSAGE, "x")}).signals()
        assert [k for k, v in found.items() if v] == [signal]


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("Always take a boat out when the wind is over 5 Beaufort.", "polarity_flip"),
        ("Never take a boat out when the wind is under 5 Beaufort.", "bound_reversed"),
        ("Tom Lind signs every rental contract at the harbour office.", "name_swapped"),
        ("The customer pays the cleaning fee of 20 euros.", "restriction_dropped"),
        # Advice made an obligation.
        ("Guests must wear a life jacket on the jetty.", "strength_changed"),
        # The negation stands past the last content word (numbers and units are none).
        ("The warranty on them is not 24 months.", "polarity_flip"),
    ],
)
def test_one_finding_and_the_rule_that_quotes_it(claim: str, found: str) -> None:
    r = _restatement(claim)
    assert [k for k, v in r.signals().items() if v] == [found]
    (judged,) = offline_claims(claim, [DOC], CASE.question)
    assert judged.deciding_rule == found
    assert judged.signals[found] is True


def test_a_copy_is_found_and_restates_without_a_finding() -> None:
    r = _restatement("Anna Berg signs every rental contract at the harbour office.")
    assert r.copied is not None and r.copied.doc_id == "boats"
    assert r.copy_restricted is None
    assert not any(r.signals().values())
