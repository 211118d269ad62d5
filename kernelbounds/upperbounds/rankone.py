"""Rank one at small m: one LP over every input, and exact Farkas certificates when it is
infeasible (THEORY U5, last paragraph).

With r = 1 a nonnegative kernel phi(q) psi(z) that gives every query a positive
denominator has all phi(q) of one sign and psi of the same sign (a query with phi(q) = 0
has denominator 0; phi(q) > 0 > phi(q') would force psi >= 0 and psi <= 0, so psi = 0),
so we may take phi = 1 and psi >= 0: normalisation cancels phi(q).  With u(q, z) =
psi(z) F(q, z) every input X = (q, M) with least level t gives the two strict
inequalities, homogeneous and linear in (psi, u):

    lower(X):  2 sum_{z in X} u(q, z) - (2t - 1) sum_{z in X} psi(z) > 0,
    upper(X):  (2t + 1) sum_{z in X} psi(z) - 2 sum_{z in X} u(q, z) > 0.

(With psi(z) = 0 the relaxation lets u(q, z) be nonzero; raising such psi(z) a little keeps
every strict inequality, so the relaxation is feasible iff a rank-one head exists.)
**Farkas (Motzkin) certificate**: integers y_X > 0 on some of these inequalities whose
combination has coefficient 0 on every u(q, z) and <= 0 on every psi(z).  Then for a
solution the combination would be > 0 (a positive sum of positive numbers) and <= 0
(psi >= 0): no rank-one head solves length n on m bits, so r*(m, n) >= 2, and r*(m', n)
>= 2 for every m' >= m (restrict a head on m' bits to tokens with the top bits 0).

Both LPs use only the extreme-class inputs (q, a, b^(n-2)) (kernelbounds.upperbounds.generalheads): the
primal is equivalent on them, and a Farkas certificate may use any inputs.  HiGHS
proposes a vertex (sparse: at most one more nonzero than equations); FLINT's exact
null space on its support decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import InvalidArgument
from .generalheads import ExplicitHead, extreme_class_inputs, target, token_string, worst_error


def _rows(m: int, n: int):
    """(input, side, {psi index: coef}, {(q, z): coef}) for every extreme-class input, both sides."""
    for q, others in extreme_class_inputs(m, n):
        t = target(q, others)
        counts: dict[int, int] = {}
        for z in (q, *others):
            counts[z] = counts.get(z, 0) + 1
        yield (q, others), "lower", {z: -(2 * t - 1) * c for z, c in counts.items()}, {(q, z): 2 * c for z, c in counts.items()}
        yield (q, others), "upper", {z: (2 * t + 1) * c for z, c in counts.items()}, {(q, z): -2 * c for z, c in counts.items()}


def _matrix(m: int, n: int):
    """The inequality rows as a sparse matrix over the variables (psi(z), u(q, z))."""
    from scipy.sparse import csr_matrix

    T = 1 << m
    data, ri, ci, labels = [], [], [], []
    for i, (inp, side, pc, uc) in enumerate(_rows(m, n)):
        labels.append((inp, side))
        for z, c in pc.items():
            data.append(c), ri.append(i), ci.append(z)
        for (q, z), c in uc.items():
            data.append(c), ri.append(i), ci.append(T + q * T + z)
    return csr_matrix((data, (ri, ci)), shape=(len(labels), T + T * T)), labels


def feasible_lp(m: int, n: int):
    """max mu with every row >= mu, psi >= mu, psi <= 1: (mu, psi, u) floats."""
    from scipy.optimize import linprog
    from scipy.sparse import hstack, vstack, csr_matrix, identity

    T = 1 << m
    A, _ = _matrix(m, n)
    nv = A.shape[1]
    ones = csr_matrix(np.ones((A.shape[0], 1)))
    psi_rows = hstack([identity(T, format="csr"), csr_matrix((T, nv - T))])
    a_ub = vstack([hstack([-A, ones]), hstack([-psi_rows, csr_matrix(np.ones((T, 1)))])]).tocsr()
    b_ub = np.zeros(a_ub.shape[0])
    c = np.zeros(nv + 1)
    c[-1] = -1.0
    bounds = [(0, 1)] * T + [(-(m + 3), m + 3)] * (T * T) + [(None, 1)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs")
    if res.status != 0:
        raise RuntimeError(f"rank-one LP failed: {res.message}")
    return res.x[-1], res.x[:T], res.x[T:nv].reshape(T, T)


def rank_one_head(m: int, n: int) -> ExplicitHead | None:
    """An exactly verified rank-one head (phi = 1, psi > 0, F = u / psi), or None when the
    LP's margin is not positive (then look for a Farkas certificate)."""
    mu, psi, u = feasible_lp(m, n)
    if mu <= 1e-9:
        return None
    T = 1 << m
    for den in (1, 2, 4, 8, 16, 100, 1000, 10**6):
        ps = tuple(Fraction(max(x, mu)).limit_denominator(den) or Fraction(1, den) for x in psi)
        F = tuple(tuple(Fraction(u[q][z] / max(psi[z], mu)).limit_denominator(den) for z in range(T)) for q in range(T))
        head = ExplicitHead(m, n, tuple((Fraction(1),) for _ in range(T)), tuple((p,) for p in ps), F)
        found = worst_error(head)
        if found is not None and found[0] < Fraction(1, 2):
            return head
    return None


