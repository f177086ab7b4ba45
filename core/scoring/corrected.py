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
disagreement rate (``_with_pseudo_labels``: one pseudo-disagreement each way for a rate,
``CHANGE_PSEUDO`` for a change), so agreeing labels never give a zero width;
the 95% interval is θ̂ ± t √Var, cut to [0, 1], with the Student-t quantile of n − 1
degrees of freedom (a small-audit adjustment: at n = 30 the normal quantile covered 93-94%
in the simulation of ``tests/scoring/test_corrected_simulation.py``, t 94-95%). The target is
the rate of the system's population of questions, like the judge's Wilson interval beside it.

An answer to a should-abstain case is counted hallucinated by rule (whatever its claims say),
so its label is the rule's and no reviewer is asked. Only the random sample feeds the
correction: the severity-ordered review queue is not a random sample, and its overrides act
through the judge labels f instead.

The change candidate − baseline is paired over cases when both rates count the same cases
and the same cases are labelled in both (per case g = f_c − f_b and d = y_c − y_b enter the
same formula, so case difficulty cancels); otherwise the two estimates are independent and
their variances add.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..inputs.policy import Policy
from ..models import (
    AnswerAnalysis,
    AuditInput,
    Case,
    CorrectedChange,
    CorrectedRate,
    GateReason,
    GateStatus,
)
from .intervals import t_quantile
from .judge_samples import judge_means, mean_noise
from .looks import level_at, look_size
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
) -> PPIEstimate:
    """λ·mean(f_all) + mean(y − λ·f) over the labelled, with its interval (module doc).

    ``f_labelled``/``y_labelled`` are the judge's and the reviewer's labels of the same
    labelled items, which are among ``f_all``. ``lam`` None tunes λ (PPI++): the λ that
    minimises the variance, Cov(f, y) / Var(f), cut to [0, 1]; λ = 1 is classic PPI. No
    labels: no estimate; one label: an estimate without an interval. The estimate and the
    interval are cut to ``bounds`` (a cut interval still holds every value in bounds it held).
    ``pseudo``: how many small-sample pseudo-labels each way go into the variance and λ
    (``_with_pseudo_labels``): 1 for a rate, ``CHANGE_PSEUDO`` for a change, 0 for none.
    ``noise``: the judge labels' own mean variance over repeated samples, added as
    λ²·noise/N (``scoring.judge_samples``; 0 with one sample).
    """
    f = np.asarray(f_all, dtype=float)
    fl, yl = np.asarray(f_labelled, dtype=float), np.asarray(y_labelled, dtype=float)
    big_n, n = len(f), len(yl)
    if n == 0 or big_n == 0:
        return PPIEstimate(None, None, None, None, None)
    var_f = float(f.var(ddof=1)) if big_n > 1 else 0.0
    fp, yp = _with_pseudo_labels(fl, yl, pseudo)
    cov = float(np.cov(fp, yp, ddof=1)[0, 1])
    if lam is None:
        lam = min(1.0, max(0.0, cov / var_f)) if var_f > 0 else 0.0
    raw = float(lam * f.mean() + (yl - lam * fl).mean())
    estimate = min(bounds[1], max(bounds[0], raw))  # a rate stays a rate
    if n < 2:
        return PPIEstimate(estimate, None, None, None, float((yl - fl).mean()))
    var_r = float((yp - lam * fp).var(ddof=1))
    var = var_r / n + max(0.0, 2 * lam * cov - lam**2 * var_f) / big_n + lam**2 * noise / big_n
    se = math.sqrt(var)
    lo, hi = normal_interval(raw, se, t_quantile(confidence, n - 1), bounds)
    return PPIEstimate(estimate, se, lo, hi, float((yl - fl).mean()))


#: Pseudo-disagreements each way for a change of two rates: Agresti-Caffo's one success and
#: one failure added to each of the two proportions, where a rate gets one each way.
CHANGE_PSEUDO = 2


