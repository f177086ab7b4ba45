"""Every metric of DESIGN.md §3, including the edge cases."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.offline.judge import OfflineJudge
from halgate.models import AnswerAnalysis, Verdict
from halgate.run.engine import run_suite
from halgate.scoring import resampled
from halgate.scoring.metrics import (
    answer_metrics,
    bootstrap_interval,
    count_verdicts,
    hallucination_rate,
    paired_bootstrap,
    paired_bootstraps,
    system_rates,
)
from halgate.scoring.resampled import _resampled_sums, resample_draws, resampled_sums
from hypothesis import given, settings
from hypothesis import strategies as st

from ..conftest import EXAMPLE_SUITE, claim

S, P, U, C, OOS = (
    Verdict.SUPPORTED,
    Verdict.PARTIALLY_SUPPORTED,
    Verdict.UNSUPPORTED,
    Verdict.CONTRADICTED,
    Verdict.OUT_OF_SCOPE,
)


def claims(*verdicts, htype=None):
    return [claim(v, htype, index=i) for i, v in enumerate(verdicts)]


@pytest.mark.parametrize(
    "verdicts, count_oos, expected",
    [
        ((), False, None),  # no claims: null, never 0/0 = 0
        ((S, S, S), False, 0.0),
        ((C, C), False, 1.0),
        ((U, S, S, S), False, 0.25),
        ((OOS, S), False, 0.0),  # out of scope not counted by default
        ((OOS, S), True, 0.5),
        ((P, S), False, 0.0),  # partial support is not a hallucination
    ],
)
def test_hallucination_rate(verdicts, count_oos, expected):
    assert hallucination_rate(count_verdicts(claims(*verdicts)), count_oos) == expected


@pytest.mark.parametrize(
    "verdicts, expected",
    [
        ((), None),
        ((S, S), 1.0),
        ((S, P), 0.75),
        ((P, P), 0.5),
        ((C, U), 0.0),
        ((S, P, U, C), 0.375),
    ],
)
def test_consistency_score_counts_partial_as_half(verdicts, expected):
    assert answer_metrics(claims(*verdicts))["consistency_score"] == expected


def test_answer_metrics_types_and_flag():
    cs = [
        claim(U, "FABRICATION", index=0),
        claim(C, "DISTORTION", index=1),
        claim(S, index=2),
        claim(S, index=3),
    ]
    m = answer_metrics(cs)
    assert m["fabrication_rate"] == 0.25
    assert m["contradiction_rate"] == 0.25
    assert m["hallucination_flag"] is True
    # Defined as the answer-level rate's test: a fully fabricated answer is flagged too.
    assert answer_metrics(claims(U))["hallucination_flag"] is True
    assert answer_metrics(claims(S))["hallucination_flag"] is False
    oos = claims("OUT_OF_SCOPE")
    assert answer_metrics(oos)["hallucination_flag"] is False
    assert answer_metrics(oos, count_out_of_scope=True)["hallucination_flag"] is True
    assert answer_metrics([])["fabrication_rate"] is None


def analysis(case_id, system, *verdicts, harness_error=None):
    cs = [claim(v, case_id=case_id, system=system, index=i) for i, v in enumerate(verdicts)]
    return AnswerAnalysis(
        case_id=case_id, system=system, claims=cs, harness_error=harness_error, **answer_metrics(cs)
    )


def test_system_rates_micro_macro_answer_level():
    analyses = [
        analysis("a", "x", U, S, S, S),  # 0.25
        analysis("b", "x", S, S),  # 0.0
        analysis("c", "x"),  # no claims: an abstention, in no hallucination rate
        analysis("d", "x", C, C, C, C, C, C),  # 1.0
        analysis("e", "x", U, harness_error="boom"),  # excluded entirely
        analysis("a", "y", U),  # other system
    ]
    r = system_rates(analyses, "x")
    assert r.n_answers == 4 and r.n_claims == 12
    assert r.micro_rate == pytest.approx(7 / 12)
    assert r.macro_rate == pytest.approx((0.25 + 0.0 + 1.0) / 3)
    assert r.answer_level_rate == pytest.approx(2 / 3)  # a and d of a, b, d
    assert r.n_rated_answers == 3 and r.n_hallucinated_answers == 2
    assert r.abstention_rate == 0.25 and r.n_abstained == 1
    assert r.abstention_reasons == {"no checkable claim": 1}
    assert r.contradiction_rate == pytest.approx(6 / 12)


def test_system_rates_all_empty_is_null():
    r = system_rates([analysis("a", "x")], "x")
    assert r.micro_rate is None and r.macro_rate is None and r.answer_level_rate is None
    assert r.abstention_rate == 1.0 and r.answer_level_interval is None


def test_paired_bootstrap_is_reproducible_and_brackets_estimate():
    base = [(0, 4), (1, 5), (0, 3), (0, 4), (1, 6)] * 4
    cand = [(2, 4), (2, 5), (1, 3), (0, 4), (3, 6)] * 4
    a = paired_bootstrap(base, cand, resamples=1000, seed=7)
    b = paired_bootstrap(base, cand, resamples=1000, seed=7)
    assert a == b
    assert a.estimate == pytest.approx(8 / 22 - 2 / 22)
    assert a.ci_low < a.estimate < a.ci_high
    assert a.ci_low > 0  # a clear regression has an interval above zero


def test_paired_bootstrap_identical_systems_interval_is_zero():
    same = [(1, 4), (0, 2), (2, 5)]
    r = paired_bootstrap(same, same, resamples=500, seed=1)
    assert r.estimate == 0.0 and r.ci_low == 0.0 and r.ci_high == 0.0


def test_paired_bootstrap_without_claims_is_null():
    r = paired_bootstrap([(0, 0)], [(0, 0)], resamples=200, seed=1)
    assert r.estimate is None and r.ci_low is None


def test_policy_defaults_documented():
    p = Policy()
    assert p.max_rate_increase == 0.05 and p.count_out_of_scope is False
    assert [s.value for s in p.review_severities] == ["CRITICAL", "HIGH"]


@pytest.mark.parametrize(
    "p, r, expected", [(0.5, 0.5, 0.5), (1.0, 0.0, 0.0), (0.0, 0.0, None), (None, 0.5, None)]
)
def test_f1_score(p, r, expected):
    from halgate.scoring.metrics import f1_score

    assert f1_score(p, r) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 2**40), st.integers(0, 2**40)) | st.tuples(st.just(0), st.just(0)),
        min_size=1,
        max_size=30,
    )
    | st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50)), min_size=1, max_size=30),
    st.integers(0, 2**32 - 1),
)
def test_resampled_sums_are_the_sums_of_the_drawn_rows(rows, seed):
    """Packed or not, each resample's sums are exactly those of the rows it drew."""
    x = np.asarray(rows, dtype=np.int64)
    idx = np.random.default_rng(seed).integers(0, len(x), size=(7, len(x)), dtype=np.int32)
    num, den = _resampled_sums(x, idx)
    assert num.tolist() == [int(x[r, 0].sum()) for r in idx]
    assert den.tolist() == [int(x[r, 1].sum()) for r in idx]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(*(st.integers(0, 2**20) for _ in range(4))) | st.tuples(*([st.just(0)] * 4)),
        min_size=1,
        max_size=30,
    )
    | st.lists(st.tuples(*(st.integers(0, 50) for _ in range(4))), min_size=1, max_size=30),
    st.integers(0, 2**32 - 1),
)
def test_four_columns_packed_or_not_sum_exactly(rows, seed):
    """Baseline and candidate counts travel in one word when they fit 16 bits each, else two
    by two or apart: the sums are always those of the rows drawn."""
    x = np.asarray(rows, dtype=np.int64)
    idx = np.random.default_rng(seed).integers(0, len(x), size=(7, len(x)), dtype=np.int32)
    sums = _resampled_sums(x, idx)
    assert [s.tolist() for s in sums] == [[int(x[r, j].sum()) for r in idx] for j in range(4)]


