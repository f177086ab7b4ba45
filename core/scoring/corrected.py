"""Review-corrected rates: prediction-powered inference on the audit sample (DESIGN.md §3).

Reviewers label a seeded random sample of answers as a whole (``review.audit``). For one
system with N rated answers, judge labels f (1 = the answer counts as hallucinated, from the
effective verdicts: claim overrides keep their effect) and reviewer labels y on the n
audited answers, the estimate of Angelopoulos et al. (Science 2023) is

    θ̂ = λ·mean_N(f) + mean_n(y − λ·f)

unbiased for any fixed λ whatever the judge's bias, because the audited answers are a simple
random sample of the N. The audited answers are part of the N, so its variance is

    Var(θ̂) = Var(y − λf) / n + (2λ Cov(f, y) − λ² Var(f)) / N

(at λ = 1 the classic PPI form Var(y − f) / n + Var(f) / N for disjoint sets, plus the
covariance of the two means that share the n; with n = N it is Var(y) / N, the plain
binomial variance). PPI++ power tuning takes the λ that minimises it, Cov(f, y) / Var(f)
(cut to [0, 1]): a judge that says little about the truth gets little weight instead of
adding its noise. The rectifier's variance is floored by the uncertainty of the judge's
disagreement rate (``intervals.with_pseudo_labels``: one pseudo-disagreement each way for a rate,
``CHANGE_PSEUDO`` for a change), so agreeing labels never give a zero width;
the 95% interval is θ̂ ± t √Var, cut to [0, 1], with the Student-t quantile of n − 1
degrees of freedom (a small-audit adjustment: at n = 30 the normal quantile covered 93-94%
in the simulation of ``tests/scoring/test_corrected_simulation.py``, t 94-95%). The target is
the rate of the system's population of questions, like the judge's Wilson interval beside it.

An answer to a should-abstain case is counted hallucinated by rule (whatever its claims say),
so its label is the rule's and no reviewer is asked. Only the random sample feeds the
correction: the severity-ordered review queue is not a random sample, and its overrides act
through the judge labels f instead.

The change candidate − baseline is paired over U, the cases either rate counts (R_b ∪ R_c:
an abstention, an answer without countable claims or a harness error leaves a case out of
that system's R). Each rate is a mean over U of z_i = (|U|/|R|)·y_i on its own cases and 0
elsewhere, a value known without a label, so per case g = z(f_c) − z(f_b) and d = z(y_c) −
z(y_b) enter the same formula and case difficulty cancels even where one side abstains. The
weights |U|/|R| are counts of the whole run, not of the audit: the estimate stays unbiased
on a simple random sample of U, which the drawn cases of U are. Its labelled cases: those
drawn, cut to the last look reached in cases of U (``audit.order``), with a label on every
side that rates them. With R_b = R_c it is the plain paired PPI of g = f_c − f_b, d = y_c −
y_b. Only with fewer than two such cases are the two estimates taken as independent (their
variances add). Coverage: ``tests/scoring/coverage/test_change_abstentions.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from ..inputs.policy import Policy
from ..models import AnswerAnalysis, AuditInput, Case, CorrectedChange, CorrectedRate
from .intervals import PPISpread, t_quantile
from .judge_samples import judge_means, mean_noise
from .looks import (
    Schedule,
    audit_costs,
    level_at,
    look_size,
    look_sizes,
    pair_sample,
    schedule,
)
from .metrics import outcome_counts, ratio, should_abstain_ids

AUDIT_PREFIX = "audit:"


def audit_id(case_id: str, system: str) -> str:
    """The id a reviewer's label of an audited answer is recorded under."""
    return f"{AUDIT_PREFIX}{case_id}:{system}"


class PPIEstimate(NamedTuple):
    """A prediction-powered mean: estimate, standard error and interval ends (None when
    n < 2), and the rectifier mean(y − f)."""

    estimate: float | None
    std_error: float | None
    low: float | None
    high: float | None
    rectifier: float | None
    #: The standard error the same shares would give at each size of ``ppi_mean``'s ``at``.
    std_error_at: tuple[float, ...] = ()


def normal_interval(
    estimate: float, std_error: float, quantile: float, bounds: tuple[float, float]
) -> tuple[float, float]:
    """estimate ± quantile · std_error, cut to ``bounds``."""
    half = quantile * std_error
    return max(bounds[0], estimate - half), min(bounds[1], estimate + half)


