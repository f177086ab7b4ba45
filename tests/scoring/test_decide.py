"""Three-way rate rules: FAILED above the limit, PASSED within, undecided in between."""

from __future__ import annotations

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.models import GateReason, GateStatus, PairwiseJudgement, Preference
from halgate.scoring.corrected import ppi_mean
from halgate.scoring.decide import (
    OUT_OF_REACH,
    Call,
    RuleEvidence,
    call,
    headline,
    more_to_decide,
    out_of_reach,
    rate_reason,
)
from halgate.scoring.pairwise_gate import pairwise_reasons

INTERVAL, ESTIMATE = Policy(), Policy(decide_on="estimate")


@pytest.mark.parametrize(
    "low, high, expected",
    [(0.06, 0.2, Call.ABOVE), (-0.1, 0.05, Call.BELOW), (0.0, 0.09, Call.UNDECIDED)],
)
def test_the_interval_decides_not_the_point(low, high, expected):
    assert call(RuleEvidence(0.07, low, high, 30), 0.05, INTERVAL) == expected


def test_the_point_estimate_rule_stays_a_named_choice():
    straddling = RuleEvidence(0.07, 0.0, 0.14, 30)
    assert call(straddling, 0.05, INTERVAL) == Call.UNDECIDED
    assert call(straddling, 0.05, ESTIMATE) == Call.ABOVE
    assert call(RuleEvidence(0.04, 0.0, 0.14, 30), 0.05, ESTIMATE) == Call.BELOW


def test_no_interval_is_undecided_under_the_interval_rule():
    assert call(RuleEvidence(0.5, None, None, 1, corrected=True), 0.05, INTERVAL) == Call.UNDECIDED


def test_labels_to_go_shrink_the_interval_past_the_limit():
    # Simulate the estimator: the same per-label variance with more labels decides the rule.
    rng = np.random.default_rng(3)
    f = rng.random(2000) < 0.3
    y = np.where(rng.random(2000) < 0.85, f, ~f).astype(float)
    n = 30
    est = ppi_mean(f, f[:n], y[:n])
    limit = est.estimate - 0.08
    ev = RuleEvidence(est.estimate, est.low, est.high, n, corrected=True)
    more = more_to_decide(ev, limit, 0.95)
    assert more is not None and more > 0
    bigger = ppi_mean(f, f[: n + more], y[: n + more])
    # At the same variance, n + more labels put the interval's low end near the limit.
    half_now, half_then = est.estimate - est.low, bigger.estimate - bigger.low
    assert half_then == pytest.approx(0.08, rel=0.35) and half_then < half_now


def test_an_estimate_on_the_limit_has_no_label_count():
    assert more_to_decide(RuleEvidence(0.05, 0.0, 0.1, 30, True), 0.05, 0.95) is None


def test_undecided_reason_asks_for_labels_in_the_same_words():
    r = rate_reason("max_rate_increase", "change", RuleEvidence(0.07, -0.02, 0.16, 30, True), 0.05,
                    INTERVAL, signed=True)  # fmt: skip
    assert r is not None and r.status == GateStatus.NEEDS_REVIEW
    assert f"label {r.more_to_decide} more audit answers to decide" in r.message
    assert r.why in r.message and "straddles the limit 5.0%" in r.message


def test_a_confidence_level_from_the_policy_names_the_interval():
    r = rate_reason("x", "rate", RuleEvidence(0.2, 0.1, 0.3, 30), 0.05, Policy(confidence=0.9))
    assert r is not None and "(90% CI 10.0% to 30.0%)" in r.message


def test_the_headline_says_what_and_why_in_one_line():
    reasons = [
        GateReason(rule="a", status=GateStatus.PASSED, message="m", why="fine"),
        GateReason(
            rule="max_rate_increase",
            status=GateStatus.NEEDS_REVIEW,
            message="m",
            why="undecided: label 12 more audit answers to decide",
        ),  # fmt: skip
        GateReason(rule="block_on_severity", status=GateStatus.FAILED, message="m", why="1 bad"),
    ]
    line = headline(GateStatus.FAILED, reasons)
    assert line == (
        "FAILED: block_on_severity failed: 1 bad; max_rate_increase waits: undecided: label "
        "12 more audit answers to decide"
    )
    assert "\n" not in line
    assert headline(GateStatus.PASSED, reasons[:1]) == "PASSED: every rule passed"


