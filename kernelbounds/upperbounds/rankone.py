"""Rank one at small m, the upper side: one LP over every extreme-class input whose positive
margin gives an exactly verified rank-one head (THEORY U5, last paragraph).  The inequality
system is :mod:`kernelbounds.rankonesystem`; when the LP has no positive margin, the lower
side's :mod:`kernelbounds.lowerbounds.rankonefarkas` looks for exact Farkas multipliers.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..rankonesystem import matrix
from .generalheads import ExplicitHead, worst_error


def feasible_lp(m: int, n: int):
    """max mu with every row >= mu, psi >= mu, psi <= 1: (mu, psi, u) floats."""
    from scipy.optimize import linprog
    from scipy.sparse import hstack, vstack, csr_matrix, identity

    T = 1 << m
    A, _ = matrix(m, n)
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
