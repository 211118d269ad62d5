"""General position-independent heads at small m, given by rational tables (THEORY U5).

A head is phi_Q(q), psi_K(z) in Q^r for every token and a readout table F(q, z)
(THEORY §1: F = L_q(v(z)) may be any function, since dv is free; the value dimension it
needs is the affine rank of the columns F(., z), see :func:`value_dim`).  At query q the
output on an input (q and a multiset M of n-1 other tokens) is
y = sum_{z in q+M} w_q(z) F(q, z) / sum w_q(z) with w_q(z) = <phi_Q(q), psi_K(z)>.

**Extremal inputs.** For fixed q and least level t = min_{z in M} <q, z>, both sides of
"|y - t| <= e" are sums over q+M of a per-token term, so the worst multiset with least
level t is (q, a, b, ..., b) with <q,a> = t, <q,b> >= t: the least (or largest) term at
level t once and the least term at levels >= t n-2 times.  So every claim over all
2^m C(2^m+n-2, n-1) inputs is decided exactly in O(4^m m) steps, and the LPs below need
only the family of inputs (q, a, b^(n-2)) (:func:`extremal_inputs`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

HALF = Fraction(1, 2)


def level(q: int, z: int) -> int:
    return (q & z).bit_count()


def target(q: int, others: tuple[int, ...]) -> int:
    """t = min_j <q, x_j> over the input (q itself included, THEORY §1)."""
    return min([q.bit_count()] + [level(q, z) for z in others])


def extremal_inputs(m: int, n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every input (q, a, b^(n-2)) once (as a multiset): the family on which all the
    per-token separable worst cases live (module docstring)."""
    tokens = range(1 << m)
    for q in tokens:
        seen = set()
        for a in tokens:
            for b in tokens:
                others = tuple(sorted((a,) + (b,) * (n - 2)))
                if others not in seen:
                    seen.add(others)
                    yield q, others


@dataclass(frozen=True)
class ExplicitHead:
    """Rational tables: phi[q], psi[z] (length r each) and F[q][z], on m-bit tokens."""

    m: int
    n: int
    phi: tuple[tuple[Fraction, ...], ...]
    psi: tuple[tuple[Fraction, ...], ...]
    F: tuple[tuple[Fraction, ...], ...]

    @property
    def rank(self) -> int:
        return len(self.psi[0])

    def weights(self, q: int) -> list[Fraction]:
        p = self.phi[q]
        return [sum((a * b for a, b in zip(p, s)), Fraction(0)) for s in self.psi]

    @property
    def nonnegative_features(self) -> bool:
        return all(x >= 0 for table in (self.phi, self.psi) for row in table for x in row)

    def output(self, q: int, others: tuple[int, ...]) -> Fraction:
        w = self.weights(q)
        xs = (q, *others)
        den = sum(w[z] for z in xs)
        return sum(w[z] * self.F[q][z] for z in xs) / den


