"""A stratified audit against the product's simple random one (issue #33 item 4), measured.

Release pairs of N cases as in ``tests/scoring/test_gate_simulation.py`` (judges biased high,
rarely wrong, near-perfect). Modes:

- ``srs``: the product: a simple random audit of n cases, paired PPI++ (``ppi_mean``);
- ``prop``: strata by the judge's verdicts (f_baseline, f_candidate), n allocated in
  proportion, estimate mean_N(g) + sum_h W_h mean_h(d - g);
- ``oracle``: the same with Neyman allocation on the true within-stratum sd (an upper bound
  for any allocation rule);
- ``flagged``: Neyman on a guess (strata with a flag 3x the sd of the clean one).

The stratified variance is Var(d)/N (the cases' own sampling) plus
sum_h W_h^2 (1 - n_h/N_h) s_h^2 / n_h, with the simple random audit's two pseudo-labels
shared among the strata by weight (the same small-sample floor). Printed: coverage of the
true change, share FAILED against a 5-point limit, mean width.

Run: ``nice .venv/bin/python tests/bench/bench_stratified_audit.py 300 srs,prop,oracle 60
0.0,0.10``. Measured (300 cases, 400 audits, the product's floor of ``CHANGE_PSEUDO``
pseudo-labels each way, shared by weight): no stratified mode is narrower than ``srs`` (30
labels: 0.295-0.401 against 0.251-0.314; 60: 0.148-0.235 against 0.144-0.209); earlier, at
one each way: 60 labels 0.119-0.216 against 0.118-0.201, and without the floor they were
narrower but covered 0.92 at no change. So the product keeps the simple random audit.
"""

import sys

import numpy as np
from halgate.scoring.corrected import CHANGE_PSEUDO, ppi_mean
from halgate.scoring.intervals import t_quantile
from halgate.scoring.looks import level_at

JUDGES = {
    "biased high": (0.85, 0.19, 0.26),
    "rarely wrong": (0.95, 0.03, 0.04),
    "near-perfect": (0.995, 0.005, 0.005),
}
LIMIT = 0.05
FLAGGED_SD = np.array([0.2, 0.6, 0.6, 0.6])  # strata (0,0), (0,1), (1,0), (1,1)


def truth(rng, n_cases, change, base=0.12):
    tb = rng.random(n_cases) < base
    tc = np.where(rng.random(n_cases) < 0.7, tb, rng.random(n_cases) < base)
    tc |= rng.random(n_cases) < change / (1 - base)
    return tb.astype(float), tc.astype(float)


def read(rng, t, recall, alarms):
    u = rng.random(len(t))
    return np.where(t == 1, u < recall, u < alarms).astype(float)


def allocate(sizes, sds, n):
    """n labels over the strata in proportion to size x sd, at least 2 each, at most all."""
    w = sizes * sds
    w = w / w.sum() if w.sum() > 0 else sizes / sizes.sum()
    sizes = sizes.astype(int)
    got = np.minimum(np.maximum(2, np.floor(w * n)).astype(int), sizes)
    while got.sum() > n:
        got[np.argmax(got)] -= 1
    while got.sum() < n:
        room = np.where(got < sizes)[0]
        got[room[np.argmax((w * n - got)[room])]] += 1
    return got


def stratified(rng, g, d, strata, n, q, mode):
    """Estimate and interval of the change from a stratified audit (module doc)."""
    n_cases = len(g)
    sizes = np.array([np.sum(strata == k) for k in range(4)], dtype=float)
    if mode == "oracle":
        sds = np.array(
            [np.std((d - g)[strata == k]) + 0.05 if sizes[k] > 1 else 0 for k in range(4)]
        )
    elif mode == "flagged":
        sds = FLAGGED_SD
    else:
        sds = np.ones(4)
    got = allocate(sizes, np.where(sizes > 0, sds, 0), n)
    est, var_fin, ds, ws = g.mean(), 0.0, [], []
    for k in range(4):
        if sizes[k] == 0 or got[k] == 0:
            continue
        idx = rng.choice(np.where(strata == k)[0], int(got[k]), replace=False)
        r, w = d[idx] - g[idx], sizes[k] / n_cases
        est += w * r.mean()
        ps = 2 * CHANGE_PSEUDO * w  # the simple random audit's pseudo-labels, shared by weight
        s2 = (((r - r.mean()) ** 2).sum() + ps * (1 + r.mean() ** 2)) / max(got[k] - 1 + ps, 1e-9)
        var_fin += w**2 * (1 - got[k] / sizes[k]) * s2 / got[k]
        ds.append(d[idx])
        ws.append(np.full(int(got[k]), w / got[k]))
    dl, wl = np.concatenate(ds), np.concatenate(ws)
    mu = (wl * dl).sum()
    var_d = (wl * (dl - mu) ** 2).sum() * n / (n - 1)
    se = np.sqrt(var_d / n_cases + var_fin)
    return est, max(-1, est - q * se), min(1, est + q * se)


def run(judge, change, n, n_cases, mode, audits=400, seed=0):
    recall, fa_base, fa_cand = JUDGES[judge]
    fail = cov = 0
    widths = []
    for a in range(audits):
        rng = np.random.default_rng([seed, a])
        tb, tc = truth(rng, n_cases, change)
        fb, fc = read(rng, tb, recall, fa_base), read(rng, tc, recall, fa_cand)
        g, d = fc - fb, tc - tb
        level = level_at(0.95, n, n_cases, n)
        if mode == "srs":
            idx = rng.choice(n_cases, n, replace=False)
            e = ppi_mean(g, g[idx], d[idx], level, bounds=(-1, 1), pseudo=CHANGE_PSEUDO)
            lo, hi = e.low, e.high
        else:
            strata = (2 * fb + fc).astype(int)
            _, lo, hi = stratified(rng, g, d, strata, n, t_quantile(level, n - 1), mode)
        cov += lo <= change <= hi
        fail += lo > LIMIT
        widths.append(hi - lo)
    return cov / audits, fail / audits, np.mean(widths)


def main():
    n_cases, modes = int(sys.argv[1]), sys.argv[2].split(",")
    sizes = [int(x) for x in sys.argv[3].split(",")]
    changes = [float(x) for x in sys.argv[4].split(",")]
    for judge in JUDGES:
        for change in changes:
            for n in sizes:
                for mode in modes:
                    c, f, w = run(judge, change, n, n_cases, mode)
                    print(f"N={n_cases} {judge:>12} change {change:+.2f} n={n:>3} {mode:>8}: "
                          f"coverage {c:.3f} FAIL {f:.1%} width {w:.3f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
