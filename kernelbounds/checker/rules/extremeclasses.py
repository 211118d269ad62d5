"""LF3 for the complement basis with the affine readout: the worst error over every level
class from the O(m^2) extreme classes (THEORY §2 U4'; docs/certificate-format-v2.md,
kind `level-family`, rule LF3x).  Trusted base: imports nothing outside the checker.

Reduction (proved in the spec).  For a query of weight p and keys at levels l_k put
x_k = p - l_k in [0, p] (the query's own key has x = 0) and X = max_k x_k.  The least level
is t = p - X and the weight of a key is H(x) = sum_j g_j C(x, j), so

    y - t = sum_k H(x_k) (X - x_k) / sum_k H(x_k) - 1/2 + eps,

which depends on p only through the multiset {x_k}.  The multisets that occur are those of
the query's key (x = 0), one key at X and n - 2 keys anywhere in [0, X], for X = 0..m
(take p = m).  For fixed X this is a ratio A / B of sums of one term per key with every
term of B > 0; at the class C that maximises it, with value R, A - R B <= 0 for every
class and = 0 at C, and A - R B is a sum of one term per free key, so the class with all
free keys at the u maximising H(u)(X - u) - R H(u) has A - R B >= 0, hence ratio R.  The
same holds for the minimum.  So the largest and the least y - t over all C(m+n, n) classes
are attained at the extreme classes (X, u), 0 <= u <= X <= m, and the worst |y - t| is the
larger of their absolute values.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from ..rational import scale_to_ints

HALF = Fraction(1, 2)


def applies(basis: str, readout: str) -> bool:
    """The reduction is proved for the complement basis with the affine readout."""
    return basis == "complement" and readout == "affine"


def kernel(g: list[Fraction], m: int) -> list[int]:
    """H(x) * D for x = 0..m, D > 0 the lcm of g's denominators (ratios are unchanged)."""
    ints, _ = scale_to_ints(g)
    nz = [(j, c) for j, c in enumerate(ints) if c]
    return [sum(c * comb(x, j) for j, c in nz) for x in range(m + 1)]


def count(m: int) -> int:
    """The number of extreme classes (X, u) with 0 <= u <= X <= m."""
    return (m + 1) * (m + 2) // 2


def level_class(X: int, u: int, n: int) -> tuple[int, ...]:
    """The level class (p, l_2..l_n) of (X, u) at p = X: one key at level 0, n - 2 at X - u."""
    return (X, 0, *([X - u] * (n - 2)))


def worst(g: list[Fraction], eps: Fraction, m: int, n: int) -> tuple[Fraction, tuple[int, ...]]:
    """(the worst |y - t| over every level class, a level class attaining it), from the
    extreme classes; every H(x) must be > 0 (LF1 is checked first)."""
    h = kernel(g, m)
    g0 = h[0]
    hi_num, hi_den, hi_at = 0, 1, (0, 0)  # the ratio sum H (X - x) / sum H; 0 at X = 0
    lo_num, lo_den, lo_at = 0, 1, (0, 0)
    for X in range(m + 1):
        for u in range(X + 1):
            num = g0 * X + (n - 2) * (X - u) * h[u]
            den = g0 + h[X] + (n - 2) * h[u]
            if num * hi_den > hi_num * den:
                hi_num, hi_den, hi_at = num, den, (X, u)
            if num * lo_den < lo_num * den:
                lo_num, lo_den, lo_at = num, den, (X, u)
    shift = eps - HALF
    top, bottom = Fraction(hi_num, hi_den) + shift, Fraction(lo_num, lo_den) + shift
    if abs(top) >= abs(bottom):
        return abs(top), level_class(*hi_at, n)
    return abs(bottom), level_class(*lo_at, n)


