"""Numerical search for a rank-r sign realisation of the L1-forced signs at m (float, evidence only).

x_q in R^r for the chosen queries, y_c in R^r per key-pair column (a, b) (a, b disjoint sets
suffice), want s_q(c) <x_q, y_c> > 0 on every forced entry.  L-BFGS on a hinge-like loss with
random restarts; reports the number of violated entries of the best try."""
import sys
from itertools import product

import numpy as np
from scipy.optimize import minimize


def columns(m, queries):
    pats = {}
    for code in product((0, 1, 2), repeat=m):  # 0 common/none, 1 in A (a only), 2 in B (b only)
        A = sum(1 << i for i, c in enumerate(code) if c == 1)
        B = sum(1 << i for i, c in enumerate(code) if c == 2)
        s = []
        for q in queries:
            g = bin(q & B).count("1") - bin(q & A).count("1")
            s.append(1 if g >= 2 else -1 if g <= -2 else 0)
        if sum(1 for x in s if x) == 0:
            continue
        first = next(x for x in s if x)
        pats.setdefault(tuple(x * first for x in s), None)
    return np.array(list(pats), dtype=float)


def attempt(S, r, rng, iters=3000):
    k, c = S.shape[1], S.shape[0]
    mask = S != 0

    def f(v):
        X = v[: k * r].reshape(k, r)
        Y = v[k * r:].reshape(c, r)
        Z = Y @ X.T  # c x k
        marg = S * Z
        # squared hinge at margin 1, plus norm penalty
        h = np.where(mask, np.maximum(0, 1 - marg), 0)
        loss = (h ** 2).sum() + 1e-4 * ((X ** 2).sum() + (Y ** 2).sum())
        G = -2 * h * S  # d loss / dZ
        gX = G.T @ Y + 2e-4 * X
        gY = G @ X + 2e-4 * Y
        return loss, np.concatenate([gX.ravel(), gY.ravel()])

    v0 = rng.normal(size=(k + c) * r)
    res = minimize(f, v0, jac=True, method="L-BFGS-B", options={"maxiter": iters})
    X = res.x[: k * r].reshape(k, r)
    Y = res.x[k * r:].reshape(c, r)
    marg = S * (Y @ X.T)
    bad = int(((marg <= 0) & mask).sum())
    return bad, res.fun, X, Y


if __name__ == "__main__":
    m, r = int(sys.argv[1]), int(sys.argv[2])
    tries = int(sys.argv[3])
    if sys.argv[4].startswith("w"):
        weights = [int(w) for w in sys.argv[4][1:].split(",")]
        queries = [q for q in range(1 << m) if bin(q).count("1") in weights]
    else:
        weights = "list"
        queries = sorted(int(s[::-1], 2) for s in sys.argv[4:])
    S = columns(m, queries)
    print(f"m={m} r={r} weights={weights}: {len(queries)} queries, {S.shape[0]} columns", flush=True)
    rng = np.random.default_rng(1)
    best = None
    for t in range(tries):
        bad, fun, X, Y = attempt(S, r, rng)
        print(f"try {t}: {bad} violated, loss {fun:.4g}", flush=True)
        if best is None or bad < best[0]:
            best = (bad, X, Y)
        if bad == 0:
            np.save(f"/tmp/m7_real_{m}_{r}.npy", X)
            break