def _common(values: list[Fraction]) -> tuple[list[int], int]:
    from math import lcm

    d = lcm(*(v.denominator for v in values))
    return [v.numerator * (d // v.denominator) for v in values], d


def integer_weights(head: ExplicitHead) -> list[tuple[list[int], list[int]]]:
    """Per query q, integers (W, U) proportional to (w_q, w_q F(q, .)) with one positive
    factor per query (psi over one common denominator, phi and F row by row)."""
    T, r = 1 << head.m, head.rank
    flat, _ = _common([x for row in head.psi for x in row])
    Psi = [flat[z * r : (z + 1) * r] for z in range(T)]
    out = []
    for q in range(T):
        Phi, _ = _common(list(head.phi[q]))
        W = [sum(a * b for a, b in zip(Phi, Psi[z])) for z in range(T)]
        Fq, d = _common(list(head.F[q]))
        out.append(([d * w for w in W], [w * f for w, f in zip(W, Fq)]))
    return out


def _dinkelbach(c: int, d: int, first: list[tuple[int, int]], rest: list[tuple[int, int]], k: int, sign: int) -> tuple[Fraction, int, int]:
    """max (sign = 1) or min (sign = -1) of (c + u_a + k u_b) / (d + w_a + k w_b) over a in
    `first`, b in `rest` (pairs (u, w), all denominators > 0), exactly: Dinkelbach's
    iteration with lambda = num/den, which ends after finitely many steps on a finite set."""
    a, b = 0, 0
    num, den = c + first[a][0] + k * rest[b][0], d + first[a][1] + k * rest[b][1]
    while True:
        a = max(range(len(first)), key=lambda i: sign * (den * first[i][0] - num * first[i][1]))
        b = max(range(len(rest)), key=lambda i: sign * (den * rest[i][0] - num * rest[i][1])) if k else 0
        n2, d2 = c + first[a][0] + k * rest[b][0], d + first[a][1] + k * rest[b][1]
        if n2 * den == num * d2:
            return Fraction(num, den), a, b
        num, den = n2, d2


def worst_error(head: ExplicitHead) -> tuple[Fraction, tuple[int, tuple[int, ...]]] | None:
    """The exact max |y - t| over every input and position, and an input attaining it;
    None if some kernel value is negative or some denominator is not > 0.  Per query and
    least level t the worst input is extremal (module docstring), found by Dinkelbach."""
    m, n = head.m, head.n
    tokens = range(1 << m)
    worst: Fraction = Fraction(-1)
    witness = (0, ())
    k = n - 2
    for q, (W, U) in enumerate(integer_weights(head)):
        if min(W) < 0:
            return None
        levels = [level(q, z) for z in tokens]
        for t in range(q.bit_count() + 1):
            at = [z for z in tokens if levels[z] == t]
            above = [z for z in tokens if levels[z] >= t]
            if W[q] + min(W[z] for z in at) + k * min(W[z] for z in above) <= 0:
                return None
            first = [(U[z], W[z]) for z in at]
            rest = [(U[z], W[z]) for z in above]
            for sign in (1, -1):
                lam, a, b = _dinkelbach(U[q], W[q], first, rest, k, sign)
                err = sign * (lam - t)
                if err > worst:
                    worst, witness = err, (q, tuple(sorted((at[a],) + (above[b],) * k)))
    return worst, witness


def value_dim(F) -> int:
    """The least dv with F(q, z) = <l_q, v(z)> + c_q: the affine rank of the columns
    F(., z), i.e. rank [F; 1 ... 1] - 1 (exact, FLINT)."""
    import flint

    rows = [_common(list(row))[0] for row in F] + [[1] * len(F[0])]
    return flint.fmpz_mat(rows).rank() - 1


def token_string(x: int, m: int) -> str:
    """Character i is bit i (docs/certificate-format-v1.md)."""
    return "".join("1" if (x >> i) & 1 else "0" for i in range(m))


def certificate(head: ExplicitHead) -> dict:
    """A v2 `explicit-head` certificate: the tables, the exact worst error and an input
    attaining it, the feature rank and the value dimension."""
    found = worst_error(head)
    if found is None or found[0] >= HALF:
        raise ValueError("the head does not solve length n")  # searches only return verified heads
    return document(head, *found)


def document(head: ExplicitHead, err: Fraction, worst: tuple[int, tuple[int, ...]]) -> dict:
    """The certificate's JSON for given claims (certificate() computes them; tests use this
    to write false claims)."""
    from ..certificate import header, rational

    q, others = worst
    doc = header("explicit-head", version=2)
    doc.update(
        m=head.m,
        n=head.n,
        positions="all",
        head={
            "phi": [[rational(x) for x in row] for row in head.phi],
            "psi": [[rational(x) for x in row] for row in head.psi],
            "readout": [[rational(x) for x in row] for row in head.F],
        },
        claims={
            "worst_error": rational(err),
            "worst_input": {"query": token_string(q, head.m), "others": [token_string(z, head.m) for z in others]},
            "feature_rank": head.rank,
            "value_dim": value_dim(head.F),
            "nonnegative_features": head.nonnegative_features,
        },
    )
    return doc


def tables(head: ExplicitHead) -> dict:
    """The head alone as JSON (the data files the catalog builds certificates from)."""
    from ..certificate import rational

    return {
        "m": head.m,
        "n": head.n,
        "phi": [[rational(x) for x in row] for row in head.phi],
        "psi": [[rational(x) for x in row] for row in head.psi],
        "readout": [[rational(x) for x in row] for row in head.F],
    }


def from_tables(doc: dict) -> ExplicitHead:
    """Inverse of tables() (also reads an explicit-head certificate's `head` with m, n)."""
    head = doc.get("head", doc)

    def table(key):
        return tuple(tuple(Fraction(x) for x in row) for row in head[key])

    return ExplicitHead(doc["m"], doc["n"], table("phi"), table("psi"), table("readout"))


# ---------------------------------------------------------------------------------------
# Search (THEORY U5): for fixed key features psi, one LP per query; for fixed query
# features phi, one LP in (psi, u).  Alternating the two never lowers the least margin.
# Floats only propose; the rationalised head is checked exactly by worst_error().

MEAN = 10.0  # LP scale: every weight w_q(z) >= w_min = 1 and the mean weight of each query is MEAN
W_MAX = None  # or a number: then w_min <= w_q(z) <= W_MAX instead of the mean (a token whose
# weight is free, like 0...0 at level 0 of every query, cannot absorb the whole mean)


class _Template:
    """The margin rows of one query q over the columns (w(z), u(z), s_low(t), s_high(t), mu),
    from the extremal inputs: for each least level t and key a at level t,
    L_t(q) + L_t(a) + (n-2) s_t >= mu with s_t <= L_t(b) for every b at level >= t, where
    L_t(z) = 2u(z) - (2t-1)w(z) (lower side) or (2t+1)w(z) - 2u(z) (upper side)."""

    def __init__(self, q: int, m: int, n: int):
        from scipy.sparse import csr_matrix

        T, P, k = 1 << m, q.bit_count(), n - 2
        self.T, self.P, self.k = T, P, k
        cols = 2 * T + 2 * (P + 1) + 1
        data, ri, ci = [], [], []
        row = 0
        levels = [level(q, z) for z in range(T)]
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


def shrink_rank(m: int, n: int, Psi: np.ndarray, steps: int = 8, factor: float = 0.4, rounds: int = 6, verbose: bool = False):
    """Continuation from a working head of rank r towards rank r-1: cap the last feature
    column at factor^k times its start value (k = 1..steps), re-optimising psi and phi
    under each cap, then drop the column.  Returns [(cap, least margin)] and the final
    least margin of the rank r-1 psi (a heuristic: a positive end margin gives a head)."""
    tpls = [_Template(q, m, n) for q in range(1 << m)]
    Psi = Psi.copy()
    top = float(Psi[:, -1].max())
    trace = []
    for k in range(1, steps + 1):
        cap = top * factor**k
        Psi[:, -1] = np.minimum(Psi[:, -1], cap)
        caps = [100.0] * (Psi.shape[1] - 1) + [cap]
        mu, Psi = _improve(tpls, Psi, 1.0, rounds, True, False, "", caps=caps)
        trace.append((cap, mu))
        if verbose:
            print(f"cap {cap:.3g}: least margin {mu:.6f}", flush=True)
    low = Psi[:, :-1]
    mu, _, _ = margins(tpls, low)
    return trace, mu, low


def monomials(m: int, sets: list[tuple[int, ...]]) -> np.ndarray:
    """Key features psi_T(z) = [T within z] for the listed sets T (nonnegative, 0/1)."""
    return np.array([[1.0 if all((z >> i) & 1 for i in s) else 0.0 for s in sets] for z in range(1 << m)])


def prune_monomials(m: int, n: int, degree: int = 2, keep_margin: float = 0.5, verbose: bool = False):
    """Start from every monomial [T within z] with |T| <= degree as key features (phi(q)
    free per query: the query's weights are any polynomial of that degree in z) and drop
    monomials, largest |T| first, while the least per-query margin stays >= keep_margin.
    Returns (sets, rationalised head or None).  A heuristic for upper bounds."""
    from itertools import combinations

    tpls = [_Template(q, m, n) for q in range(1 << m)]
    sets = [s for j in range(degree + 1) for s in combinations(range(m), j)]
    for s in sorted(sets, key=lambda s: (-len(s), s)):
        if len(s) == 0:
            continue
        trial = [x for x in sets if x != s]
        mu, _, _ = margins(tpls, monomials(m, trial))
        if verbose:
            print(f"drop {s}: margin {mu:.4f} with {len(trial)} features", flush=True)
        if mu >= keep_margin:
            sets = trial
    return sets, rationalise(m, n, tpls, monomials(m, sets))
