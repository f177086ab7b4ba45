"""The pairwise lines of `halgate run --mode pairwise`: tallies, what the rates measured, and
the pairs a person must decide."""

from __future__ import annotations

from pathlib import Path

from halgate.inputs.suite import load_suite
from halgate.models import Mode, PairwiseJudgement
from halgate.reports.pairwise_text import EVIDENCE_NOTE, pairwise_summary
from halgate.run.engine import plan_tasks

from ..conftest import disagreeing_pair


def _pair(case_id: str, preference: str) -> PairwiseJudgement:
    return PairwiseJudgement(
        case_id=case_id,
        system_a="baseline",
        system_b="candidate",
        preference=preference,
        swapped_preference=preference,
        justification="test",
        confidence=0.9,
    )


def test_summary_tallies_explains_the_rates_and_lists_the_pairs_to_review():
    pairs = [_pair("q1", "A"), _pair("q2", "A"), _pair("q3", "B"), disagreeing_pair("q4", "x")]
    assert pairwise_summary(pairs) == (
        "Pairwise (4 cases, judged in both orders): baseline preferred 2, candidate preferred 1, "
        "ties 1\n"
        "  Rates above: claims checked against the documents and each case's reference_answer,\n"
        "  not the documents only as in compare mode, so they can differ from a compare run.\n"
        "  review q4: orders disagree\n"
    )


def test_no_pairs_no_lines():
    assert pairwise_summary([]) == ""


def test_the_note_is_true_pairwise_adds_the_reference_answer_to_the_sources(tiny_suite: Path):
    """Why the same answers get other rates in pairwise mode than in compare mode."""
    suite = load_suite(tiny_suite)
    systems = ["baseline", "candidate"]
    docs = {
        mode: [[d.doc_id for d in t.documents] for t in plan_tasks(suite, mode, systems)]
        for mode in (Mode.COMPARE, Mode.PAIRWISE)
    }
    assert docs[Mode.COMPARE] == [["leaflet"], ["leaflet"], ["policy"]]
    assert docs[Mode.PAIRWISE] == [
        ["leaflet", "q1:reference"],
        ["leaflet", "q2:reference"],
        ["policy", "q3:reference"],
    ]
    assert "reference_answer" in EVIDENCE_NOTE and "compare" in EVIDENCE_NOTE
