"""Issue #11 item 3 by simulation: a biased judge, reviewers played by the true labels.

Each seed draws a labelled suite (true answer labels), a judge that reads far more
hallucinations than there are (true rate 11%, judge 26%), and a random audit sample the
"reviewers" label with the truth. The review-corrected 95% interval must cover the true rate
in at least 93% of the seeds; the judge's own interval, centred on its bias, visibly does not.
Pure numpy: no judge runs, 1,000 seeds in about a second.
"""

from __future__ import annotations

import numpy as np
from halgate.scoring.corrected import CHANGE_PSEUDO, ppi_mean
from halgate.scoring.metrics import wilson_interval

SEEDS = 1000
N_ANSWERS = 300  # answers each system gave (the suite)
N_AUDIT = 30  # the audit sample: policy audit_sample = 30
TRUE_RATE = 0.11
RECALL = 0.85  # the judge flags 85% of the real hallucinations ...
FALSE_ALARMS = 0.187  # ... and 18.7% of the faithful answers: it reads 0.11*0.85+0.89*0.187 = 26%
CANDIDATE_TRUE_RATE = 0.15  # the candidate really regresses by 4 points ...
CANDIDATE_FALSE_ALARMS = 0.32  # ... and the judge over-reads its (longer) answers even more


def _judge(rng: np.random.Generator, truth: np.ndarray, false_alarms: float) -> np.ndarray:
    u = rng.random(len(truth))
    return np.where(truth == 1, u < RECALL, u < false_alarms).astype(int)


def _covers(low: float | None, high: float | None, value: float) -> bool:
    assert low is not None and high is not None
    return low <= value <= high


def test_corrected_interval_covers_the_true_rate_and_the_judges_does_not():
    corrected = raw = 0
    judge_rates = []
    for seed in range(SEEDS):
        rng = np.random.default_rng(seed)
        truth = (rng.random(N_ANSWERS) < TRUE_RATE).astype(int)
        judge = _judge(rng, truth, FALSE_ALARMS)
        audited = rng.choice(N_ANSWERS, N_AUDIT, replace=False)
        est = ppi_mean(judge, judge[audited], truth[audited])
        corrected += _covers(est.low, est.high, TRUE_RATE)
        w = wilson_interval(int(judge.sum()), N_ANSWERS)
        assert w is not None
        raw += _covers(w.low, w.high, TRUE_RATE)
        judge_rates.append(judge.mean())
    print(
        f"\n{SEEDS} seeds, {N_ANSWERS} answers, audit {N_AUDIT}: true rate {TRUE_RATE:.0%}, "
        f"judge reads {np.mean(judge_rates):.1%}; 95% interval coverage: corrected "
        f"{corrected / SEEDS:.1%}, judge (Wilson) {raw / SEEDS:.1%}"
    )
    assert abs(np.mean(judge_rates) - 0.26) < 0.01  # the judge is biased as intended
    assert corrected / SEEDS >= 0.94
    assert raw / SEEDS < 0.05


def test_corrected_change_paired_over_cases_covers_the_true_change():
    true_change = CANDIDATE_TRUE_RATE - TRUE_RATE
    # The candidate is wrong wherever the baseline is, plus on extra cases (paired truths).
    extra = 1 - (1 - CANDIDATE_TRUE_RATE) / (1 - TRUE_RATE)
    corrected = raw = 0
    judge_changes = []
    for seed in range(SEEDS):
        rng = np.random.default_rng(10_000 + seed)
        base = (rng.random(N_ANSWERS) < TRUE_RATE).astype(int)
        cand = np.maximum(base, rng.random(N_ANSWERS) < extra).astype(int)
        g = _judge(rng, cand, CANDIDATE_FALSE_ALARMS) - _judge(rng, base, FALSE_ALARMS)
        d = cand - base
        audited = rng.choice(N_ANSWERS, N_AUDIT, replace=False)  # same cases in both systems
        est = ppi_mean(g, g[audited], d[audited], bounds=(-1.0, 1.0), pseudo=CHANGE_PSEUDO)
        corrected += _covers(est.low, est.high, true_change)
        half = 1.96 * g.std(ddof=1) / np.sqrt(N_ANSWERS)  # the judge's own paired interval
        raw += _covers(g.mean() - half, g.mean() + half, true_change)
        judge_changes.append(g.mean())
    print(
        f"\n{SEEDS} seeds: true change {true_change:+.0%}, judge reads "
        f"{np.mean(judge_changes):+.1%}; 95% interval coverage: corrected (paired) "
        f"{corrected / SEEDS:.1%}, judge (paired normal) {raw / SEEDS:.1%}"
    )
    assert corrected / SEEDS >= 0.94
    assert raw / SEEDS < 0.5
