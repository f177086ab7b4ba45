"""Pairwise review items (issue #11 item 6) and sign-off acknowledgement (item 7), in core.

A pair whose two position-swapped judgements disagree holds the gate at NEEDS_REVIEW; it is a
review item like a claim: in the queue and its counts, decided by an append-only override that
records A, B or TIE, which clears the hold.
"""

from __future__ import annotations

import pytest
from halgate.errors import UsageError
from halgate.judges.pairwise import failed_pair
from halgate.models import GateStatus, PairwiseJudgement, Preference
from halgate.review import first_order_preference, review_run
from halgate.scoring.rescore import rescore
from halgate.store import Store

from ..conftest import build_report, disagreeing_pair

RUN = "20260104T000000Z-pppppp"


def pairwise_report(run_id: str = RUN):
    """Claims all supported; q1's two orders disagree (held for review), q2 prefers B."""
    pairs = [
        disagreeing_pair("q1"),
        PairwiseJudgement(
            case_id="q2",
            system_a="baseline",
            system_b="candidate",
            preference="B",
            swapped_preference="B",
            justification="B is right",
            confidence=0.9,
        ),
    ]
    return rescore(build_report(run_id=run_id, candidate={}).model_copy(update={"pairwise": pairs}))


def test_a_disagreeing_pair_is_a_review_item_with_both_orders_and_counts():
    report = pairwise_report()
    assert report.decision.status == GateStatus.NEEDS_REVIEW
    run = review_run(RUN, report, [])
    [item] = run.queue.pairs
    assert item.review_id == "pairwise:q1" and not item.reviewed
    assert item.pair.system_a == "baseline" and item.pair.system_b == "candidate"
    assert first_order_preference(item.judged) == Preference.A
    assert item.judged.swapped_preference == Preference.B
    counts = run.queue.counts
    assert (counts.total, counts.reviewed, counts.pending) == (1, 0, 1)
    assert (counts.pairs, counts.pairs_pending) == (1, 1)
    assert counts.text() == "0 of 1 reviewed, 1 awaiting review"


def test_deciding_a_pair_is_stored_append_only_and_clears_the_hold(store_db):
    with Store(store_db) as store:
        run_id = store.save_run(pairwise_report())
        with pytest.raises(UsageError, match="preference"):
            store.add_override(run_id, "pairwise:q1", preference="C", comment="x", reviewer="a")
        with pytest.raises(UsageError, match="pairwise"):
            store.add_override(run_id, "q1/candidate/0", preference="A", comment="x", reviewer="a")
        o = store.add_override(
            run_id, "pairwise:q1", preference="b", comment="B keeps the dose", reviewer="ana"
        )
        assert (o.preference, o.reviewer) == (Preference.B, "ana")
        [again] = store.override_history(run_id, "pairwise:q1")
        assert again == o
        run = store.reviewed_run(run_id)
    assert run.report.decision.status == GateStatus.PASSED
    [item] = run.queue.pairs
    assert item.reviewed and item.latest_override == o
    assert item.pair.preference == Preference.B  # the reviewer's decision is in force
    assert item.judged.preference == Preference.TIE  # the judge's record is never edited
    assert (run.queue.counts.reviewed, run.queue.counts.pending) == (1, 0)


def test_a_failed_pair_a_reviewer_decided_counts_in_the_preference_tally(store_db):
    report = pairwise_report()
    failed = failed_pair("q3", "baseline", "candidate", "judge timed out")
    report = rescore(report.model_copy(update={"pairwise": [*report.pairwise, failed]}))
    [before] = [r for r in report.decision.reasons if r.rule == "pairwise_preference"]
    assert "of 2 pairs" in before.message  # the failed pair is not a tie of the judge's
    with Store(store_db) as store:
        run_id = store.save_run(report)
        store.add_override(run_id, "pairwise:q1", preference="TIE", comment="x", reviewer="ana")
        store.add_override(run_id, "pairwise:q3", preference="A", comment="y", reviewer="ana")
        run = store.reviewed_run(run_id)
    [after] = [r for r in run.report.decision.reasons if r.rule == "pairwise_preference"]
    assert "baseline preferred in 1, candidate in 1, ties 1 of 3 pairs" in after.message
    q3 = next(i for i in run.queue.pairs if i.review_id == "pairwise:q3")
    assert q3.pair.preference == Preference.A and "judge timed out" in q3.pair.justification
    assert q3.judged.error == "judge timed out"  # the judge's record is never edited


def test_approving_a_run_that_did_not_pass_needs_the_acknowledgement(store_db):
    with Store(store_db) as store:
        run_id = store.save_run(pairwise_report())
        with pytest.raises(UsageError, match="NEEDS_REVIEW.*override-gate"):
            store.sign_off(run_id, "approve", "rita", "ship", release_managers=["rita"])
        assert store.signoffs(run_id) == []
        rejected = store.sign_off(run_id, "reject", "rita", "no", release_managers=["rita"])
        assert rejected.override_gate is False
        s = store.sign_off(
            run_id, "approve", "rita", "known", release_managers=["rita"], override_gate=True
        )
        assert s.override_gate is True and s.decision_status == GateStatus.NEEDS_REVIEW
        first, second = store.signoffs(run_id)
        assert (first.standing, second.standing) == ("superseded", "in force")
        assert second.override_gate and store.audit(run_id)[-1].detail["override_gate"] is True
        store.add_override(run_id, "pairwise:q1", preference="A", comment="x", reviewer="a")
        assert [x.standing for x in store.signoffs(run_id)] == ["stale", "stale"]
        assert store.latest_signoff(run_id).in_force is False
        ok = store.sign_off(run_id, "approve", "rita", "passed", release_managers=["rita"])
        assert ok.override_gate is False and ok.decision_status == GateStatus.PASSED