def _pairs(a_wins: int, b_wins: int, ties: int) -> list[PairwiseJudgement]:
    prefs = [Preference.A] * a_wins + [Preference.B] * b_wins + [Preference.TIE] * ties
    return [
        PairwiseJudgement.model_construct(
            case_id=f"c{i}",
            system_a="base",
            system_b="cand",
            preference=p,
            error=None,
            needs_review=False,
        )  # fmt: skip
        for i, p in enumerate(prefs)
    ]


@pytest.mark.parametrize(
    "a_wins, b_wins, ties, status",
    [(30, 0, 10, GateStatus.FAILED), (0, 10, 30, GateStatus.PASSED),
     (3, 1, 6, GateStatus.NEEDS_REVIEW)],
)  # fmt: skip
def test_the_pairwise_gate_decides_on_its_interval_too(a_wins, b_wins, ties, status):
    [r] = pairwise_reasons(_pairs(a_wins, b_wins, ties), Policy())
    assert r.status == status
    if status == GateStatus.NEEDS_REVIEW:
        assert "more judged pairs would decide" in r.message


def test_the_pairwise_gate_keeps_the_point_rule_on_request():
    [r] = pairwise_reasons(_pairs(3, 1, 6), ESTIMATE)
    assert r.status == GateStatus.FAILED and "point-estimate rule" in r.message


def test_more_labels_than_are_left_is_said_plainly():
    ev = RuleEvidence(0.47, 0.29, 0.65, 40, corrected=True, left=13)
    r = rate_reason("max_rate_increase", "change", ev, 0.5, INTERVAL, signed=True)
    assert r is not None and r.status == GateStatus.NEEDS_REVIEW
    assert "more labels than the 13 answers left" in r.message and "a reviewer decides" in r.message
    done = rate_reason("max_rate_increase", "change", ev._replace(left=0), 0.5, INTERVAL, True)
    assert done is not None and done.status == GateStatus.NEEDS_REVIEW
    assert "every audit answer is labelled and the interval still holds the limit" in done.message


def test_a_change_no_realistic_suite_decides_says_so_instead_of_a_count():
    # 45 cases, half width 0.07 (q·s) around +4% against a 5% limit: n·(0.07 / 0.01)² − n
    # = 45·49 − 45 = 2160 more cases, over 10 × 45: no realistic suite
    near = RuleEvidence(0.04, -0.03, 0.11, 45, unit="cases")
    r = rate_reason("max_abstention_increase", "abstentions", near, 0.05, INTERVAL, signed=True)
    assert r is not None and r.status == GateStatus.NEEDS_REVIEW and r.more_to_decide == 2160
    assert (
        "no realistic number of cases decides it (over 10× the 45 measured would be needed "
        "at this variance); a reviewer decides (sign-off)" in r.message
    )
    assert "2160" not in r.message
    # +2% with half width 0.05: 45·(0.05 / 0.03)² − 45 = 80 more, a count worth saying
    far = RuleEvidence(0.02, -0.03, 0.07, 45, unit="cases")
    r = rate_reason("max_abstention_increase", "abstentions", far, 0.05, INTERVAL, signed=True)
    assert r is not None and r.more_to_decide == 80
    assert "undecided: about 80 more cases would decide" in r.message
    # the judge's gated change names the audit as the other way out
    judged = RuleEvidence(0.04, -0.03, 0.11, 45)
    r = rate_reason("max_rate_increase", "change", judged, 0.05, INTERVAL, signed=True)
    assert r is not None and "a complete audit with gate_on_corrected, or a reviewer" in r.message
    assert OUT_OF_REACH == 10 and not out_of_reach(450, 45) and out_of_reach(451, 45)
