"""The rates kept for the next derivation of a run hold its answers weakly: a finished run's
records go with its report, yet a derivation that shares the answers still reuses them."""

from __future__ import annotations

import gc
import weakref

from halgate.models import AnswerAnalysis, Case, VerdictCounts
from halgate.scoring.reuse import reused_system_rates


def _analyses() -> tuple[list[AnswerAnalysis], list[Case]]:
    cases = [Case(case_id=f"c{i}", question="q", doc_ids=["d"]) for i in range(4)]
    answers = [
        AnswerAnalysis(
            case_id=c.case_id,
            system="cand",
            counts=VerdictCounts(SUPPORTED=1, UNSUPPORTED=i % 2),
            hallucination_rate=0.5 * (i % 2),
            hallucination_flag=bool(i % 2),
        )
        for i, c in enumerate(cases)
    ]
    return answers, cases


def _rates(answers: list[AnswerAnalysis], cases: list[Case]) -> object:
    return reused_system_rates(answers, "cand", False, cases, 200, 7, 0.95)


def test_the_same_answers_reuse_their_rates() -> None:
    answers, cases = _analyses()
    first = _rates(answers, cases)
    assert _rates(list(answers), cases) is first
    assert _rates([a.model_copy() for a in answers], cases) is not first  # other objects


def test_a_finished_runs_answers_are_not_kept_alive() -> None:
    answers, cases = _analyses()
    _rates(answers, cases)
    gone = [weakref.ref(a) for a in answers]
    del answers
    gc.collect()
    assert all(ref() is None for ref in gone)