def ppi_mean(
    f_all: Sequence[float],
    f_labelled: Sequence[float],
    y_labelled: Sequence[float],
    confidence: float = 0.95,
    bounds: tuple[float, float] = (0.0, 1.0),
    lam: float | None = None,
    pseudo: int = 1,
    noise: float = 0.0,
    at: Sequence[int] = (),
) -> PPIEstimate:
    """λ·mean(f_all) + mean(y − λ·f) over the labelled, with its interval (module doc).

    ``f_labelled``/``y_labelled`` are the judge's and the reviewer's labels of the same
    labelled items, which are among ``f_all``. ``lam`` None tunes λ (PPI++): the λ that
    minimises the variance, Cov(f, y) / Var(f), cut to [0, 1]; λ = 1 is classic PPI. No
    labels: no estimate; one label: an estimate without an interval. The estimate and the
    interval are cut to ``bounds`` (a cut interval still holds every value in bounds it held).
    ``pseudo``: how many small-sample pseudo-labels each way go into the variance and λ
    (``intervals.with_pseudo_labels``): 1 for a rate, ``CHANGE_PSEUDO`` for a change, 0 for none.
    ``noise``: the judge labels' own mean variance over repeated samples, added as
    λ²·noise/N (``scoring.judge_samples``; 0 with one sample). ``at``: label counts to
    project the standard error to, the same shares (``std_error_at``, ``intervals.PPISpread``).
    """
    f = np.asarray(f_all, dtype=float)
    fl, yl = np.asarray(f_labelled, dtype=float), np.asarray(y_labelled, dtype=float)
    big_n, n = len(f), len(yl)
    if n == 0 or big_n == 0:
        return PPIEstimate(None, None, None, None, None)
    spread = PPISpread(fl, yl, float(f.var(ddof=1)) if big_n > 1 else 0.0, big_n, pseudo, noise)
    tune = lam is None
    lam = spread.tuned(n) if lam is None else lam
    raw = float(lam * f.mean() + (yl - lam * fl).mean())
    estimate = min(bounds[1], max(bounds[0], raw))  # a rate stays a rate
    if n < 2:
        return PPIEstimate(estimate, None, None, None, float((yl - fl).mean()))
    se = math.sqrt(spread.variance(n, lam))
    lo, hi = normal_interval(raw, se, t_quantile(confidence, n - 1), bounds)
    ahead = tuple(math.sqrt(spread.variance(m, spread.tuned(m) if tune else lam)) for m in at)
    return PPIEstimate(estimate, se, lo, hi, float((yl - fl).mean()), ahead)


#: Pseudo-disagreements each way for a change of two rates: Agresti-Caffo's one success and
#: one failure added to each of the two proportions, where a rate gets one each way.
CHANGE_PSEUDO = 2


class SystemLabels(NamedTuple):
    """One system's answer labels: judge label per rated case, and the audited part."""

    judge: dict[str, int]  # case -> effective judge label, every rated answer
    truth: dict[str, int]  # case -> reviewer's (or the rule's) label, labelled sample only
    by_rule: int
    sample: list[str]  # the drawn cases up to the last look, in draw order
    beyond_look: int  # labelled answers past the last look, waiting for the next one
    drawn: dict[str, int]  # case -> label of every labelled drawn answer, past the look too
    looks: Schedule  # its own looks, in its answers, and the audit answers to each


def _judge_labels(
    analyses: Sequence[AnswerAnalysis], abstain: set[str], policy: Policy, system: str | None
) -> dict[str, int]:
    """Case -> effective judge label of one system's rated answers (any system's: None)."""
    judge: dict[str, int] = {}
    for a in analyses:
        if (system is not None and a.system != system) or a.harness_error is not None:
            continue
        o = outcome_counts(a, a.case_id in abstain, policy.count_out_of_scope)
        if o.answers[1]:
            judge[a.case_id] = max(judge.get(a.case_id, 0), o.answers[0])
    return judge


def first_look(
    analyses: Sequence[AnswerAnalysis], cases: Sequence[Case], policy: Policy
) -> tuple[int, int]:
    """k, the policy's audit size over the eligible cases (the first look, ``looks``), and
    the number of eligible cases (the last look)."""
    eligible = len(_judge_labels(analyses, should_abstain_ids(cases), policy, None))
    return policy.audit_size(eligible), eligible


