"""The rank-one inequality system (THEORY U5, last paragraph), shared by the rank-one head
(upper side, its primal LP) and the rank-one Farkas certificate (lower side, its dual).

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
Both LPs use only the extreme-class inputs (q, a, b^(n-2)) (:func:`kernelbounds.classes.extreme_class_inputs`):
the primal is equivalent on them, and a Farkas certificate may use any inputs.
"""

from __future__ import annotations

from collections.abc import Iterator

from .classes import extreme_class_inputs
from .model import min_ip_target

Input = tuple[int, tuple[int, ...]]


def inequality(q: int, others: tuple[int, ...], side: str) -> tuple[dict[int, int], dict[tuple[int, int], int]]:
    """The coefficients of side(X) ("lower" or "upper") of X = (q, others): ({z: coefficient of
    psi(z)}, {(q, z): coefficient of u(q, z)}), a token repeated in X counted each time."""
    t = min_ip_target((q, *others), 0)
    counts: dict[int, int] = {}
    for z in (q, *others):
        counts[z] = counts.get(z, 0) + 1
    if side == "lower":
        return {z: -(2 * t - 1) * c for z, c in counts.items()}, {(q, z): 2 * c for z, c in counts.items()}
    return {z: (2 * t + 1) * c for z, c in counts.items()}, {(q, z): -2 * c for z, c in counts.items()}


def rows(m: int, n: int) -> Iterator[tuple[Input, str, dict[int, int], dict[tuple[int, int], int]]]:
    """(input, side, psi coefficients, u coefficients) for every extreme-class input, lower side first."""
    for q, others in extreme_class_inputs(m, n):
        for side in ("lower", "upper"):
            yield (q, others), side, *inequality(q, others, side)


def matrix(m: int, n: int):
    """The inequality rows as a sparse integer matrix over the variables psi(z) (columns
    0 .. 2^m - 1) and u(q, z) (column 2^m + q 2^m + z), with the (input, side) of each row."""
    from scipy.sparse import csr_matrix

    T = 1 << m
    data: list[int] = []
    ri: list[int] = []
    ci: list[int] = []
    labels: list[tuple[Input, str]] = []
    for i, (inp, side, pc, uc) in enumerate(rows(m, n)):
        labels.append((inp, side))
        for z, c in pc.items():
            data.append(c)
            ri.append(i)
            ci.append(z)
        for (q, z), c in uc.items():
            data.append(c)
            ri.append(i)
            ci.append(T + q * T + z)
    return csr_matrix((data, (ri, ci)), shape=(len(labels), T + T * T)), labels

