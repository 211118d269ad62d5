"""The approximate-identity rank bound (THEORY §3 L3), in exact arithmetic.

M is N x N with M_ii = 1 and 0 <= M_ij < e_ij.  Schur's bound on M^(o k), whose rank
is at most C(rank M + k - 1, k), gives C(rank M + k - 1, k) > N^2 / (N + S_k) with
S_k = sum_{i != j} e_ij^(2k).  With e_ij = 1/P_ij and the P_ij grouped by value,
S_k = sum_P count_P / P^(2k).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from ..errors import InvalidArgument


MAX_K = 64


def least_rank(k: int, threshold: Fraction) -> int:
    """The least r >= 1 with C(r + k - 1, k) > threshold."""
    lo, hi = 1, 1
    while comb(hi + k - 1, k) <= threshold:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if comb(mid + k - 1, k) > threshold:
            hi = mid
        else:
            lo = mid + 1
    return lo


def threshold(n_rows: int, product_counts: Mapping[int, int], k: int) -> Fraction:
    """N^2 / (N + S_k) for off-diagonal bounds e = 1/P with the given multiplicities."""
    s_k = sum((Fraction(count, p ** (2 * k)) for p, count in product_counts.items()), Fraction(0))
    return Fraction(n_rows * n_rows) / (n_rows + s_k)


@dataclass(frozen=True)
class RankBound:
    bound: int  # every head solving the family has feature rank >= bound
    k: int  # the Hadamard power that attains it


def best_rank_bound(n_rows: int, product_counts: Mapping[int, int], max_k: int = MAX_K, patience: int = 6) -> RankBound:
    """max over k = 1, 2, ... of least_rank(k, N^2/(N + S_k)); ties keep the smallest k.

    Stops at max_k, or after `patience` consecutive k without improvement once the
    least r has dropped to <= 2 or started falling (THEORY L3).  Any k gives a valid
    bound, so stopping early only costs strength, never soundness.
    """
    if n_rows < 2:
        raise InvalidArgument("the bound needs N >= 2")
    if any(p < 1 for p in product_counts):
        raise InvalidArgument("every chain product must be >= 1")
    best = RankBound(0, 0)
    for k in range(1, max_k + 1):
        r = least_rank(k, threshold(n_rows, product_counts, k))
        if r > best.bound:
            best = RankBound(r, k)
        elif k - best.k >= patience:
            break
    return best


def uniform_bound(n_rows: int, p_min: int, k: int) -> int:
    """The bound with every e_ij = 1/p_min (THEORY L3's first form)."""
    return least_rank(k, threshold(n_rows, {p_min: n_rows * (n_rows - 1)}, k))