def system_labels(
    analyses: Sequence[AnswerAnalysis], cases: Sequence[Case], system: str, policy: Policy,
    audit: AuditInput,
) -> SystemLabels:  # fmt: skip
    """One system's labels, the sample cut to the last look reached of its own schedule
    (``looks.schedule``: its answers, which it may skip cases of)."""
    abstain = should_abstain_ids(cases)
    judge = _judge_labels(analyses, abstain, policy, system)
    looks = schedule(judge, first_look(analyses, cases, policy)[0], *audit_costs(audit, abstain))
    reviewed = audit.labels.get(system, {})
    drawn = [c for c in audit.sample.get(system, []) if c in judge]
    labels = {
        c: judge[c] if c in abstain else int(reviewed[c])
        for c in drawn
        if c in abstain or c in reviewed
    }
    sample = drawn[: look_size(looks.first, looks.total, len(drawn))]
    truth = {c: labels[c] for c in sample if c in labels}
    by_rule = sum(1 for c in sample if c in abstain)
    return SystemLabels(judge, truth, by_rule, sample, len(drawn) - len(sample), labels, looks)


def _precision_recall(
    truth: dict[str, int], judged: dict[str, bool], skip: set[str]
) -> tuple[float | None, float | None]:
    """The judge's own labels (before overrides) against the reviewers', rule labels left out."""
    pairs = [(int(judged[c]), y) for c, y in truth.items() if c in judged and c not in skip]
    tp = sum(1 for j, y in pairs if j and y)
    return ratio(tp, sum(j for j, _ in pairs)), ratio(tp, sum(y for _, y in pairs))


def corrected_rate(
    analyses: Sequence[AnswerAnalysis],
    cases: Sequence[Case],
    system: str,
    policy: Policy,
    audit: AuditInput,
) -> CorrectedRate:
    """One system's audit-corrected answers with a hallucination (module doc)."""
    lab = system_labels(analyses, cases, system, policy, audit)
    labelled = list(lab.truth)
    k, total = lab.looks.first, lab.looks.total
    mean, noise = judge_means(analyses, list(lab.judge), system, should_abstain_ids(cases), policy)
    est = ppi_mean(
        [mean[c] for c in lab.judge],
        [mean[c] for c in labelled],
        [lab.truth[c] for c in labelled],
        level_at(policy.confidence, k, total, len(labelled)),
        lam=None if policy.power_tuning else 1.0,
        noise=mean_noise(noise, list(lab.judge)),
        at=look_sizes(k, total),
    )
    precision, recall = _precision_recall(
        lab.truth, audit.judged.get(system, {}), should_abstain_ids(cases)
    )
    return CorrectedRate(
        system=system,
        judge_rate=ratio(sum(lab.judge.values()), len(lab.judge)),
        n_answers=len(lab.judge),
        n_sample=len(lab.sample),
        first_look=k,
        eligible=total,
        beyond_look=lab.beyond_look,
        answers_to_looks=lab.looks.to_looks,
        std_error_at_looks=list(est.std_error_at),
        n_labelled=len(labelled),
        n_by_rule=lab.by_rule,
        complete=len(labelled) == len(lab.sample),
        rectifier=est.rectifier,
        estimate=est.estimate,
        std_error=est.std_error,
        ci_low=est.low,
        ci_high=est.high,
        confidence=policy.confidence,
        unlabelled=[audit_id(c, system) for c in lab.sample if c not in lab.truth],
        judge_precision=precision,
        judge_recall=recall,
    )


