"""The prediction-powered estimator on small inputs computed by hand (scoring/corrected.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.models import AuditInput, Case
from halgate.scoring.corrected import (
    CHANGE_PSEUDO,
    corrected_change,
    corrected_rate,
    paired_change,
    ppi_mean,
    t_quantile,
)

from ..conftest import claim
from .conftest import analysis

T4 = t_quantile(0.95, 4)
CLASSIC = Policy(power_tuning=False)  # λ = 1: the figures below are classic PPI's


@pytest.mark.parametrize(
    ("f_all", "f_lab", "y_lab", "estimate", "std_error", "low", "high", "rectifier"),
    [
        # no label: nothing to correct with
        ([1, 0, 0, 0], [], [], None, None, None, None, None),
        # one label: 1/4 - 1 = -0.75, cut to 0; no interval from one label
        ([1, 0, 0, 0], [1], [0], 0.0, None, None, None, -1.0),
        # the judge agrees on the 5 audited: rectifier 0, estimate = judge rate 0.2;
        # Var = 0/5 + (2 * Cov(f, y) = 2 * 0.3 - Var(f) = 1.6/9) / 10 = 0.042222
        # (without pseudo-labels, which keep a real interval: test_ppi_reference.py)
        (
            [1, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            [1, 0, 1, 0, 0],
            [1, 0, 1, 0, 0],
            0.2,
            math.sqrt(0.6 - 1.6 / 9) / math.sqrt(10),
            0.0,
            0.2 + T4 * math.sqrt((0.6 - 1.6 / 9) / 10),
            0.0,
        ),
        # every answer audited (n = N = 4): estimate = mean(y) = 0.25 and the standard error
        # is the plain sd(y) / sqrt(N) = sqrt(0.25 / 4) = 0.25; 0.25 ± 3.16 * 0.25 is cut to [0, 1]
        ([1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 0, 0], 0.25, 0.25, 0.0, 1.0, -0.25),
    ],
)
def test_ppi_mean(f_all, f_lab, y_lab, estimate, std_error, low, high, rectifier):
    got = ppi_mean(f_all, f_lab, y_lab, lam=1.0, pseudo=False)  # the classic formula
    assert got.estimate == pytest.approx(estimate)
    assert got.std_error == pytest.approx(std_error)
    assert got.rectifier == pytest.approx(rectifier)
    assert got.low == pytest.approx(low, abs=1e-3) and got.high == pytest.approx(high, abs=1e-3)


def test_t_quantile_is_students_t():
    exact = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 9: 2.262, 29: 2.045, 1000: 1.962}
    for df, t in exact.items():
        assert t_quantile(0.95, df) == pytest.approx(t, rel=0.01)


# ---------------------------------------------------------------- through the answer records

CASES = [Case(case_id=f"c{i}", question="q") for i in range(1, 8)] + [
    Case(case_id="c8", question="q", tags=["should-abstain"])
]


def _answers(system: str, hallucinated: set[str], abstained: set[str] = frozenset()):
    out = []
    for case in CASES:
        cid = case.case_id
        if cid in abstained:
            out.append(analysis(cid, system, [], abstention="refusal"))
            continue
        verdict = "UNSUPPORTED" if cid in hallucinated else "SUPPORTED"
        out.append(analysis(cid, system, [claim(verdict, "FABRICATION", "LOW")]))
    return out


def _audit(sample, labels, judged=None) -> AuditInput:
    return AuditInput(
        sample={"candidate": sample}, labels={"candidate": labels}, judged=judged or {}
    )


def test_corrected_rate_counts_rated_answers_labels_and_the_judges_precision_recall():
    # Judge: c1 c2 c3 hallucinated, c4-c6 not; c7 abstains (not rated); c8 should-abstain and
    # answered: hallucinated by rule. N = 7 rated answers, judge rate 4/7.
    analyses = _answers("candidate", {"c1", "c2", "c3"}, abstained={"c7"})
    audit = _audit(
        ["c1", "c4", "c5", "c7", "c8"],
        {"c1": False, "c4": False, "c5": True},
        {"candidate": {"c1": True, "c4": False, "c5": False, "c8": True}},
    )
    r = corrected_rate(analyses, CASES, "candidate", CLASSIC, audit)
    assert (r.n_answers, r.n_sample, r.n_labelled, r.n_by_rule) == (7, 4, 4, 1)
    assert r.judge_rate == pytest.approx(4 / 7) and r.complete
    # rectifiers: c1 0-1, c4 0, c5 1-0, c8 rule 0 -> mean 0: estimate = judge rate
    assert r.rectifier == 0 and r.estimate == pytest.approx(4 / 7)
    # judge flagged c1 (reviewer: no); reviewer flagged c5 (judge: no); c8 is the rule's
    assert (r.judge_precision, r.judge_recall) == (0.0, 0.0)
    assert r.unlabelled == []


def test_an_unlabelled_answer_makes_the_audit_incomplete_and_is_named():
    analyses = _answers("candidate", {"c1"})
    r = corrected_rate(analyses, CASES, "candidate", CLASSIC, _audit(["c1", "c2"], {"c1": True}))
    assert not r.complete and (r.n_sample, r.n_labelled) == (2, 1)
    assert r.unlabelled == ["audit:c2:candidate"]
    assert r.estimate == pytest.approx(2 / 8) and r.ci_low is None  # one label, no interval


def test_change_is_paired_when_both_systems_count_and_label_the_same_cases():
    analyses = _answers("baseline", {"c1"}) + _answers("candidate", {"c1", "c2", "c3"})
    sample = ["c1", "c2", "c3", "c4"]
    audit = AuditInput(
        sample={"baseline": sample, "candidate": sample},
        labels={
            "baseline": {"c1": True, "c2": False, "c3": False, "c4": False},
            "candidate": {"c1": True, "c2": True, "c3": False, "c4": False},
        },
    )
    b = corrected_rate(analyses, CASES, "baseline", CLASSIC, audit)
    c = corrected_rate(analyses, CASES, "candidate", CLASSIC, audit)
    ch = corrected_change(analyses, CASES, b, c, CLASSIC, audit)
    assert ch.paired and ch.n_cases == 8 and ch.complete
    assert ch.judge_change == pytest.approx(2 / 8)
    # per case g = f_c - f_b = (0, 1, 1, 0, ...), d = y_c - y_b = (0, 1, 0, 0) on the audit
    assert ch.estimate == pytest.approx(2 / 8 + (0 + 0 - 1 + 0) / 4)
    assert ch.estimate == pytest.approx(c.estimate - b.estimate)
    assert ch.ci_low is not None and ch.ci_low < ch.estimate < ch.ci_high


def test_change_stays_paired_when_one_side_abstains_with_a_known_zero_there():
    # The baseline abstains on c4: it rates 7 cases, the candidate all 8, U = the 8. Weights
    # |U|/|R|: baseline 8/7, candidate 1. Judge: both flag c1, and c8 (should-abstain,
    # answered) by rule. Per case over U, g = z(f_c) - z(f_b): c1 and c8 1 - 8/7 = -1/7,
    # else 0: mean(g) = -1/28 = 2/8 - 2/7, the judges' change.
    analyses = _answers("baseline", {"c1"}, abstained={"c4"}) + _answers("candidate", {"c1"})
    audit = AuditInput(
        sample={"baseline": ["c1", "c2", "c3"], "candidate": ["c1", "c2", "c3", "c4"]},
        labels={
            "baseline": {"c1": True, "c2": False, "c3": False},
            "candidate": {"c1": True, "c2": False, "c3": True, "c4": False},
        },
        order=["c1", "c2", "c3", "c4"],
    )
    b = corrected_rate(analyses, CASES, "baseline", CLASSIC, audit)
    c = corrected_rate(analyses, CASES, "candidate", CLASSIC, audit)
    ch = corrected_change(analyses, CASES, b, c, CLASSIC, audit)
    assert ch.paired and (ch.n_cases, ch.n_one_sided, ch.n_labelled) == (8, 1, 4)
    # labelled c1..c4: d = z(y_c) - z(y_b) = (1 - 8/7, 0, 1, 0 - nothing), g = (-1/7, 0, 0, 0)
    # rectifier d - g = (0, 0, 1, 0): estimate -1/28 + 1/4 = 3/14 (here = c - b: 1/2 - 2/7)
    assert ch.estimate == pytest.approx(3 / 14) and c.estimate - b.estimate == pytest.approx(3 / 14)
    # variance: the rectifier with two pseudo-disagreements each way, (0, 0, 1, 0, 1, -1, 1,
    # -1): Var = 39/56, over n = 4; the judge part 2Cov(g, d) - Var(g) < 0 counts 0
    assert ch.std_error == pytest.approx(math.sqrt(39 / 56 / 4))
    assert ch.std_error < math.hypot(b.std_error, c.std_error)  # the old independent fallback


def test_change_is_independent_only_when_under_two_cases_are_labelled_on_every_side():
    analyses = _answers("baseline", {"c1"}, abstained={"c4"}) + _answers("candidate", {"c1"})
    audit = AuditInput(
        sample={"baseline": ["c1", "c2", "c3"], "candidate": ["c1", "c2", "c3", "c4"]},
        labels={  # only c4 (the baseline's abstention) is labelled on every side rating it
            "baseline": {"c1": True, "c2": False},
            "candidate": {"c3": True, "c4": False},
        },
    )
    b = corrected_rate(analyses, CASES, "baseline", CLASSIC, audit)
    c = corrected_rate(analyses, CASES, "candidate", CLASSIC, audit)
    ch = corrected_change(analyses, CASES, b, c, CLASSIC, audit)
    assert not ch.paired and ch.n_cases == 0
    assert ch.estimate == pytest.approx(c.estimate - b.estimate)
    assert ch.std_error == pytest.approx(math.hypot(b.std_error, c.std_error))


def test_paired_change_is_the_old_paired_ppi_when_both_rate_every_case():
    f_b, f_c = np.array([1.0, 0, 0, 1, 0, 0]), np.array([1.0, 1, 0, 1, 0, 1])
    y_b, y_c, idx = np.array([1.0, 0, 0]), np.array([1.0, 1, 1]), [0, 1, 2]
    g = f_c - f_b
    old = ppi_mean(g, g[idx], y_c - y_b, bounds=(-1.0, 1.0), pseudo=CHANGE_PSEUDO)
    assert paired_change(f_b, f_c, y_b, y_c, idx) == old  # bit for bit


def test_paired_change_weights_the_judge_sample_noise_by_each_sides_share():
    # U = 4 cases, the baseline rates 3 (weight 4/3), the candidate 4 (weight 1): the noise
    # term is λ² (4/3 · 0.03 + 1 · 0.06) / 4 = 0.025 at λ = 1
    f_b, f_c = np.array([1.0, 0, math.nan, 0]), np.array([1.0, 1, 0, 0])
    y_b, y_c, idx = np.array([1.0, 0, math.nan]), np.array([1.0, 1, 0]), [0, 1, 2]
    quiet = paired_change(f_b, f_c, y_b, y_c, idx, lam=1.0)
    noisy = paired_change(f_b, f_c, y_b, y_c, idx, lam=1.0, noise=(0.03, 0.06))
    assert quiet.std_error is not None and noisy.std_error is not None
    assert noisy.std_error**2 - quiet.std_error**2 == pytest.approx(0.025)
    # labels agree with the judge: the estimate is the judges' change, 2/4 - 1/3
    assert noisy.estimate == quiet.estimate == pytest.approx(1 / 6)


def test_the_pairing_cuts_the_drawn_cases_at_its_own_looks_in_draw_order():
    # audit_sample 2 of 8 eligible cases: looks at 2, 4 and 8 cases. Six cases drawn and
    # labelled; the baseline abstains on c3, so the baseline has 5 drawn answers (its own
    # look: 4 answers, c1 c2 c4 c5) and the candidate 6 (c1-c4). The pairing counts cases of
    # U in draw order: 6 reach the look at 4, so it reads c1-c4 (c3 with the baseline's 0).
    policy = Policy(power_tuning=False, audit_sample=2)
    analyses = _answers("baseline", {"c1"}, abstained={"c3"}) + _answers("candidate", {"c2"})
    order = ["c1", "c2", "c3", "c4", "c5", "c6"]
    audit = AuditInput(
        sample={"baseline": [c for c in order if c != "c3"], "candidate": order},
        labels={
            "baseline": dict.fromkeys(order, False),
            "candidate": {c: c not in ("c1", "c4") for c in order},
        },
        order=order,
    )
    b = corrected_rate(analyses, CASES, "baseline", policy, audit)
    c = corrected_rate(analyses, CASES, "candidate", policy, audit)
    assert (b.n_labelled, b.beyond_look, c.n_labelled, c.beyond_look) == (4, 1, 4, 2)
    ch = corrected_change(analyses, CASES, b, c, policy, audit)
    assert ch.paired and (ch.n_cases, ch.n_one_sided, ch.n_labelled) == (8, 1, 4)
    # on c1-c4, g = (0 - 8/7, 1, 0, 0) and d = (0, 1, 1, 0): rectifier mean (8/7 + 1) / 4 =
    # 15/28; mean(g) over U, the judges' change 2/8 - 2/7 = -1/28: estimate 1/2 (with c5 and
    # c6, past the look, it would be 2/8 - 2/7 + (8/7 + 3) / 6)
    assert ch.estimate == pytest.approx(1 / 2)
    # its schedule is its own, in cases of U: looks 2, 4, 8 of the 8; c5 and c6 past the look
    # at 4 (the systems' own counts: 1 and 2). Ahead, c7 has one of its two answers still to
    # label and c8 (should-abstain) none: 1 answer to the last look (every case); a hand-made
    # input that says nothing of what lies ahead counts one answer a case (2)
    assert (ch.first_look, ch.eligible, ch.beyond_look) == (2, 8, 2)
    assert ch.answers_to_looks == [0, 0, 2]
    ahead = audit.model_copy(update={"ahead": [1, 0], "ahead_cases": ["c7", "c8"]})
    assert corrected_change(analyses, CASES, b, c, policy, ahead).answers_to_looks == [0, 0, 1]
    # each system's own looks, in its answers: the baseline skips c3, so its last look is
    # its 7 answers, not the 8 cases (a look it could never reach)
    assert (b.first_look, b.eligible, c.first_look, c.eligible) == (2, 7, 2, 8)


def test_the_projected_standard_error_is_that_of_the_same_labels_repeated():
    """``std_error_at``: the standard error m labels of the same shares would give, what
    'label N more' projects from (the pseudo-labels stay as many; Var(f)/N stays)."""
    rng = np.random.default_rng(5)
    f = (rng.random(300) < 0.2).astype(float)
    fl = f[:30]
    yl = np.where(rng.random(30) < 0.1, 1 - fl, fl)
    for lam in (None, 1.0):
        est = ppi_mean(f, fl, yl, lam=lam, at=(30, 60, 120, 300))
        assert est.std_error_at[0] == pytest.approx(est.std_error, rel=1e-12)
        for times, projected in zip((2, 4, 10), est.std_error_at[1:], strict=True):
            tiled = ppi_mean(f, np.tile(fl, times), np.tile(yl, times), lam=lam)
            assert projected == pytest.approx(tiled.std_error, rel=1e-9)
    # reviewers who agree on every answer: the cases' own sampling (Var(f)/N) stays, far
    # above what σ·√(n/m) promises at m = N
    agreed = ppi_mean(f, fl, fl, at=(300,))
    assert agreed.std_error is not None
    assert agreed.std_error_at[0] > 1.4 * agreed.std_error * np.sqrt(30 / 300)
    assert agreed.std_error_at[0] == pytest.approx(np.sqrt(f.var(ddof=1) / 300), rel=0.1)
