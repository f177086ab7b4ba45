"""Review-corrected claim-type rates: fabrications and contradictions per claim, corrected by
the same audit sample as the answers with a hallucination (``corrected``).

The gate's fabrication and contradiction limits read pooled claim rates: claims of the type /
claims, over the answers that did not abstain. The audit labels whole answers, not claim
types, so what a label says of an answer's true count y of the type is:

- FAITHFUL: the answer has no hallucinated claim, so none of the type: y = 0 (the judge's
  false alarms there are removed);
- HALLUCINATED where the judge (effective verdicts) found hallucinated claims: y = the count
  of the type among them (a reviewer who sees a wrong type fixes it with a claim override);
- HALLUCINATED where the judge found none (a miss): the type is nobody's record. y lies
  between 0 and 1: the low end of the interval counts it 0, the high end 1 (the least a
  hallucinated answer holds), so the interval covers the truth whatever the type is
  (partial identification, Manski's bounds);
- an answer to a should-abstain case is labelled by rule: y = the judge's count.

Claims per answer m are known for every rated answer, so the rate is R = mean_N(y) / mean_N(m),
and mean_N(y) is estimated as in ``corrected`` at λ = 1 (classic PPI): mean_N(f) +
mean_n(y − f), f the judge's count. Its delta-method variance, with g = f − R·m over the N
and r = y − f over the n labelled (a simple random sample of the N),

    Var(R̂) · mean_N(m)² = (Var(g) + 2 Cov(g, r)) / N + Var(r) / n

(at m = 0 it is ``corrected``'s formula at λ = 1). No power tuning here: λ tuned on the
labelled counts of a rare type under-covered in simulation (5-7 % of audits of 30 missed
high, against 2.5 % allowed), because a sample with few hallucinations makes both the tuned
λ and the variance small together; at λ = 1 coverage is 0.98-1.00. Var(r) carries the same
two pseudo-labels (one disagreement each way) so agreeing labels never give a zero width,
and the quantile is the sequential audit's at the look reached (``looks``), t with n − 1
degrees of freedom.
Coverage by simulation: ``tests/scoring/coverage/test_corrected_types.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, NamedTuple

import numpy as np

from ..inputs.policy import Policy
from ..models import AnswerAnalysis, AuditInput, Case, CorrectedTypeRate
from .corrected import normal_interval, system_labels
from .intervals import t_quantile
from .looks import level_at
from .metrics import abstained, ratio

TypeKind = Literal["fabrication", "contradiction"]


class RatioEstimate(NamedTuple):
    """A corrected pooled rate: estimate and standard error (None below 2 labels)."""

    estimate: float
    std_error: float | None


def ppi_ratio(
    f_all: Sequence[float],
    m_all: Sequence[float],
    labelled: Sequence[int],
    y_labelled: Sequence[float],
) -> RatioEstimate | None:
    """mean_N(y) / mean_N(m) from the judge's counts ``f_all`` of every item, the known
    denominators ``m_all``, and the true counts ``y_labelled`` of the items at ``labelled``
    (indices into the N); module doc. None without labels or claims."""
    f, m = np.asarray(f_all, dtype=float), np.asarray(m_all, dtype=float)
    idx, y = np.asarray(labelled, dtype=int), np.asarray(y_labelled, dtype=float)
    big_n, n = len(f), len(y)
    if n == 0 or m.sum() == 0:
        return None
    fl = f[idx]
    fp, yp = np.concatenate([fl, [0, 1]]), np.concatenate([y, [1, 0]])  # corrected's pseudo
    m_bar = float(m.mean())
    rate = float((f.mean() + (y - fl).mean()) / m_bar)
    if n < 2:
        return RatioEstimate(rate, None)
    g = f - rate * m
    r = y - fl
    var_r = float((yp - fp).var(ddof=1))
    cov_gr = float(np.cov(g[idx], r, ddof=1)[0, 1])
    var = max(0.0, float(g.var(ddof=1)) + 2 * cov_gr) / big_n + var_r / n
    return RatioEstimate(rate, math.sqrt(var) / m_bar)


def type_count(analysis: AnswerAnalysis, kind: TypeKind) -> int:
    """The answer's claims counted by its ``{kind}_rate`` (effective verdicts); 0 when it
    abstained (an abstention holds no claim the rate counts)."""
    if abstained(analysis):
        return 0
    return round((getattr(analysis, f"{kind}_rate") or 0.0) * len(analysis.claims))


def _claims(analysis: AnswerAnalysis) -> int:
    return 0 if abstained(analysis) else len(analysis.claims)


def corrected_type_rate(
    analyses: Sequence[AnswerAnalysis],
    cases: Sequence[Case],
    system: str,
    kind: TypeKind,
    policy: Policy,
    audit: AuditInput,
) -> CorrectedTypeRate:
    """One system's ``kind`` rate corrected by its audit labels (module doc)."""
    lab = system_labels(analyses, cases, system, policy, audit)
    by_case = {a.case_id: a for a in analyses if a.system == system and a.case_id in lab.judge}
    order = list(lab.judge)
    f = [type_count(by_case[c], kind) for c in order]
    m = [_claims(by_case[c]) for c in order]
    where = {c: i for i, c in enumerate(order)}
    labelled = list(lab.truth)
    idx = [where[c] for c in labelled]
    unknown = [lab.truth[c] == 1 and lab.judge[c] == 0 for c in labelled]
    low_y = [f[where[c]] * lab.truth[c] for c in labelled]  # FAITHFUL: 0; else the judge's
    high_y = [y + u for y, u in zip(low_y, unknown, strict=True)]
    k, total = lab.looks.first, lab.looks.total  # its system's own looks
    level = level_at(policy.confidence, k, total, len(labelled))
    low = ppi_ratio(f, m, idx, low_y)
    high = ppi_ratio(f, m, idx, high_y)
    q = t_quantile(level, len(labelled) - 1) if len(labelled) > 1 else 0.0
    ends = span_interval(low, high, q)
    return CorrectedTypeRate(
        system=system,
        kind=kind,
        judge_rate=ratio(sum(f), sum(m)),
        n_claims=sum(m),
        n_labelled=len(labelled),
        n_unknown=sum(unknown),
        estimate=_midpoint(low, high),
        ci_low=ends[0],
        ci_high=ends[1],
        confidence=policy.confidence,
        first_look=k,
        eligible=total,
        beyond_look=lab.beyond_look,
        complete=len(labelled) == len(lab.sample),
    )


def _midpoint(low: RatioEstimate | None, high: RatioEstimate | None) -> float | None:
    """The point estimate: halfway between the two readings of the unknown types, a rate."""
    if low is None or high is None:
        return None
    return min(1.0, max(0.0, (low.estimate + high.estimate) / 2))


def span_interval(
    low: RatioEstimate | None, high: RatioEstimate | None, quantile: float
) -> tuple[float | None, float | None]:
    """The interval from the low end of the estimate with the unknown types counted 0 to the
    high end of the one with them counted 1."""
    if low is None or high is None or low.std_error is None or high.std_error is None:
        return None, None
    lo = normal_interval(low.estimate, low.std_error, quantile, (0.0, 1.0))[0]
    hi = normal_interval(high.estimate, high.std_error, quantile, (0.0, 1.0))[1]
    return lo, hi
