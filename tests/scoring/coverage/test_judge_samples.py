"""Repeated judging (policy ``judge_samples``): the flaky judge's labels, and the coverage
of the corrected interval that reads their mean over samples (``scoring.judge_samples``).

The simulated judge is flaky the way a sampled LLM is: each answer has its own chance of
being flagged (near 0 or 1 for clear answers, near one half for ambiguous ones), and each
of the k samples flags it with that chance, independently. Reviewers are played by the
true labels of a random audit sample. Pure numpy, 1,000 seeds per setting.
"""

from __future__ import annotations

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.models import ClaimJudgement, Verdict, VerdictCounts
from halgate.scoring.corrected import CHANGE_PSEUDO, ppi_mean
from halgate.scoring.judge_samples import (
    judge_flips,
    judge_means,
    mean_and_noise,
    mean_noise,
    sample_labels,
)

from ..conftest import analysis

SEEDS = 3000
N_ANSWERS = 300
TRUE_RATE = 0.11
CANDIDATE_TRUE_RATE = 0.21
AMBIGUOUS = 0.3  # share of answers the judge is unsure of (flag chance 0.5)


def _chances(rng: np.random.Generator, truth: np.ndarray, false_alarms: float) -> np.ndarray:
    """Each answer's chance of being flagged in one sample: 0.9 for a real hallucination,
    ``false_alarms`` for a faithful answer, 0.5 for the ambiguous ones."""
    p = np.where(truth == 1, 0.9, false_alarms)
    return np.where(rng.random(len(truth)) < AMBIGUOUS, 0.5, p)


def _sampled(rng: np.random.Generator, chances: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """Mean label over k samples per answer, and the mean noise s²/k (the module's formula)."""
    labels = (rng.random((len(chances), k)) < chances[:, None]).astype(int)
    pairs = [mean_and_noise(list(row)) for row in labels]
    return np.array([m for m, _ in pairs]), float(np.mean([v for _, v in pairs]))


#: With one pseudo-disagreement each way (a rate's) the change covered only 0.934-0.943 at 60
#: and 100 labels for this judge, at any k: PPI++'s λ near 0 leaves a mean of rare ±1 events.
#: With ``CHANGE_PSEUDO`` = 2 each way (Agresti-Caffo) it covers 0.945-0.961 at 3,000 seeds.
COVERAGE_FLOOR = 0.94


@pytest.mark.parametrize("k", [1, 3, 5])
@pytest.mark.parametrize("n_audit", [30, 60, 100])
def test_corrected_rate_and_change_cover_with_a_flaky_judge(k, n_audit):
    rate_hits = change_hits = 0
    widths = []
    extra = 1 - (1 - CANDIDATE_TRUE_RATE) / (1 - TRUE_RATE)
    for seed in range(SEEDS):
        rng = np.random.default_rng(seed)
        base = (rng.random(N_ANSWERS) < TRUE_RATE).astype(int)
        cand = np.maximum(base, rng.random(N_ANSWERS) < extra).astype(int)
        fb, nb = _sampled(rng, _chances(rng, base, 0.2), k)
        fc, nc = _sampled(rng, _chances(rng, cand, 0.3), k)
        audited = rng.choice(N_ANSWERS, n_audit, replace=False)
        rate = ppi_mean(fb, fb[audited], base[audited], noise=nb)
        assert rate.low is not None and rate.high is not None
        rate_hits += rate.low <= TRUE_RATE <= rate.high
        g, d = fc - fb, cand - base
        change = ppi_mean(
            g, g[audited], d[audited], bounds=(-1.0, 1.0), pseudo=CHANGE_PSEUDO, noise=nb + nc
        )
        assert change.low is not None and change.high is not None
        change_hits += change.low <= CANDIDATE_TRUE_RATE - TRUE_RATE <= change.high
        widths.append(change.high - change.low)
    print(
        f"\nflaky judge, k={k}, audit {n_audit}: coverage rate {rate_hits / SEEDS:.3f}, "
        f"change {change_hits / SEEDS:.3f}; mean change width {np.mean(widths):.3f}"
    )
    assert rate_hits / SEEDS >= COVERAGE_FLOOR
    assert change_hits / SEEDS >= COVERAGE_FLOOR


def test_the_noise_term_widens_the_interval_by_its_formula():
    f, fl, yl = [0.0, 1 / 3, 1.0, 2 / 3] * 10, [0.0, 1.0, 2 / 3] * 4, [0, 1, 1] * 4
    plain = ppi_mean(f, fl, yl, lam=1.0)
    noisy = ppi_mean(f, fl, yl, lam=1.0, noise=0.05)
    assert plain.std_error is not None and noisy.std_error is not None
    assert noisy.std_error**2 == pytest.approx(plain.std_error**2 + 0.05 / len(f))
    assert noisy.estimate == plain.estimate


def _claim(verdict: Verdict, text: str, sample_verdicts: list[Verdict | None]) -> ClaimJudgement:
    return ClaimJudgement(
        claim_id="x", case_id="x", system="x", index=0, text=text, start=0, end=len(text),
        verdict=verdict, rationale="r", score=0.5, sample_verdicts=sample_verdicts,
    )  # fmt: skip


def test_sample_labels_means_and_flips_of_stored_answers():
    bad = VerdictCounts(UNSUPPORTED=1)
    good = VerdictCounts(SUPPORTED=1)
    flipped = analysis("c1", "s", [_claim(Verdict.SUPPORTED, "A.", [Verdict.UNSUPPORTED, None])])
    steady = analysis("c2", "s", [_claim(Verdict.UNSUPPORTED, "B.", [Verdict.UNSUPPORTED] * 2)])
    also = analysis("c3", "s", [_claim(Verdict.SUPPORTED, "C.", [Verdict.SUPPORTED] * 2)])
    flipped = flipped.model_copy(update={"sample_counts": [bad, good]})
    steady = steady.model_copy(update={"sample_counts": [bad, bad]})
    also = also.model_copy(update={"sample_counts": [good, bad]})
    assert sample_labels(flipped, False, False) == [0, 1, 0]
    assert sample_labels(flipped, True, False) == [1, 1, 1]  # should-abstain: by rule
    means, noise = judge_means([flipped, steady, also], ["c1", "c2"], "s", set(), Policy())
    assert means == {"c1": pytest.approx(1 / 3), "c2": 1.0}
    assert noise["c1"] == pytest.approx((1 / 3) / 3) and noise["c2"] == 0.0
    assert mean_noise(noise, ["c1", "c2"]) == pytest.approx(1 / 18)
    flips = judge_flips([flipped, steady, also], "s", set(), Policy())
    assert flips is not None
    # c1's claim is not compared (sample 3 lost it); c2's and c3's claims did not flip.
    assert (flips.samples, flips.compared, flips.flipped, flips.share) == (3, 2, 0, 0.0)
    assert (flips.answers, flips.answers_flipped) == (3, 2)  # c1 and c3 changed label
    one = [a.model_copy(update={"sample_counts": []}) for a in (flipped, steady)]
    assert judge_flips(one, "s", set(), Policy()) is None