def corrected_change(
    analyses: Sequence[AnswerAnalysis],
    cases: Sequence[Case],
    baseline: CorrectedRate,
    candidate: CorrectedRate,
    policy: Policy,
    audit: AuditInput,
) -> CorrectedChange:
    """Candidate − baseline of the corrected rates, paired over the cases either rate counts
    (a side that does not rate a case contributes a known 0 there); independent only when
    fewer than two cases have every label the pairing needs (module doc)."""
    abstain = should_abstain_ids(cases)
    b = system_labels(analyses, cases, baseline.system, policy, audit)
    c = system_labels(analyses, cases, candidate.system, policy, audit)
    sides = [(b.judge, b.drawn), (c.judge, c.drawn)]
    pair = pair_sample(audit, sides, first_look(analyses, cases, policy)[0], abstain)
    labelled = pair.labelled
    same = set(b.judge) == set(c.judge) and set(b.truth) == set(c.truth)  # the old pairing
    paired = bool(b.judge) and bool(c.judge) and (len(labelled) >= 2 or same)
    union = list(b.judge) + [k for k in c.judge if k not in b.judge]
    where = {k: i for i, k in enumerate(union)}
    if paired:
        fb, nb = judge_means(analyses, list(b.judge), baseline.system, abstain, policy)
        fc, nc = judge_means(analyses, list(c.judge), candidate.system, abstain, policy)
        est = paired_change(
            _over(union, fb), _over(union, fc), _over(labelled, b.drawn),
            _over(labelled, c.drawn), [where[k] for k in labelled],
            level_at(policy.confidence, pair.first_look, pair.eligible, len(labelled)),
            lam=None if policy.power_tuning else 1.0,
            noise=(mean_noise(nb, list(b.judge)), mean_noise(nc, [k for k in union if k in nc])),
            at=look_sizes(pair.first_look, pair.eligible),
        )  # fmt: skip
    else:
        est = _independent(baseline, candidate)
    return CorrectedChange(
        baseline=baseline.system,
        candidate=candidate.system,
        judge_change=_minus(candidate.judge_rate, baseline.judge_rate),
        estimate=est.estimate,
        std_error=est.std_error,
        ci_low=est.low,
        ci_high=est.high,
        confidence=policy.confidence,
        paired=paired,
        n_cases=len(union) if paired else 0,
        n_labelled=len(labelled) if paired else 0,
        n_one_sided=len(union) - len(b.judge.keys() & c.judge.keys()) if paired else 0,
        complete=baseline.complete and candidate.complete,
        first_look=pair.first_look if paired else 0,
        eligible=pair.eligible if paired else 0,
        beyond_look=pair.beyond_look if paired else 0,
        answers_to_looks=pair.answers_to_looks if paired else [],
        std_error_at_looks=list(est.std_error_at) if paired else [],
    )


def _over(keys: Sequence[str], values: Mapping[str, float]) -> np.ndarray:
    """values[k] for each key, NaN where a system has none (it does not rate that case)."""
    return np.array([values.get(k, math.nan) for k in keys], dtype=float)


def paired_change(
    f_b: np.ndarray,
    f_c: np.ndarray,
    y_b: np.ndarray,
    y_c: np.ndarray,
    labelled: Sequence[int],
    confidence: float = 0.95,
    lam: float | None = None,
    noise: tuple[float, float] = (0.0, 0.0),
    at: Sequence[int] = (),
) -> PPIEstimate:
    """The change paired over U, the cases either system rates (module doc).

    ``f_b``/``f_c``: the judge's (mean) label of each case of U, NaN where that system does
    not rate it; ``y_b``/``y_c``: the labels of the ``labelled`` cases (indices into U), NaN
    where not rated. Each rate is the mean over U of z = (|U| / |R|)·label on its rated cases
    R and 0 elsewhere, so a one-sided case keeps its pair; with R_b = R_c = U it is the plain
    paired PPI of g = f_c − f_b and d = y_c − y_b. ``noise``: each side's mean judge-sample
    variance over its own rated cases (``judge_samples``); ``at``: as ``ppi_mean``'s."""
    w_b, w_c = (len(f) / np.count_nonzero(~np.isnan(f)) for f in (f_b, f_c))
    idx = np.asarray(labelled, dtype=int)
    g = _z(f_c, w_c) - _z(f_b, w_b)
    return ppi_mean(
        g,
        g[idx],
        _z(y_c, w_c) - _z(y_b, w_b),
        confidence,
        bounds=(-1.0, 1.0),
        lam=lam,
        pseudo=CHANGE_PSEUDO,
        noise=w_b * noise[0] + w_c * noise[1],
        at=at,
    )


def _z(values: np.ndarray, weight: float) -> np.ndarray:
    """weight · value on the rated cases, 0 (known, no label needed) on the others."""
    return np.where(np.isnan(values), 0.0, weight * values)


def _independent(baseline: CorrectedRate, candidate: CorrectedRate) -> PPIEstimate:
    """The difference of two independent estimates: their variances add."""
    estimate = _minus(candidate.estimate, baseline.estimate)
    if estimate is None or baseline.std_error is None or candidate.std_error is None:
        return PPIEstimate(estimate, None, None, None, None)
    se = math.hypot(baseline.std_error, candidate.std_error)
    n = min(baseline.n_labelled, candidate.n_labelled)
    level = level_at(candidate.confidence, candidate.first_look, candidate.eligible, n)
    low, high = normal_interval(estimate, se, t_quantile(level, n - 1), (-1.0, 1.0))
    return PPIEstimate(estimate, se, low, high, None)


def _minus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b
