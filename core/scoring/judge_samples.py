"""Repeated judging (policy ``judge_samples`` = k > 1): flips, and the judge's noise in the audit.

The LLM judge may answer the same request differently on another try. With k samples per
answer the report says how often it did (``judge_flips``): of the claims of the first
sample that every other sample judged too, the share whose verdict was not the same in all
k (a claim's verdicts in samples 2..k are ``ClaimJudgement.sample_verdicts``).

The audit correction reads the judge's label of an answer as the mean over its samples,

    f_i = (1/k) Σ_s f_is        (f_is = 1 when sample s counts the answer hallucinated)

and adds the samples' spread to the corrected figure's variance (``scoring.corrected``):

    noise = mean over the N answers of s_i² / k,   s_i² = Σ_s (f_is − f_i)² / (k − 1)
    Var(θ̂) += λ² · noise / N

s_i²/k is the variance of the mean f_i; over N answers the judge's mean then carries
λ²·noise/N more. The empirical variances of PPI already hold part of that spread (they are
taken over the noisy f_i), so the term errs on the wide side; the simulation of
``tests/scoring/test_judge_samples.py`` measures the coverage with flaky judges. With one
sample f_i is the answer's label and noise is 0: nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..inputs.policy import Policy
from ..models import AnswerAnalysis, JudgeFlips
from .metrics import abstained, hallucination_rate, outcome_counts


def sample_labels(
    analysis: AnswerAnalysis, should_abstain: bool, count_out_of_scope: bool
) -> list[int]:
    """The answer's judge label in each sample (1 = hallucinated), the first one the
    effective label the gate counts; abstentions and should-abstain answers are labelled by
    rule, the same in every sample."""
    first = outcome_counts(analysis, should_abstain, count_out_of_scope).answers[0]
    if abstained(analysis) or should_abstain:
        return [first] * (1 + len(analysis.sample_counts))
    others = [hallucination_rate(c, count_out_of_scope) for c in analysis.sample_counts]
    return [first, *(int(r is not None and r > 0) for r in others)]


def mean_and_noise(labels: Sequence[int]) -> tuple[float, float]:
    """The mean label over the samples, and its variance s²/k (0 with one sample)."""
    k = len(labels)
    mean = sum(labels) / k
    if k < 2:
        return mean, 0.0
    spread = sum((x - mean) ** 2 for x in labels) / (k - 1)
    return mean, spread / k


def judge_means(
    analyses: Sequence[AnswerAnalysis],
    cases: Sequence[str],
    system: str,
    abstain: set[str],
    policy: Policy,
) -> tuple[dict[str, float], dict[str, float]]:
    """Case -> mean judge label over the samples, and case -> its variance (module doc),
    for one system's answers to ``cases``."""
    wanted = set(cases)
    means: dict[str, float] = {}
    noise: dict[str, float] = {}
    for a in analyses:
        if a.system != system or a.case_id not in wanted:
            continue
        labels = sample_labels(a, a.case_id in abstain, policy.count_out_of_scope)
        means[a.case_id], noise[a.case_id] = mean_and_noise(labels)
    return means, noise


def mean_noise(noise: dict[str, float], cases: Sequence[str]) -> float:
    """The mean of the answers' label variances over ``cases`` (0 for none)."""
    return sum(noise.get(c, 0.0) for c in cases) / len(cases) if cases else 0.0


def _flipped(verdicts: Sequence[object], first: object) -> bool:
    return any(v != first for v in verdicts)


def judge_flips(
    analyses: Sequence[AnswerAnalysis], system: str, abstain: set[str], policy: Policy
) -> JudgeFlips | None:
    """How often one system's answers were judged differently across samples; None with
    one sample (module doc)."""
    mine = [a for a in analyses if a.system == system and a.harness_error is None]
    k = 1 + max((len(a.sample_counts) for a in mine), default=0)
    if k < 2:
        return None
    full = [a for a in mine if len(a.sample_counts) == k - 1]
    compared = [
        c
        for a in full
        for c in a.claims
        if len(c.sample_verdicts) == k - 1 and None not in c.sample_verdicts
    ]
    flipped = [c.claim_id for c in compared if _flipped(c.sample_verdicts, c.verdict)]
    labels = [sample_labels(a, a.case_id in abstain, policy.count_out_of_scope) for a in full]
    return JudgeFlips(
        samples=k,
        compared=len(compared),
        flipped=len(flipped),
        share=len(flipped) / len(compared) if compared else None,
        answers=len(full),
        answers_flipped=sum(1 for ls in labels if len(set(ls)) > 1),
        flipped_claims=flipped,
    )
