"""Pairwise from claims: a correct abstention wins, the weights are compare mode's, and two
orders that disagree go to a person."""

from __future__ import annotations

import pytest
from halgate.inputs.policy import Policy
from halgate.judges.pairwise import OrderVerdict, combine_swapped, prefer_by_claims
from halgate.judges.protocol import JudgeResult, JudgeTask
from halgate.models import Case, Document, Preference
from halgate.run.pairwise import pairwise_from_results
from halgate.scoring.metrics import answer_metrics

from ..conftest import claim

INVENTED = [claim("UNSUPPORTED", "FABRICATION", "HIGH"), claim("SUPPORTED")]


def test_on_a_should_abstain_case_the_abstention_beats_an_invention_in_both_orders():
    first = prefer_by_claims(None, INVENTED, Policy(), should_abstain=True)
    back = prefer_by_claims(INVENTED, None, Policy(), should_abstain=True)
    assert (first.preference, first.tie_breaker) == (Preference.A, "correct_abstention")
    pair = combine_swapped("c", "baseline", "candidate", first, back)
    assert pair.preference == Preference.A and not pair.disagreement and not pair.needs_review


def test_elsewhere_an_abstention_still_loses_to_an_answer():
    assert prefer_by_claims(None, INVENTED, Policy()).preference == Preference.B


def test_the_engine_reads_the_should_abstain_tag_from_the_case():
    case = Case(case_id="c", question="Is a service plan offered?", tags=["should-abstain"])
    # The baseline refused ("the documents do not mention it"): not judged, no answer entry.
    task = JudgeTask(case, [Document(doc_id="d", text="x")], {"candidate": "A plan at 5."})
    result = JudgeResult("c", claims={"candidate": INVENTED})
    (pair,) = pairwise_from_results([task], [result], ["baseline", "candidate"], Policy())
    assert pair.preference == Preference.A  # A is the baseline: its abstention is right


@pytest.mark.parametrize("count_oos", [False, True])
def test_the_weighed_claims_are_those_compare_mode_counts_as_hallucinated(count_oos):
    policy = Policy(count_out_of_scope=count_oos)
    a = [claim("OUT_OF_SCOPE", None, "LOW"), claim("PARTIALLY_SUPPORTED", "DISTORTION", "LOW")]
    b = [claim("SUPPORTED")]
    verdict = prefer_by_claims(a, b, policy)
    counted = answer_metrics(a, count_out_of_scope=count_oos)["hallucination_rate"] > 0
    weighed = verdict.justification.startswith("Severity-weighted hallucinations: A 1, B 0")
    assert weighed is counted
    assert verdict.preference == Preference.B  # by weight, or else by consistency


def test_two_orders_that_disagree_go_to_a_person():
    first = OrderVerdict(Preference.A, "A is better", 0.9)
    swapped = OrderVerdict(Preference.A, "the first shown is better", 0.9)  # B in A's place
    pair = combine_swapped("c", "x", "y", first, swapped)
    assert pair.disagreement and pair.needs_review and pair.preference == Preference.TIE
