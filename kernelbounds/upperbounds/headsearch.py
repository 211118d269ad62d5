"""The float search for general heads at small m (THEORY U5): for fixed key features psi
one LP per query, for fixed query features phi one LP in (psi, u); alternating the two
never lowers the least margin.  Floats only propose: :func:`rationalise` turns the LP
answer into an :class:`~kernelbounds.upperbounds.generalheads.ExplicitHead`, whose claim
:func:`~kernelbounds.upperbounds.generalheads.worst_error` decides exactly.  The LPs use
only the extreme-class inputs (q, a, b^(n-2)) of :mod:`.generalheads`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..bits import inner
from .generalheads import HALF, ExplicitHead, worst_error

# ---------------------------------------------------------------------------------------
# Search (THEORY U5): for fixed key features psi, one LP per query; for fixed query
# features phi, one LP in (psi, u).  Alternating the two never lowers the least margin.
# Floats only propose; the rationalised head is checked exactly by worst_error().

MEAN = 10.0  # LP scale: every weight w_q(z) >= w_min = 1 and the mean weight of each query is MEAN
W_MAX = None  # or a number: then w_min <= w_q(z) <= W_MAX instead of the mean (a token whose
# weight is free, like 0...0 at level 0 of every query, cannot absorb the whole mean)


class _Template:
    """The margin rows of one query q over the columns (w(z), u(z), s_low(t), s_high(t), mu),
    from the extreme-class inputs: for each least level t and key a at level t,
    L_t(q) + L_t(a) + (n-2) s_t >= mu with s_t <= L_t(b) for every b at level >= t, where
    L_t(z) = 2u(z) - (2t-1)w(z) (lower side) or (2t+1)w(z) - 2u(z) (upper side)."""

    def __init__(self, q: int, m: int, n: int):
        from scipy.sparse import csr_matrix

        T, P, k = 1 << m, q.bit_count(), n - 2
        self.T, self.P, self.k = T, P, k
        cols = 2 * T + 2 * (P + 1) + 1
        data, ri, ci = [], [], []
        row = 0
        levels = [inner(q, z) for z in range(T)]
        self.labels: list[tuple[str, int, int]] = []  # (side, t, key a or b) per row

        def put(r, c, v):
            data.append(v), ri.append(r), ci.append(c)

        for side in (0, 1):
            for t in range(P + 1):
                cw, cu = ((2 * t - 1), -2) if side == 0 else (-(2 * t + 1), 2)  # -L_t(z) = cw w + cu u
                s_col = 2 * T + side * (P + 1) + t
                for a in range(T):
                    if levels[a] != t:
                        continue
                    for z in (q, a):  # -(L(q) + L(a) + k s) + mu <= 0
                        put(row, z, cw), put(row, T + z, cu)
                    if k:
                        put(row, s_col, -k)
                    put(row, cols - 1, 1.0)
                    self.labels.append(("lower" if side == 0 else "upper", t, a))
                    row += 1
                if k:
                    for b in range(T):
                        if levels[b] >= t:  # s - L(b) <= 0
                            put(row, s_col, 1.0), put(row, b, cw), put(row, T + b, cu)
                            self.labels.append(("lower-rest" if side == 0 else "upper-rest", t, b))
                            row += 1
        self.M = csr_matrix((data, (ri, ci)), shape=(row, cols)).tocsc()
        self.cols = cols


def _phi_step(tpl: _Template, Psi: np.ndarray, w_min: float):
    """max mu over (phi, u, s) for one query with Psi fixed: (mu, phi, u)."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, hstack, vstack

    T, r = Psi.shape
    Mw, Mrest = tpl.M[:, :T], tpl.M[:, T:]
    A = hstack([csr_matrix(Mw @ Psi), Mrest]).tocsr()
    lower_w = hstack([csr_matrix(-Psi), csr_matrix((T, tpl.cols - T))])
    a_ub = vstack([A, lower_w] + ([-lower_w] if W_MAX else [])).tocsr()
    b_ub = np.concatenate([np.zeros(A.shape[0]), np.full(T, -w_min)] + ([np.full(T, W_MAX)] if W_MAX else []))
    a_eq = np.concatenate([Psi.sum(axis=0), np.zeros(tpl.cols - T)])[None, :]
    c = np.zeros(r + tpl.cols - T)
    c[-1] = -1.0
    bounds = [(None, None)] * r + [(-1e6, 1e6)] * (tpl.cols - T - 1) + [(None, 100.0)]
    eq = {} if W_MAX else {"A_eq": a_eq, "b_eq": [MEAN * T]}
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs", **eq)
    if res.status != 0:
        return -np.inf, None, None
    return res.x[-1], res.x[:r], res.x[r : r + T]