@dataclass(frozen=True)
class FarkasCertificate:
    m: int
    n: int
    multipliers: tuple[tuple[tuple[int, tuple[int, ...]], str, int], ...]  # ((q, others), side, y > 0)


def _dual_lp(m: int, n: int):
    """A vertex y >= 0, sum y = 1, A^T y = 0 on u, <= 0 on psi (or None if there is none)."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, vstack

    T = 1 << m
    A, labels = _matrix(m, n)
    At = A.T.tocsr()
    a_eq = vstack([At[T:], csr_matrix(np.ones((1, A.shape[0])))]).tocsr()
    b_eq = np.zeros(a_eq.shape[0])
    b_eq[-1] = 1.0
    res = linprog(np.zeros(A.shape[0]), A_ub=At[:T], b_ub=np.zeros(T), A_eq=a_eq, b_eq=b_eq, bounds=[(0, None)] * A.shape[0], method="highs-ds")
    if res.status != 0:
        return None, labels, A
    return res.x, labels, A


def combination(m: int, items) -> tuple[dict[int, int], dict[tuple[int, int], int]]:
    """The combined coefficients sum_X y_X row(X) on psi and on u (exact integers)."""
    psi: dict[int, int] = {}
    u: dict[tuple[int, int], int] = {}
    for (q, others), side, y in items:
        t = target(q, others)
        for z in (q, *others):
            if side == "lower":
                psi[z] = psi.get(z, 0) - y * (2 * t - 1)
                u[(q, z)] = u.get((q, z), 0) + 2 * y
            else:
                psi[z] = psi.get(z, 0) + y * (2 * t + 1)
                u[(q, z)] = u.get((q, z), 0) - 2 * y
    return psi, u


def _nullspace(rows: list[list[int]], k: int) -> list[list[Fraction]]:
    """A basis of {y in Q^k : rows y = 0} (FLINT, exact)."""
    import flint

    if not rows:
        return [[Fraction(int(i == j)) for i in range(k)] for j in range(k)]
    basis, dim = flint.fmpz_mat(rows).nullspace()
    return [[Fraction(int(basis[i, j])) for i in range(k)] for j in range(dim)]


def _exact_point(E: list[list[int]], y: np.ndarray) -> list[Fraction] | None:
    """An exact y' in the null space of E near the float y > 0 (least squares in a
    normalised basis, with the float coefficients taken exactly), or None if not > 0."""
    vectors = _nullspace(E, len(y))
    if not vectors:
        return None
    vectors = [[x / max(abs(v) for v in vec) for x in vec] for vec in vectors]
    B = np.array([[float(x) for x in vec] for vec in vectors]).T
    coef, *_ = np.linalg.lstsq(B, y / y.max(), rcond=None)
    point = [sum((Fraction(float(c)) * vec[i] for c, vec in zip(coef, vectors, strict=True)), Fraction(0)) for i in range(len(y))]
    return point if all(x > 0 for x in point) else None


def _reduce(rows_u: list[list[int]], rows_psi: list[list[int]], y: list[Fraction]) -> tuple[list[int], list[Fraction]]:
    """Caratheodory, exactly: while the equalities on the support leave a null space of
    dimension >= 2, move along a second null vector until an entry of y (or a psi
    coefficient, which must stay <= 0) reaches 0.  Returns (kept indices, y on them)."""
    idx = list(range(len(y)))
    tight = [j for j, row in enumerate(rows_psi) if sum(r * x for r, x in zip(row, y, strict=True)) == 0]
    while True:
        E = [[row[i] for i in idx] for row in rows_u] + [[rows_psi[j][i] for i in idx] for j in tight]
        E = [row for row in E if any(row)]
        cur = [y[i] for i in idx]
        vectors = _nullspace(E, len(idx))
        v = next((vec for vec in vectors if any(a * cur[0] != b * vec[0] for a, b in zip(vec, cur, strict=True))), None)
        if len(vectors) < 2 or v is None:
            return idx, cur
        if not any(x > 0 for x in v):
            v = [-x for x in v]
        theta = min(c / x for c, x in zip(cur, v, strict=True) if x > 0)
        loose = [j for j in range(len(rows_psi)) if j not in tight]
        for j in loose:
            now = sum(rows_psi[j][i] * c for i, c in zip(idx, cur, strict=True))
            slope = -sum(rows_psi[j][i] * x for i, x in zip(idx, v, strict=True))
            if slope > 0 and -now / slope < theta:
                theta = -now / slope
        new = [c - theta * x for c, x in zip(cur, v, strict=True)]
        for i, c in zip(idx, new, strict=True):
            y[i] = c
        tight = [j for j in range(len(rows_psi)) if sum(rows_psi[j][i] * y[i] for i in idx) == 0]
        idx = [i for i, c in zip(idx, new, strict=True) if c != 0]


def _exact_on_support(A, support: list[int], T: int, y_float) -> list[int] | None:
    """Integer y > 0 on part of `support` whose combination is 0 on every u(q, z) and
    <= 0 on every psi(z): FLINT's exact null space, then an exact Caratheodory reduction."""
    from math import gcd, lcm

    sub = A[support].toarray().astype(np.int64)  # rows: inputs; columns: variables
    used = [c for c in range(sub.shape[1]) if sub[:, c].any()]
    combo = y_float[support] @ sub
    scale = max(abs(combo).max(), 1e-300)
    rows_u = [[int(x) for x in sub[:, c]] for c in used if c >= T]
    rows_psi = [[int(x) for x in sub[:, c]] for c in used if c < T]
    tight = [[int(x) for x in sub[:, c]] for c in used if c < T and abs(combo[c]) <= 1e-9 * scale]
    point = _exact_point(rows_u + tight, y_float[support])
    if point is None:
        return None
    idx, vals = _reduce(rows_u, rows_psi, point)
    d = lcm(*(x.denominator for x in vals))
    ints = [int(x * d) for x in vals]
    g = 0
    for x in ints:
        g = gcd(g, x)
    out = [0] * len(support)
    for i, x in zip(idx, ints, strict=True):
        out[i] = x // g
    return out


