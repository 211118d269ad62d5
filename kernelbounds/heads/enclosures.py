"""The float side of the extreme-class route (THEORY §1; docs/api.md, "Every input"): float64
tables of a block of queries with rigorous enclosure radii (Higham's gamma_k), the least
per-token sum of each class enclosed from both sides, and float Dinkelbach proposals.
A class is settled here only when its enclosure lies wholly on one side; floats never
decide otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

U = 2.0**-53
FLOOR = 2.0**-500  # float margins below this are left to the exact route


def gamma(k: int) -> float:
    """gamma_k = k u / (1 - k u) (Higham §3.1)."""
    return k * U / (1 - k * U)


@dataclass
class Block:
    """Float64 tables of one block of queries over every token, with the bounds rho of
    docs/api.md: K (kernel), U = K F and their enclosure radii, the levels."""

    qs: np.ndarray
    K: np.ndarray
    U: np.ndarray
    rK: np.ndarray
    rU: np.ndarray
    A: np.ndarray  # A[b, t, z]: <q_b, z> == t
    B: np.ndarray  # B[b, t, z]: <q_b, z> >= t
    valid: np.ndarray  # valid[b, t]: t <= |q_b|


def block(h, qs: np.ndarray, m: int) -> Block:
    """The float tables of queries qs (h: HeadArrays over all 2^m tokens, row = token)."""
    r, dv = h.phi_q.shape[1], h.value.shape[1]
    pq = h.phi_q[qs]
    K = pq @ h.phi_k.T
    rK = 2 * gamma(r + 2) * (np.abs(pq) @ np.abs(h.phi_k).T)
    F = h.w[qs] @ h.value.T + h.b[qs][:, None]
    rF = 2 * gamma(dv + 3) * (np.abs(h.w[qs]) @ np.abs(h.value).T + np.abs(h.b[qs])[:, None])
    Uf = K * F
    rU = rK * (np.abs(F) + rF) + (np.abs(K) + rK) * rF + U * np.abs(Uf)
    levels = h.bits[qs] @ h.bits.T  # (B, T) <q, z>
    ts = np.arange(m + 1)
    A = levels[:, None, :] == ts[None, :, None]
    Bm = levels[:, None, :] >= ts[None, :, None]
    valid = ts[None, :] <= levels[np.arange(len(qs)), qs][:, None]
    return Block(qs, K, Uf, rK, rU, A, Bm, valid)


def _masked_min(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.min(x, axis=2, where=mask, initial=np.inf)


def _least(bl: Block, lo_t: np.ndarray, hi_t: np.ndarray, k: int):
    """Enclosure (lo, hi) of the least sum over each class of a per-token term that lies in
    [lo_t, hi_t] (shape (B, m+1, T)): lo <= true least <= hi."""
    with np.errstate(invalid="ignore", over="ignore"):
        return _least_unchecked(bl, lo_t, hi_t, k)


def _least_unchecked(bl: Block, lo_t: np.ndarray, hi_t: np.ndarray, k: int):
    idx = np.arange(len(bl.qs))
    lo_q, hi_q = lo_t[idx, :, bl.qs], hi_t[idx, :, bl.qs]  # the query's own term, (B, m+1)
    lo_a, hi_a = _masked_min(lo_t, bl.A), _masked_min(hi_t, bl.A)
    lo_b, hi_b = (_masked_min(lo_t, bl.B), _masked_min(hi_t, bl.B)) if k > 0 else (0.0, 0.0)
    lo, hi = lo_q + lo_a + k * lo_b, hi_q + hi_a + k * hi_b
    # each per-token value and the sum of three are rounded: at most 4u of the parts' sizes
    parts = np.abs(lo_q) + np.abs(hi_q) + np.abs(lo_a) + np.abs(hi_a) + k * (np.abs(lo_b) + np.abs(hi_b))
    slack = 8 * U * parts + FLOOR
    return lo - slack, hi + slack


def _status(lo: np.ndarray, hi: np.ndarray, strict: bool) -> np.ndarray:
    """0: the least value is certainly > 0 (so >= 0 too); 1: certainly <= 0 (strict) or
    < 0 (not strict), the test fails; 2: undecided.  (lo, hi) enclose the least value."""
    st = np.full(lo.shape, 2, dtype=np.int8)
    with np.errstate(invalid="ignore"):
        st[lo > 0] = 0
        st[(hi <= 0) if strict else (hi < 0)] = 1
    return st


def denominators(bl: Block, k: int) -> np.ndarray:
    """Status per class of "every denominator > 0" (0 yes, 1 no, 2 undecided)."""
    shape = (len(bl.qs), bl.A.shape[1], bl.K.shape[1])
    lo_t = np.broadcast_to((bl.K - 2 * bl.rK)[:, None, :], shape)  # the term and its radius do not depend on t
    hi_t = np.broadcast_to((bl.K + 2 * bl.rK)[:, None, :], shape)
    lo, hi = _least(bl, lo_t, hi_t, k)
    return np.where(bl.valid, _status(lo, hi, strict=True), 0)


def certify(bl: Block, e: Fraction, side: int, k: int, strict: bool) -> np.ndarray:
    """Status per class of "s (y - t) <= e (< e when strict) on the class": the least of
    (s t + e) D - s N over the class, enclosed (module docstring)."""
    ts = np.arange(bl.A.shape[1], dtype=np.float64)
    c = side * ts + float(e)  # |c - (s t + e)| <= 2u (t + |e|): the rounding of e, then of the sum
    mag = (ts + abs(float(e)))[None, :, None]  # >= |c| and >= |s t + e|
    # radius of term = c K - s U: 2 (mag (2u|K| + rK) + rU + 3u (mag |K| + |U|)) = mag X + Y
    X = (2 * (5 * U * np.abs(bl.K) + bl.rK))[:, None, :]
    Y = (2 * (bl.rU + 3 * U * np.abs(bl.U)))[:, None, :]
    sU = (side * bl.U)[:, None, :]
    ck = c[None, :, None] * bl.K[:, None, :]
    mx = mag * X
    lo, hi = _least(bl, ck - mx - sU - Y, ck + mx - sU + Y, k)
    return np.where(bl.valid, _status(lo, hi, strict), 0)


def propose(bl: Block, k: int, den_ok: np.ndarray, rounds: int = 30):
    """Float Dinkelbach per class and side: (E, a, b) of shape (2, B, m+1), E the float
    error s (y - t) at the proposed extreme-class input (q, a, b^(n-2)); nan where undecided.
    Starts from the keys of largest s F at each level set; a class stops when its ratio
    no longer grows (so float ties cannot make it cycle)."""
    nb, levels, T = bl.A.shape
    idx = np.arange(nb)[:, None]
    c, d = bl.U[np.arange(nb), bl.qs][:, None], bl.K[np.arange(nb), bl.qs][:, None]
    ts = np.arange(levels)[None, :]
    out_e = np.full((2, nb, levels), np.nan)
    out_a = np.zeros((2, nb, levels), dtype=np.int64)
    out_b = np.zeros((2, nb, levels), dtype=np.int64)
    live = bl.valid & den_ok
    with np.errstate(all="ignore"):
        F = np.where(bl.K != 0, bl.U / bl.K, 0.0)[:, None, :]
        for si, s in enumerate((1.0, -1.0)):
            a = np.argmax(np.where(bl.A, s * F, -np.inf), axis=2)
            b = np.argmax(np.where(bl.B, s * F, -np.inf), axis=2) if k > 0 else a
            lam = (c + bl.U[idx, a] + k * bl.U[idx, b]) / (d + bl.K[idx, a] + k * bl.K[idx, b])
            active = live.copy()
            for _ in range(rounds):
                rows_, ts_ = np.nonzero(active)
                if not len(rows_):
                    break
                G = s * (bl.U[rows_] - lam[rows_, ts_][:, None] * bl.K[rows_])
                a2 = np.argmax(np.where(bl.A[rows_, ts_], G, -np.inf), axis=1)
                b2 = np.argmax(np.where(bl.B[rows_, ts_], G, -np.inf), axis=1) if k > 0 else a2
                lam2 = (c[rows_, 0] + bl.U[rows_, a2] + k * bl.U[rows_, b2]) / (d[rows_, 0] + bl.K[rows_, a2] + k * bl.K[rows_, b2])
                better = s * (lam2 - lam[rows_, ts_]) > 1e-13 * np.maximum(1.0, np.abs(lam2))
                r_, t_ = rows_[better], ts_[better]
                a[r_, t_], b[r_, t_], lam[r_, t_] = a2[better], b2[better], lam2[better]
                active[:] = False
                active[r_, t_] = True
            out_e[si] = np.where(live, s * (lam - ts), np.nan)
            out_a[si], out_b[si] = a, b
    return out_e, out_a, out_b
