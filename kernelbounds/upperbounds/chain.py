"""The explicit nonnegative chain (THEORY §2 U4', "Explicit nonnegative family"): no LP.

For a chain 0 = j_0 < j_1 < ... < j_k put g_0 = 1 and g_(j_i) = beta * H_(i-1)(j_i - 1),
H_(i-1)(x) = sum_(i' < i) g_(j_i') C(x, j_i') the kernel of the earlier terms (beta = 16),
so every g_j is a positive integer and the features g_|T| [T ⊆ q], [T ∩ z = ∅] are
nonnegative.  The readout is affine, F = <q,z> - 1/2 + eps.  The reach R_i of j_0..j_i is
the largest X such that every extreme class with largest x <= X holds
(:func:`complementbasis.reach`); it does not depend on m.  The next element ranges over
(j_i, R_i + 1] (a class at X = j_(i+1) - 1 involves only the earlier terms), and for each m
the chain is the one of least cost sum_i C(m, j_i) whose last reach is >= m, found by a
depth-first search with branch-and-bound.

The bound that makes the search small is proved for every g >= 0 (so for every chain):
if H(x) = sum_(j <= k) g_j C(x, j) with g_j >= 0 satisfies the classes up to X, then for
X' in (k, X] and d >= 2, H(X') > (n - 2)(d - 1) H(X' - d) (the class (X', X' - d), using
g_0 (X' - 1) >= 0), and H(X' - d) >= H(X') C(X' - d, k) / C(X', k) (termwise: the ratio
C(X' - d, j) / C(X', j) = prod_(i < j) (X' - d - i) / (X' - i) does not increase with j,
and every g_j >= 0).  So the reach of any g >= 0 supported on [0, k] is at most

    U(k) = min{X > k : (n - 2)(d - 1) C(X - d, k) >= C(X, k) for some 2 <= d <= X - k} - 1,

and the cheapest completion of a chain ending at j costs at least T(j), the cheapest path
j -> j' -> ... with j' <= U(j) + 1 that ends at some U(j_k) >= m (a dynamic programme over
j).  The search is exact: the chain returned is the least-cost chain of this rule.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from . import complementbasis

BETA = 16


@lru_cache(maxsize=None)
def reach_bound(k: int, n: int) -> int:
    """U(k): an upper bound on the reach of every g >= 0 supported on [0, k] (module doc),
    for n >= 3: the first X > k with (n - 2)(d - 1) C(X - d, k) >= C(X, k) for some d, less 1."""
    if n < 3:
        raise ValueError("the reach bound needs n >= 3")
    X = k
    while True:
        X += 1
        ck = comb(X, k)
        if _some_gap(X, k, n, ck):
            return X - 1


def _some_gap(X: int, k: int, n: int, ck: int) -> bool:
    """Whether (n - 2)(d - 1) C(X - d, k) >= C(X, k) for some 2 <= d <= X - k.  The term
    f(d) = (d - 1) C(X - d, k) is log-concave in d (f(d + 1) / f(d) = d / (d - 1) *
    (X - d - k) / (X - d) decreases with d), so once it decreases it stays below its maximum:
    the scan stops there.  C(X - d, k) is updated by one exact division per step."""
    if X - k < 2:
        return False
    c, prev = comb(X - 2, k), -1
    for d in range(2, X - k + 1):
        if d > 2:
            c = c * (X - d + 1 - k) // (X - d + 1)
        f = (n - 2) * (d - 1) * c
        if f >= ck:
            return True
        if f < prev:
            return False
        prev = f
    return False


@lru_cache(maxsize=None)
def _chain_reach(chain: tuple[int, ...], n: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(reach, g) of a chain: g_0 = 1, g_(j_i) = BETA * H_(i-1)(j_i - 1) (exact integers)."""
    if len(chain) == 1:
        g = {0: 1}
        return complementbasis.reach(g, n, 0, limit=_limit(0, n)), ((0, 1),)
    _, parent = _chain_reach(chain[:-1], n)
    g = dict(parent)
    j = chain[-1]
    g[j] = BETA * sum(v * comb(j - 1, i) for i, v in g.items())
    return complementbasis.reach(g, n, start=j, limit=_limit(j, n)), tuple(sorted(g.items()))


def _limit(k: int, n: int) -> int:
    return reach_bound(k, n) + 1


