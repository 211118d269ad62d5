"""A second route to L3's least rank (THEORY §3 L3), independent of the bisection in
rules/lowerbound.py: the least r >= 1 with C(r + k - 1, k) > x, from a closed form.

With s the integer k-th root of floor(k! x):
  r^k / k! <= C(r + k - 1, k) <= (r + k - 1)^k / k!,
so r = s + 1 already has C > x ((s+1)^k > floor(k! x) means (s+1)^k > k! x), and every
r <= s - k + 1 has C <= x ((r + k - 1)^k <= s^k <= k! x).  The least r is the first of
the at most k candidates max(1, s - k + 2) .. s + 1 with C(r + k - 1, k) > x.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, factorial, floor


def iroot(t: int, k: int) -> int:
    """The largest s >= 0 with s^k <= t (t >= 0, k >= 1)."""
    lo, hi = 0, 1 << (t.bit_length() // k + 1)
    while lo < hi:  # invariant: lo^k <= t < (hi + 1)^k ... until they meet
        mid = (lo + hi + 1) // 2
        if mid**k <= t:
            lo = mid
        else:
            hi = mid - 1
    return lo


def least_rank_closed_form(k: int, x: Fraction) -> int:
    """The least r >= 1 with C(r + k - 1, k) > x, by the k-th root bracket above."""
    s = iroot(max(floor(factorial(k) * Fraction(x)), 0), k)
    for r in range(max(1, s - k + 2), s + 2):
        if comb(r + k - 1, k) > x:
            return r
    raise AssertionError("the bracket of the module docstring failed")  # impossible


def confirm_least_rank(k: int, x: Fraction, r: int) -> None:
    """Raise (an internal checker error, exit 4) if the two routes disagree."""
    if least_rank_closed_form(k, x) != r:
        raise RuntimeError(f"least rank routes disagree at k = {k}, x = {x}: {r} by bisection")