def farkas(m: int, n: int) -> FarkasCertificate | None:
    """Exact sparse Farkas multipliers proving that no rank-one head solves length n on
    m bits, or None (the LP is feasible, or the exact step failed)."""
    y, labels, A = _dual_lp(m, n)
    if y is None:
        return None
    T = 1 << m
    support = [i for i in np.argsort(-y) if y[i] > 1e-12]
    ints = _exact_on_support(A, sorted(support), T, y)
    if ints is None:
        return None
    items = tuple((labels[i][0], labels[i][1], k) for i, k in zip(sorted(support), ints, strict=True) if k)
    psi, u = combination(m, items)
    if any(u.values()) or any(c > 0 for c in psi.values()):
        return None
    return FarkasCertificate(m, n, items)


def least_infeasible(n: int, max_m: int = 5) -> int | None:
    """The least m at which the rank-one LP has no positive margin."""
    for m in range(1, max_m + 1):
        mu, _, _ = feasible_lp(m, n)
        if mu <= 1e-9:
            return m
    return None


def certificate(c: FarkasCertificate) -> dict:
    """A v2 `rank-one-infeasible` certificate (docs/certificate-format-v2.md)."""
    from ..certificate import header

    psi, u = combination(c.m, c.multipliers)
    if any(u.values()) or any(x > 0 for x in psi.values()):
        raise InvalidArgument("not a Farkas certificate")  # farkas() only returns verified ones
    doc = header("rank-one-infeasible", version=2)
    doc.update(
        m=c.m,
        n=c.n,
        positions="all",
        inequalities=[
            {"query": token_string(q, c.m), "others": [token_string(z, c.m) for z in others], "side": side, "multiplier": y}
            for (q, others), side, y in sorted(c.multipliers)
        ],
        claims={"lower_bound": 2},
    )
    return doc