def cost_to_go(m: int, n: int) -> list[int]:
    """T(j) (module doc): a lower bound on the cost still to pay after a chain ending at j
    whose reach is < m; None-free: unreachable states cost 2^(m+1)."""
    big = 2 ** (m + 1)
    t = [big] * (m + 2)
    for j in range(m, -1, -1):
        u = reach_bound(j, n)
        if u >= m:
            t[j] = 0
        else:
            t[j] = min((comb(m, jj) + t[jj] for jj in range(j + 1, min(u + 1, m) + 1)), default=big)
    return t


def _grow(g: tuple[tuple[int, int], ...], j: int, n: int, cap: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(reach capped at cap, g with j added by the rule g_j = BETA * H(j - 1)): every class with
    X < j involves only the parent's terms, so the check starts at X = j."""
    grown = dict(g)
    grown[j] = BETA * sum(v * comb(j - 1, i) for i, v in g)
    return complementbasis.reach(grown, n, start=j, limit=cap), tuple(sorted(grown.items()))


def least_extension(base: dict[int, int], base_reach: int, m: int, n: int) -> tuple[tuple[int, ...], dict[int, int], int, int]:
    """(elements added, g, cost of the added elements, nodes): the least-cost extension of an
    exact integer base (reach base_reach) by the rule g_j = BETA * H(j - 1), each new element
    in (last, reach + 1], whose last reach is >= m; () when the base already reaches m.

    Depth-first with branch-and-bound, children by (C(m, j) + T(j), -j), ties the first in that
    order.  Reaches are computed only up to m (a reach >= m ends a branch whatever its value),
    which changes no decision of the search.  T(j) is a lower bound on the cost to go when
    every g_j >= 0 (module doc), so for a nonnegative base the extension is the least of the
    rule; for a signed base the same pruning is a heuristic: the answer is decided exactly, but
    not claimed least."""
    t = cost_to_go(m, n)
    start = tuple(sorted(base.items()))
    best: list = [None, (), start]
    nodes = [0]

    def dfs(added: tuple[int, ...], g: tuple[tuple[int, int], ...], reach: int, c: int) -> None:
        nodes[0] += 1
        if reach >= m:
            if best[0] is None or c < best[0]:
                best[0], best[1], best[2] = c, added, g
            return
        last = max(j for j, _ in g)
        for j in sorted(range(last + 1, min(reach + 1, m) + 1), key=lambda j: (comb(m, j) + t[j], -j)):
            cj = comb(m, j)
            if best[0] is not None and c + cj + t[j] >= best[0]:
                continue
            r, child = _grow(g, j, n, m)
            if r >= j:
                dfs(added + (j,), child, r, c + cj)

    dfs((), start, min(base_reach, m), 0)
    if best[0] is None:
        raise ValueError(f"no extension reaches m = {m} at n = {n}")
    return best[1], dict(best[2]), best[0], nodes[0]


def least_chain(m: int, n: int) -> tuple[tuple[int, ...], int, int]:
    """(chain, cost, nodes): the least-cost chain with last reach >= m (ties: the first in
    the search order, children by (C(m, j) + T(j), -j)), depth-first with branch-and-bound."""
    r0, _ = _chain_reach((0,), n)
    added, _, c, nodes = least_extension({0: 1}, r0, m, n)
    return (0,) + added, 1 + c, nodes


def explicit(m: int, n: int) -> complementbasis.Construction:
    """The explicit nonnegative chain at (m, n), decided by the exact extreme-class check.

    Returns a :class:`complementbasis.Construction` (``.rank``, ``.support``, ``.g`` exact,
    ``.certificate()``).  Deterministic; n >= 3 and 1 <= m (fast for m <= 64, n <= 8)."""
    if n < 3 or m < 1:
        raise ValueError("the explicit chain is defined for n >= 3 and m >= 1")
    chain, c, nodes = least_chain(m, n)
    reach, g = _chain_reach(chain, n)
    found = complementbasis.decide(dict(g), m, n, "explicit chain", {"nodes": nodes, "reach": reach, "chain": list(chain)})
    if found is None:  # the DFS used the same exact reach: this would be a bug, never a silent answer
        raise AssertionError(f"the chain {chain} at m = {m}, n = {n} fails the exact class check")
    assert found.rank == c
    return found
