"""Gap domination (THEORY §3 L1), for one query row in the per-query reduction.

Fix a query q of weight p and keys a, b of levels s < s' = s + d (both <= p).  With
K0 = K(q) and D(z) = K0 + (n-1) K(z), a head with error < 1/2 at the query on
S_A = (q, a, ..., a), S_B = (q, b, ..., b) and S_M = (q, a, b, ..., b) has
D(a) > (n-2)(d-1) D(b); for d = 1 only D(a) > 0 follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from ..errors import InvalidArgument


HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Row:
    """The per-query reduction restricted to q, a, b: weights K(.) >= 0 and values F(.)."""

    p: int
    s: int
    s2: int
    k0: Fraction
    ka: Fraction
    kb: Fraction
    fq: Fraction
    fa: Fraction
    fb: Fraction


def outputs(row: Row, n: int) -> tuple[Fraction | None, Fraction | None, Fraction | None]:
    """y(S_A), y(S_B), y(S_M); None where the denominator is not > 0."""

    def y(pairs):
        den = sum(k for k, _ in pairs)
        return None if den <= 0 else sum(k * f for k, f in pairs) / den

    q, a, b = (row.k0, row.fq), (row.ka, row.fa), (row.kb, row.fb)
    return y([q] + [a] * (n - 1)), y([q] + [b] * (n - 1)), y([q, a] + [b] * (n - 2))


def premise(row: Row, n: int) -> bool:
    """Error < 1/2 at the query on S_A, S_B, S_M (targets s, s', s)."""
    ya, yb, ym = outputs(row, n)
    return all(y is not None and abs(y - t) < HALF for y, t in ((ya, row.s), (yb, row.s2), (ym, row.s)))


def factor(n: int, d: int) -> int:
    """(n-2)(d-1): the L1 domination factor of a link of gap d (THEORY L1)."""
    return (n - 2) * (d - 1)


def dominates(n: int, d: int, d_a: Fraction, d_b: Fraction) -> bool:
    """L1's conclusion for keys at gap d: D(a) > (n-2)(d-1) D(b) (for d = 1: D(a) > 0)."""
    return d_a > 0 if d == 1 else d_a > factor(n, d) * d_b


def conclusion(row: Row, n: int) -> bool:
    """D(a) > (n-2)(d-1) D(b) (for d = 1: D(a) > 0), D(z) = K0 + (n-1) K(z)."""
    return dominates(n, row.s2 - row.s, row.k0 + (n - 1) * row.ka, row.k0 + (n - 1) * row.kb)


def tight_row(n: int, s: int, d: int, eps: Fraction) -> Row:
    """A row meeting the premise with K0 = 0 and D(a) < (1 + eps) (n-2)(d-1) D(b), for
    (n-2)(d-1) >= 1 (THEORY L1: the factor is tight).  F(a) = s - 1/2 + u, F(b) = s' - 1/2 + v
    with small u, v; K(a)/K(b) is set just above the value where y(S_M) reaches s + 1/2."""
    rho = factor(n, d)
    if rho < 1:
        raise InvalidArgument("tightness needs (n-2)(d-1) >= 1")
    u = v = eps / (4 * (d + 1))
    fa, fb = s - HALF + u, s + d - HALF + v
    # y(S_M) = (ka fa + (n-2) kb fb) / (ka + (n-2) kb) < s + 1/2  <=>  ka / kb > (n-2)(fb - s - 1/2)/(s + 1/2 - fa)
    critical = (n - 2) * (fb - s - HALF) / (s + HALF - fa)
    ka = critical * (1 + eps / 2)
    return Row(s + d, s, s + d, Fraction(0), ka, Fraction(1), Fraction(0), fa, fb)


@dataclass(frozen=True)
class PositionalRow:
    """Position-dependent maps for one query row (THEORY L5): at key position j = 2..n
    (index j-2 here) the key z has weight K_j(z) >= 0 and value F_j(z)."""

    s: int
    s2: int
    k0: Fraction
    fq: Fraction
    ka: tuple[Fraction, ...]
    kb: tuple[Fraction, ...]
    fa: tuple[Fraction, ...]
    fb: tuple[Fraction, ...]

    @property
    def keys(self) -> int:
        return len(self.ka)


def positional_outputs(row: PositionalRow) -> tuple[Fraction | None, Fraction | None, list[Fraction | None]]:
    """y(S_A), y(S_B) and y of the n-1 placements of a among the key positions."""

    def y(which: list[str]):
        k = [row.ka[j] if w == "a" else row.kb[j] for j, w in enumerate(which)]
        f = [row.fa[j] if w == "a" else row.fb[j] for j, w in enumerate(which)]
        den = row.k0 + sum(k)
        return None if den <= 0 else (row.k0 * row.fq + sum(x * v for x, v in zip(k, f, strict=True))) / den

    t = row.keys
    return y(["a"] * t), y(["b"] * t), [y(["a" if j == i else "b" for j in range(t)]) for i in range(t)]


def positional_premise(row: PositionalRow) -> bool:
    ya, yb, mixed = positional_outputs(row)
    pairs = [(ya, row.s), (yb, row.s2)] + [(y, row.s) for y in mixed]
    return all(y is not None and abs(y - t) < HALF for y, t in pairs)


def positional_conclusion(row: PositionalRow) -> bool:
    """D(a) > (n-2)(d-1) D(b) with D(z) = K0 + sum_j K_j(z) (n = keys + 1)."""
    return dominates(row.keys + 1, row.s2 - row.s, row.k0 + sum(row.ka), row.k0 + sum(row.kb))