def _with_pseudo_labels(
    fl: np.ndarray, yl: np.ndarray, each_way: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """The labelled pairs plus pseudo-pairs, ``each_way`` disagreements each way (the judge
    missed one, and raised one false alarm), for the variance and λ only, never the
    estimate: the Agresti-Coull idea for a mean of few labels. Reviewers who agree with the
    judge on every audited answer (or see no hallucination at all) leave the disagreement
    rate uncertain (0 of 30 does not prove 0), so the interval never has zero width, and λ is
    not tuned on noise. In simulation at 30 labels one each way lifts coverage from 0.85 to
    0.95 (rates, changes). A change is a difference of two rates, so it gets
    ``CHANGE_PSEUDO`` each way (Agresti-Caffo): with one, a judge that flips a coin on 30% of
    answers left PPI++ a λ near 0, the change a mean of rare ±1 events, and the symmetric
    interval covered 0.934-0.943 at 60 and 100 labels (missing above the truth 5% of the
    time, below it 1%: the Wald interval's fault near 0); with two it covers 0.949-0.951
    (``tests/scoring/coverage/test_judge_samples.py``)."""
    return (
        np.concatenate([fl, [0, 1] * each_way]),
        np.concatenate([yl, [1, 0] * each_way]),
    )


class SystemLabels(NamedTuple):
    """One system's answer labels: judge label per rated case, and the audited part."""

    judge: dict[str, int]  # case -> effective judge label, every rated answer
    truth: dict[str, int]  # case -> reviewer's (or the rule's) label, labelled sample only
    by_rule: int
    sample: list[str]  # the drawn cases up to the last look, in draw order
    beyond_look: int  # labelled answers past the last look, waiting for the next one


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
    """One system's labels, the sample cut to the last look reached (``looks``)."""
    abstain = should_abstain_ids(cases)
    judge = _judge_labels(analyses, abstain, policy, system)
    reviewed = audit.labels.get(system, {})
    truth: dict[str, int] = {}
    by_rule = 0
    drawn = [c for c in audit.sample.get(system, []) if c in judge]
    sample = drawn[: look_size(*first_look(analyses, cases, policy), len(drawn))]
    for case_id in sample:
        if case_id in abstain:
            truth[case_id], by_rule = judge[case_id], by_rule + 1
        elif case_id in reviewed:
            truth[case_id] = int(reviewed[case_id])
    return SystemLabels(judge, truth, by_rule, sample, len(drawn) - len(sample))


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
    k, total = first_look(analyses, cases, policy)
    mean, noise = judge_means(analyses, list(lab.judge), system, should_abstain_ids(cases), policy)
    est = ppi_mean(
        [mean[c] for c in lab.judge],
        [mean[c] for c in labelled],
        [lab.truth[c] for c in labelled],
        level_at(policy.confidence, k, total, len(labelled)),
        lam=None if policy.power_tuning else 1.0,
        noise=mean_noise(noise, list(lab.judge)),
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
    """Candidate − baseline of the corrected rates: paired over cases when both count the
    same cases and have the same ones labelled, else independent (module doc)."""
    b = system_labels(analyses, cases, baseline.system, policy, audit)
    c = system_labels(analyses, cases, candidate.system, policy, audit)
    paired = set(b.judge) == set(c.judge) and set(b.truth) == set(c.truth)
    if paired:
        labelled = list(b.truth)
        abstain = should_abstain_ids(cases)
        fb, nb = judge_means(analyses, list(b.judge), baseline.system, abstain, policy)
        fc, nc = judge_means(analyses, list(b.judge), candidate.system, abstain, policy)
        est = ppi_mean(
            [fc[k] - fb[k] for k in b.judge],
            [fc[k] - fb[k] for k in labelled],
            [c.truth[k] - b.truth[k] for k in labelled],
            level_at(policy.confidence, baseline.first_look, baseline.eligible, len(labelled)),
            bounds=(-1.0, 1.0),
            lam=None if policy.power_tuning else 1.0,
            pseudo=CHANGE_PSEUDO,
            noise=mean_noise(nb, list(b.judge)) + mean_noise(nc, list(b.judge)),
        )
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
        n_cases=len(b.judge) if paired else 0,
        complete=baseline.complete and candidate.complete,
    )


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


def corrected_in_force(
    policy: Policy, rate: CorrectedRate | None, change: CorrectedChange | None, compare: bool
) -> bool:
    """Whether the gate uses the corrected figures: ``gate_on_corrected``, every audit sample
    completely labelled, and an estimate (with an interval, for a change) to gate on."""
    if not policy.gate_on_corrected or rate is None or not rate.complete:
        return False
    if rate.estimate is None:
        return False
    if not compare:
        return True
    return change is not None and change.complete and change.ci_low is not None


def _progress(rates: Sequence[CorrectedRate]) -> str:
    return ", ".join(f"{r.system} {r.n_labelled} of {r.n_sample}" for r in rates)


def audit_reason(
    policy: Policy, corrected: Sequence[CorrectedRate | None], in_force: bool
) -> GateReason | None:
    """The gate's word on ``gate_on_corrected``: gating on the corrected figures (audit
    complete), or on the judge's while the audit sample is incomplete: NEEDS_REVIEW then,
    when reviews must come before a pass, naming the answers still to label."""
    if not policy.gate_on_corrected:
        return None
    known = [r for r in corrected if r is not None]
    if in_force:
        return GateReason(
            rule="gate_on_corrected",
            status=GateStatus.PASSED,
            observed=sum(r.n_labelled for r in known),
            message="gating on the review-corrected answers with a hallucination: audit sample "
            f"complete ({_progress(known)} answers labelled)",
        )
    waiting = [i for r in known for i in r.unlabelled]
    if known and not waiting:
        what = f"audit sample too small to correct with ({_progress(known)} answers labelled)"
    elif known:
        what = f"audit sample incomplete ({_progress(known)} answers labelled)"
    else:
        what = "no audit labels yet (`halgate review RUN` lists the audit sample)"
    blocks = policy.require_review_before_pass and bool(waiting or not known)
    return GateReason(
        rule="gate_on_corrected",
        status=GateStatus.NEEDS_REVIEW if blocks else GateStatus.PASSED,
        why=f"{len(waiting)} audit answer(s) to label" if waiting else "no audit labels yet",
        observed=len(waiting),
        claim_ids=waiting,
        message=f"{what}: gating on the judge's figures until every sampled answer is labelled"
        + (f": {', '.join(waiting[:20])}" if waiting else "")
        + (f" and {len(waiting) - 20} more" if len(waiting) > 20 else ""),
    )