def _paired_by_hand(base, cand, resamples, seed):
    """The paired bootstrap written out: draw cases, sum each system's rows, take quantiles."""
    b, c = np.asarray(base), np.asarray(cand)
    rng = np.random.default_rng(seed)
    diffs = []
    for start in range(0, resamples, 250):
        draw = rng.integers(0, len(b), size=(min(250, resamples - start), len(b)), dtype=np.int32)
        for r in draw:
            bb, cc = b[r].sum(axis=0), c[r].sum(axis=0)
            if bb[1] and cc[1]:
                diffs.append(cc[0] / cc[1] - bb[0] / bb[1])
    return [float(v) for v in np.quantile(diffs, [0.025, 0.975])]


def test_measures_bootstrapped_together_are_each_as_if_alone():
    rng = np.random.default_rng(5)
    n = 300
    answers = [
        [(int(rng.random() < p), 1) for _ in range(n)] for p in (0.2, 0.3)
    ]  # 0/1 counts: four columns packed in one word
    claims = [[(int(rng.integers(0, 3)), 3) for _ in range(n)] for _ in range(2)]
    big = [[(int(rng.integers(0, 400)), 400) for _ in range(n)] for _ in range(2)]  # > 16 bits
    none = [[(0, 0)] * n, [(0, 0)] * n]  # no denominator: no interval
    measures = {"answers": answers, "claims": claims, "big": big, "none": none}
    together = paired_bootstraps({m: (b, c) for m, (b, c) in measures.items()}, 600, 11)
    for m, (b, c) in measures.items():
        alone = paired_bootstrap(b, c, 600, 11)
        assert together[m] == alone
        if m == "none":
            assert alone.ci_low is None and alone.estimate is None
        else:
            assert [alone.ci_low, alone.ci_high] == pytest.approx(
                _paired_by_hand(b, c, 600, 11), abs=1e-12
            )