def _psi_step(tpls: list[_Template], Phi: np.ndarray, w_min: float, box: float = 100.0, nonnegative: bool = True, caps=None):
    """max mu over (psi, u_q, s_q) for all queries with Phi fixed: (mu, Psi)."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, hstack, identity, kron, vstack

    T, r = Phi.shape
    blocks_ub, blocks_eq, b_ub, b_eq = [], [], [], []
    extra = [t.cols - T - 1 for t in tpls]  # u, s columns per query (mu shared)
    offs = np.concatenate([[0], np.cumsum(extra)]).astype(int)
    nvar = T * r + int(offs[-1]) + 1
    for q, tpl in enumerate(tpls):
        lift = kron(identity(T, format="csr"), csr_matrix(Phi[q][None, :]))  # w_q = lift @ vec(psi)
        Mw, Mo, Mmu = tpl.M[:, :T], tpl.M[:, T : tpl.cols - 1], tpl.M[:, tpl.cols - 1 :]
        left = csr_matrix((tpl.M.shape[0], int(offs[q])))
        right = csr_matrix((tpl.M.shape[0], int(offs[-1] - offs[q + 1])))
        blocks_ub.append(hstack([Mw @ lift, left, Mo, right, Mmu]))
        b_ub.append(np.zeros(tpl.M.shape[0]))
        blocks_ub.append(hstack([-lift, csr_matrix((T, int(offs[-1]) + 1))]))
        b_ub.append(np.full(T, -w_min))
        if W_MAX:
            blocks_ub.append(hstack([lift, csr_matrix((T, int(offs[-1]) + 1))]))
            b_ub.append(np.full(T, W_MAX))
        blocks_eq.append(hstack([csr_matrix(np.ones((1, T))) @ lift, csr_matrix((1, int(offs[-1]) + 1))]))
        b_eq.append([MEAN * T])
    c = np.zeros(nvar)
    c[-1] = -1.0
    caps = caps if caps is not None else [box] * r  # per feature column (continuation to lower rank)
    bounds = [(0.0 if nonnegative else -caps[k], caps[k]) for _ in range(T) for k in range(r)] + [(-1e6, 1e6)] * int(offs[-1]) + [(None, 100.0)]
    eq = {} if W_MAX else {"A_eq": vstack(blocks_eq).tocsr(), "b_eq": np.concatenate(b_eq)}
    res = linprog(c, A_ub=vstack(blocks_ub).tocsr(), b_ub=np.concatenate(b_ub), bounds=bounds, method="highs", **eq)
    if res.status != 0:
        return -np.inf, None
    return res.x[-1], res.x[: T * r].reshape(T, r)


def margins(tpls, Psi: np.ndarray, w_min: float = 1.0):
    """(least margin, Phi, U) of the per-query LPs for fixed Psi."""
    T, r = Psi.shape
    Phi, U, least = np.zeros((T, r)), np.zeros((T, T)), np.inf
    for q, tpl in enumerate(tpls):
        mu, phi, u = _phi_step(tpl, Psi, w_min)
        if phi is None:
            return -np.inf, None, None
        least = min(least, mu)
        Phi[q], U[q] = phi, u
    return least, Phi, U


def rationalise(m: int, n: int, tpls, Psi: np.ndarray, w_min: float = 1.0) -> ExplicitHead | None:
    """Rational tables near the float head (short denominators first), verified exactly;
    None if none passes."""
    T, r = Psi.shape
    for den in (10, 100, 1000, 10**4, 10**6):
        psi = tuple(tuple(Fraction(float(x)).limit_denominator(den) for x in row) for row in Psi)
        P = np.array([[float(x) for x in row] for row in psi])
        least, Phi, U = margins(tpls, P, w_min)
        if Phi is None or least <= 0:
            continue
        for den2 in (100, 10**4, 10**6, 10**9):
            phi = tuple(tuple(Fraction(float(x)).limit_denominator(den2) for x in row) for row in Phi)
            head0 = ExplicitHead(m, n, phi, psi, ())
            ws = [head0.weights(q) for q in range(T)]
            if any(x <= 0 for w in ws for x in w):
                continue
            for den3 in (10, 100, 1000, 10**4, 10**6, 10**9):
                F = tuple(tuple(Fraction(float(U[q][z]) / float(ws[q][z])).limit_denominator(den3) for z in range(T)) for q in range(T))
                head = ExplicitHead(m, n, phi, psi, F)
                found = worst_error(head)
                if found is not None and found[0] < HALF:
                    return head
    return None


@dataclass
class SearchResult:
    m: int
    n: int
    rank: int
    margin: float
    head: ExplicitHead | None
    starts: int
    seconds: float


def _improve(tpls, Psi, w_min, rounds, nonnegative, verbose, label, caps=None):
    """Alternate the phi step (per-query LPs) and the psi step (one joint LP) while the least
    margin grows: (margin, Psi)."""
    mu, Phi, _ = margins(tpls, Psi, w_min)
    for _ in range(rounds):
        if Phi is None:
            break
        _, Psi2 = _psi_step(tpls, Phi, w_min, box=100.0, nonnegative=nonnegative, caps=caps)
        if Psi2 is None:
            break
        mu2, Phi2, _ = margins(tpls, Psi2, w_min)
        if verbose:
            print(f"{label}: margin {mu:.6f} -> {mu2:.6f}", flush=True)
        if Phi2 is None or mu2 <= mu + 1e-7 * max(1.0, abs(mu)):
            if Phi2 is not None and mu2 > mu:
                mu, Psi = mu2, Psi2
            break
        mu, Psi, Phi = mu2, Psi2, Phi2
    return mu, Psi


def search(m: int, n: int, r: int, starts: int = 8, rounds: int = 30, seed: int = 0, w_min: float = 1.0,
           nonnegative: bool = True, verbose: bool = False, hops: int = 4, target: float = 0.05, start: np.ndarray | None = None) -> SearchResult:
    """Random starts (or a given start), each improved by alternating the per-query LPs
    (phi, u for fixed psi) and the joint LP (psi, u for fixed phi), then by local moves
    (multiplicative noise on psi, kept when the least margin grows); the best head with a
    positive least margin is rationalised and checked exactly.  A heuristic: a head found
    is a certified upper bound r*(m, n) <= r; a failure proves nothing."""
    import time

    rng = np.random.default_rng(seed)
    clock = time.perf_counter()
    tpls = [_Template(q, m, n) for q in range(1 << m)]
    best = (-np.inf, None)
    done = 0
    for s in range(starts):
        done = s + 1
        if start is not None and s == 0:
            Psi = start
        else:
            Psi = 0.2 + rng.random((1 << m, r)) if nonnegative else rng.standard_normal((1 << m, r))
        mu, Psi = _improve(tpls, Psi, w_min, rounds, nonnegative, verbose, f"start {s}")
        for h in range(hops):
            if mu >= target:
                break
            noise = np.exp(0.3 * rng.standard_normal(Psi.shape))
            trial = Psi * noise if nonnegative else Psi + 0.3 * rng.standard_normal(Psi.shape) * np.abs(Psi).mean()
            mu2, Psi2 = _improve(tpls, trial, w_min, rounds, nonnegative, verbose, f"start {s} hop {h}")
            if mu2 > mu:
                mu, Psi = mu2, Psi2
        if mu > best[0]:
            best = (mu, Psi)
        if best[0] >= target:
            break
    head = rationalise(m, n, tpls, best[1], w_min) if best[0] > 0 else None
    return SearchResult(m, n, r, float(best[0]), head, done, time.perf_counter() - clock)
