"""The sharp ceiling of the lower-bound method L3/L4 (THEORY §3, "The ceiling of L3/L4
(sharp form)").

For any N distinct keys, any queries and any chains, with e_ij = 1/P_ij and
rho_n = 1 / max_{d >= 2} ((n - 2)(d - 1))^(1/d), THEORY proves
N + sum_{i != j} e_ij^(2k) >= N^2 ((1 + rho_n^k)/2)^m, so the quantity B_k that a certificate
combining (weighted) Schur with the k-th Hadamard power of one approximate identity can reach
is below T_k = (2 / (1 + rho_n^k))^m (< 2^m), and no such certificate proves more than

    ceiling(m, n) = max_{k = 1..8} least { r : C(r + k - 1, k) > T_k }

(k >= 9 never helps, THEORY).  At n = 3: 3,864 at m = 64, 14,924,693 at m = 128; for m <= 35
some k in 2..4 gives more than k = 1 (65 at m = 32, k = 2).  For a signed kernel (L8) the
matrix the method bounds has rank at most r + 1, so the rank it proves is one less: the
ceiling of a signed class's lower side is one less (``signed=True``; THEORY words this as
"plus 1", meaning the ceiling on r + 1).

Everything here is exact: rho_n^k = c^(-k/d) for integers c, d found by integer comparisons,
and floor(T_k) is decided by ball arithmetic (FLINT's arb) whose precision grows until the
ball's floor is one integer, or by rational arithmetic when c^k is a perfect d-th power.
Since C(r + k - 1, k) is an integer, C > T_k exactly when C > floor(T_k).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .rankbound import least_rank  # the least r with C(r + k - 1, k) above a threshold (L3)

#: the Hadamard powers tried (THEORY: k >= 9 never helps)
POWERS = range(1, 9)


def rho_base(n: int) -> tuple[int, int]:
    """(c, d) with rho_n = c^(-1/d): d >= 2 maximises ((n - 2)(d - 1))^(1/d), c = (n - 2)(d - 1).

    log((n - 2)(x - 1)) / x is unimodal in x > 1 (its derivative's sign is that of
    x/(x - 1) - log((n - 2)(x - 1)), strictly decreasing), so the first d whose successor is
    not larger is the maximum; f(d + 1) > f(d) is the integer comparison
    ((n - 2) d)^d > ((n - 2)(d - 1))^(d + 1)."""
    if n < 3:
        raise ValueError(f"the ceiling of L3/L4 is for n >= 3, not n = {n}")
    a, d = n - 2, 2
    while (a * d) ** d > (a * (d - 1)) ** (d + 1):
        d += 1
    return a * (d - 1), d


def _exact_root(c: int, k: int, d: int) -> int | None:
    """The integer c^(k/d) when c^k is a perfect d-th power, else None."""
    p = c**k
    r = round(p ** (1.0 / d))
    for s in (r - 1, r, r + 1):
        if s >= 0 and s**d == p:
            return s
    return None


def floor_threshold(m: int, n: int, k: int) -> int:
    """floor(T_k) for T_k = (2 / (1 + rho_n^k))^m, exactly."""
    c, d = rho_base(n)
    root = _exact_root(c, k, d)
    if root is not None:  # rho_n^k = 1/root is rational
        t = Fraction(2 * root, root + 1) ** m
        return t.numerator // t.denominator
    from flint import arb, ctx  # python-flint's ball arithmetic

    saved = ctx.prec
    try:
        prec = 64 + m
        while prec <= 1 << 16:
            ctx.prec = prec
            t = (2 / (1 + arb(c) ** (arb(-k) / d))) ** m
            lo, hi = t.lower().floor(), t.upper().floor()
            if lo == hi:
                return int(lo.unique_fmpz())
            prec *= 2
    finally:
        ctx.prec = saved
    raise ArithmeticError(f"floor((2/(1+rho^k))^m) undecided at m = {m}, n = {n}, k = {k}")  # pragma: no cover


@lru_cache(maxsize=4096)
def per_power(m: int, n: int) -> tuple[int, ...]:
    """For k = 1..8, the least r that the k-th Hadamard power cannot beat at (m, n)."""
    return tuple(least_rank(k, floor_threshold(m, n, k)) for k in POWERS)


def ceiling(m: int, n: int, signed: bool = False) -> int:
    """The most any L3/L4 certificate can prove about r*(m, n) (n >= 3, m >= 1): that method
    never proves r* >= ceiling(m, n) + 1.  For a signed kernel (THEORY L8: the certificate
    proves r + 1 >= its bound) one less."""
    if m < 1:
        raise ValueError(f"m must be at least 1, not {m}")
    return max(per_power(m, n)) - (1 if signed else 0)


def best_power(m: int, n: int) -> int:
    """The k in 1..8 that attains :func:`ceiling` (the least such k)."""
    values = per_power(m, n)
    return 1 + values.index(max(values))