@pytest.mark.parametrize("resamples", [0, 1, 249, 250, 251, 2000])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_draws_made_ahead_in_a_thread_are_the_draws_of_a_plain_loop(resamples, dtype):
    rng = np.random.default_rng(7)
    plain = [
        rng.integers(0, 37, size=(min(250, resamples - s), 37), dtype=dtype)
        for s in range(0, resamples, 250)
    ]
    ahead = list(resample_draws(7, 37, resamples, dtype))
    assert len(ahead) == len(plain)
    assert all(a.dtype == dtype and np.array_equal(a, p) for a, p in zip(ahead, plain, strict=True))


def test_bootstrap_without_a_defined_resample_is_null_not_an_error():
    # 20 answers without claims and one with: seed 1's single resample misses that one,
    # so no resampled rate is defined; no resamples at all defines none either.
    pairs = [(0, 0)] * 20 + [(1, 2)]
    assert not (np.random.default_rng(1).integers(0, 21, size=(1, 21)) == 20).any()
    assert bootstrap_interval(pairs, 1, 1) is None
    assert bootstrap_interval(pairs, 0, 1) is None
    found = bootstrap_interval(pairs, 2000, 1)
    assert found is not None and found.low == 0.5 and found.high == 0.5


# Issue #31 item 3: an overturn moves the kept bootstrap sums by the changed rows instead of
# gathering 20 million rows again; the sums equal a fresh gather to the last bit.


def _gathered(x: np.ndarray, seed: int, resamples: int) -> list[np.ndarray]:
    chunks = [_resampled_sums(x, idx) for idx in resample_draws(seed, len(x), resamples, np.int32)]
    return [np.concatenate([c[j] for c in chunks]) for j in range(x.shape[1])]


def test_sums_moved_by_changed_rows_equal_a_fresh_gather(monkeypatch):
    monkeypatch.setattr(resampled, "_MIN_ROWS", 10)
    monkeypatch.setattr(resampled, "_KEPT", type(resampled._KEPT)())
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(400, 4)).astype(np.int64)
    first = resampled_sums({"m": x}, 11, 600, np.int32)["m"]
    assert all(np.array_equal(a, b) for a, b in zip(first, _gathered(x, 11, 600), strict=True))
    kept = resampled._KEPT[(11, 400, 600, np.dtype(np.int32).str)]
    calls: list[int] = []
    real = resampled._gather

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(resampled, "_gather", counted)
    for step in range(5):  # one row, then several, then the same counts again
        y = x.copy()
        y[rng.integers(0, 400, size=1 + step * 3)] = rng.integers(0, 5, size=4)
        moved = resampled_sums({"m": y, "same": x}, 11, 600, np.int32)
        assert calls == []  # moved, not gathered
        want = _gathered(y, 11, 600)
        assert all(np.array_equal(a, b) for a, b in zip(moved["m"], want, strict=True))
        assert all(np.array_equal(a, b) for a, b in zip(moved["same"], first, strict=True))
        x, first = y, moved["m"]
    assert kept.times.sum(axis=1).tolist() == [400] * 600  # each resample drew 400 rows


def test_a_block_that_keeps_no_draws_gives_the_same_sums_and_counts_none(monkeypatch):
    monkeypatch.setattr(resampled, "_MIN_ROWS", 10)
    monkeypatch.setattr(resampled, "_KEPT", type(resampled._KEPT)())
    x = np.random.default_rng(5).integers(0, 5, size=(400, 2)).astype(np.int64)
    with resampled.draws_not_kept():  # a run's first derivation
        inside = resampled_sums({"m": x}, 11, 600, np.int32)["m"]
    assert not resampled._KEPT
    outside = resampled_sums({"m": x}, 11, 600, np.int32)["m"]  # a review's derivation
    assert resampled._KEPT  # kept for the overturns that follow
    assert all(np.array_equal(a, b) for a, b in zip(inside, outside, strict=True))


def test_a_run_counts_no_draws(monkeypatch):
    monkeypatch.setattr(resampled, "_MIN_ROWS", 1)
    monkeypatch.setattr(resampled, "_KEPT", type(resampled._KEPT)())
    report = run_suite(load_suite(EXAMPLE_SUITE), OfflineJudge(), Policy())
    assert report.rates and not resampled._KEPT
