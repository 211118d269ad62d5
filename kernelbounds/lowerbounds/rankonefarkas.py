"""Rank one fails at small m: exact Farkas (Motzkin) certificates that the rank-one
inequality system of :mod:`kernelbounds.rankonesystem` is infeasible (THEORY U5, last
paragraph), a lower bound r*(m, n) >= 2.

**Farkas (Motzkin) certificate**: integers y_X > 0 on some of the inequalities lower(X),
upper(X) whose combination has coefficient 0 on every u(q, z) and <= 0 on every psi(z).
Then for a solution the combination would be > 0 (a positive sum of positive numbers) and
<= 0 (psi >= 0): no rank-one head solves length n on m bits, so r*(m, n) >= 2, and
r*(m', n) >= 2 for every m' >= m (restrict a head on m' bits to tokens with the top bits 0).

The multipliers live on extreme-class inputs (q, a, b^(n-2)).  HiGHS proposes a vertex
of the dual LP (sparse: at most one more nonzero than equations); FLINT's exact null space
on its support decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..bits import to_str
from ..errors import InvalidArgument
from ..rankonesystem import inequality, matrix


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
    A, labels = matrix(m, n)
    At = A.T.tocsr()
    a_eq = vstack([At[T:], csr_matrix(np.ones((1, A.shape[0])))]).tocsr()
    b_eq = np.zeros(a_eq.shape[0])
    b_eq[-1] = 1.0
    res = linprog(np.zeros(A.shape[0]), A_ub=At[:T], b_ub=np.zeros(T), A_eq=a_eq, b_eq=b_eq, bounds=[(0, None)] * A.shape[0], method="highs-ds")
    if res.status != 0:
        return None, labels, A
    return res.x, labels, A


def combination(items) -> tuple[dict[int, int], dict[tuple[int, int], int]]:
    """sum_X y_X side(X) over items ((q, others), side, y): the combined coefficients on psi
    and on u (exact integers; a Farkas certificate has every u coefficient 0 and every psi
    coefficient <= 0)."""
    psi: dict[int, int] = {}
    u: dict[tuple[int, int], int] = {}
    for (q, others), side, y in items:
        pc, uc = inequality(q, others, side)
        for z, c in pc.items():
            psi[z] = psi.get(z, 0) + y * c
        for key, c in uc.items():
            u[key] = u.get(key, 0) + y * c
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
    psi, u = combination(items)
    if any(u.values()) or any(c > 0 for c in psi.values()):
        return None
    return FarkasCertificate(m, n, items)


def certificate(c: FarkasCertificate) -> dict:
    """A v2 `rank-one-infeasible` certificate (docs/certificate-format-v2.md)."""
    from ..certificate import header

    psi, u = combination(c.multipliers)
    if any(u.values()) or any(x > 0 for x in psi.values()):
        raise InvalidArgument("not a Farkas certificate")  # farkas() only returns verified ones
    doc = header("rank-one-infeasible", version=2)
    doc.update(
        m=c.m,
        n=c.n,
        positions="all",
        inequalities=[
            {"query": to_str(q, c.m), "others": [to_str(z, c.m) for z in others], "side": side, "multiplier": y}
            for (q, others), side, y in sorted(c.multipliers)
        ],
        claims={"lower_bound": 2},
    )
    return doc
