"""The sequential audit (issue #33 item 2): looking after every label keeps the error rate.

An audit of k = 30 labels continued in draw order up to every one of 300 answers, the
corrected figure looked at after each label. A t interval re-made at each label (peeking)
misses the truth in some look far more often than 5 %; the look schedule with alpha
spending (``scoring.looks``) keeps the share of audits with any miss <= 1 − confidence, for
a rate and a paired change, over judges biased high and rarely wrong (figures with -s).
"""

from __future__ import annotations

import numpy as np
import pytest
from halgate.scoring.corrected import CHANGE_PSEUDO, ppi_mean
from halgate.scoring.looks import (
    answers_to_looks,
    labels_to_decide,
    level_at,
    look_confidence,
    look_index,
    look_size,
    look_sizes,
    looks_reached,
)

N = 300
K = 30
AUDITS = 300
CONFIDENCE = 0.95
JUDGES = {"biased high": (0.85, 0.19, 0.26), "rarely wrong": (0.95, 0.03, 0.04)}


def _release(rng: np.random.Generator, judge: tuple[float, float, float], change: float):
    """Truth and judge labels of baseline and candidate over N cases (as in the gate
    simulation): returns per-case judge g and truth d of the measured quantity."""
    recall, fa_b, fa_c = judge
    tb = rng.random(N) < 0.12
    tc = np.where(rng.random(N) < 0.7, tb, rng.random(N) < 0.12) | (rng.random(N) < change)
    fb = np.where(tb, rng.random(N) < recall, rng.random(N) < fa_b)
    fc = np.where(tc, rng.random(N) < recall, rng.random(N) < fa_c)
    return fb.astype(float), tb.astype(float), fc.astype(float), tc.astype(float)


def _missed(f, y, truth, sizes, level, bounds) -> bool:
    """Some look's interval (first ``size`` labels in draw order) misses the truth."""
    for size in sizes:
        pseudo = CHANGE_PSEUDO if bounds[0] < 0 else 1  # a change, as the product's
        est = ppi_mean(f, f[:size], y[:size], level(size), bounds=bounds, pseudo=pseudo)
        assert est.low is not None and est.high is not None
        if not est.low <= truth <= est.high:
            return True
    return False


def _error_rates(judge, paired: bool) -> tuple[float, float]:
    """Share of audits where any look misses: t at every label, and the look schedule."""
    peeking = spending = 0
    for audit in range(AUDITS):
        rng = np.random.default_rng([7, audit, paired])
        fb, tb, fc, tc = _release(rng, JUDGES[judge], 0.05)
        f, y, truth = (fc - fb, tc - tb, 0.05 * 0.88) if paired else (fb, tb, 0.12)
        order = rng.permutation(N)
        f, y = f[order], y[order]  # the draw order: every prefix a random sample
        bounds = (-1.0, 1.0) if paired else (0.0, 1.0)
        peeking += _missed(f, y, truth, range(K, N + 1), lambda _: CONFIDENCE, bounds)
        looks = look_sizes(K, N)
        spending += _missed(f, y, truth, looks, lambda s: level_at(CONFIDENCE, K, N, s), bounds)
    return peeking / AUDITS, spending / AUDITS


@pytest.mark.parametrize("judge", JUDGES)
@pytest.mark.parametrize("paired", [False, True], ids=["rate", "change"])
def test_looking_after_every_label_keeps_the_error_rate(judge, paired):
    peeking, spending = _error_rates(judge, paired)
    print(f"\n{judge}, {'change' if paired else 'rate'}: some look misses the truth in "
          f"{peeking:.1%} of audits with a t interval at every label, {spending:.1%} with the "
          "look schedule")  # fmt: skip
    assert spending <= 1 - CONFIDENCE
    assert peeking > spending


def test_the_look_schedule_doubles_to_every_answer_and_spends_at_most_alpha():
    assert look_sizes(30, 300) == [30, 60, 120, 240, 300]
    assert look_sizes(40, 40) == [40] and look_sizes(50, 40) == [50]
    assert [look_size(30, 300, n) for n in (12, 30, 59, 60, 119, 250, 300)] == [
        12, 30, 30, 60, 60, 240, 300,
    ]  # fmt: skip
    assert look_index(30, 300, 61) == 1 and look_index(30, 300, 29) == 0
    looks = look_sizes(30, 300)
    assert look_confidence(0.95, 0, looks) == pytest.approx(0.96)  # 4/5 of alpha first
    later = {look_confidence(0.95, j, looks) for j in range(1, 5)}
    assert len(later) == 1 and 0.99 < later.pop() < 1 - 0.01 / 4  # better than Bonferroni
    assert look_confidence(0.95, 0, [40]) == 0.95  # one look only: all of alpha


def test_label_n_more_names_the_look_that_would_decide():
    # standard error 0.05 at 30 labels: the half widths at the looks 60, 120, 240 and 300
    # would be about 0.107, 0.074, 0.052 and 0.046
    assert labels_to_decide(30, 300, 30, 0.05, 0.12, 0.95) == 30
    assert labels_to_decide(30, 300, 30, 0.05, 0.08, 0.95) == 90
    assert labels_to_decide(30, 300, 30, 0.05, 0.06, 0.95) == 210
    assert labels_to_decide(30, 300, 30, 0.05, 0.04, 0.95) is None  # no look decides
    assert labels_to_decide(30, 30, 30, 0.05, 0.5, 0.95) is None  # no look left


def test_a_change_counts_the_answers_to_each_look_not_its_cases():
    # looks at 2, 4 and 8 cases; 3 cases drawn (the third has one answer still unlabelled),
    # then 5 ahead holding 2, 1, 2, 0 (a should-abstain case: labelled by rule) and 2 answers
    assert answers_to_looks(2, 8, [0, 0, 1], [2, 1, 2, 0, 2]) == [0, 1 + 2, 1 + 2 + 1 + 2 + 0 + 2]
    assert answers_to_looks(2, 8, [0, 0], []) == [0, 2, 6]  # nothing known ahead: one a case
    # 'label N more' then names the deciding look's answers, not its size − n (the 90 and
    # 210 of the test above)
    to_looks = [0, 55, 170, 400, 512]
    assert labels_to_decide(30, 300, 30, 0.05, 0.08, 0.95, to_looks) == 170
    assert labels_to_decide(30, 300, 30, 0.05, 0.06, 0.95, to_looks) == 400
    assert looks_reached(30, 300, 59) == [30] and looks_reached(30, 300, 60) == [30, 60]
