"""The complement basis at scale: exact arithmetic over the extreme classes (THEORY §2 U4').

In the complement basis the weight of a key depends only on x = |q \\ z|:
H(x) = sum_j g_j C(x, j).  With the affine readout F = <q,z> - 1/2 + eps (eps
eliminated), a level class with largest x = X, the query's own key at x = 0, one key at
x = X and the other n - 2 keys at x_k <= X satisfies the condition iff

    g_0 (X - 1) - H(X) + sum_k H(x_k) (X - x_k - 1) < 0,

independently of the query weight p >= X.  Each term depends on one key, so the worst
case over the n - 2 free keys puts all of them at one level u: the **extreme classes**
(X, u), 0 <= u <= X <= m, O(m^2) of them for every n.  The same argument (Dinkelbach: a
ratio of sums of per-key terms is largest where the separable sum ``num - R den`` is)
shows that the worst error |y - t| and the room left for eps are attained on extreme
classes too, so the exact numbers below equal those over all C(m+n, n) classes.

Everything here is exact (Python integers; a rational g is scaled to integers first, which
changes neither a sign nor a ratio).  Floats never enter this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, lcm

HALF = Fraction(1, 2)


def integral(g: dict[int, Fraction | int]) -> dict[int, int]:
    """g scaled by the lcm of its denominators (a positive factor: signs and ratios kept)."""
    d = lcm(*(Fraction(v).denominator for v in g.values())) if g else 1
    return {j: int(Fraction(v) * d) for j, v in sorted(g.items()) if v != 0}


def kernel(g: dict[int, int], upto: int) -> list[int]:
    """H(x) = sum_j g_j C(x, j) for x = 0..upto."""
    return [sum(v * comb(x, j) for j, v in g.items()) for x in range(upto + 1)]


def class_value(h: list[int], X: int, u: int, n: int) -> int:
    """The affine class row at (X, u) (THEORY U4'): it must be < 0."""
    return h[0] * (X - 1) - h[X] + (n - 2) * h[u] * (X - u - 1)


def reach(g: dict[int, int], n: int, start: int = 0, limit: int = 10**4, h: list[int] | None = None) -> int:
    """The largest X <= limit such that H(x) > 0 for x <= X and every extreme class with
    largest x <= X holds; classes with X < start are taken as already checked (their rows
    involve only g_j with j < start when start <= min support beyond the checked part)."""
    h = list(h) if h is not None else kernel(g, max(start - 1, 0))
    g0 = g.get(0, 0)
    if g0 <= 0:
        return -1
    top = 0  # max_(u <= X - 2) H(u) (X - u - 1), maintained incrementally would need all u: recomputed
    for X in range(max(start, 1), limit + 1):
        while len(h) <= X:
            h.append(sum(v * comb(len(h), j) for j, v in g.items()))
        if h[X] <= 0:
            return X - 1
        top = max((h[u] * (X - u - 1) for u in range(X - 1)), default=0)
        if g0 * (X - 1) - h[X] + (n - 2) * top >= 0:
            return X - 1
    return limit


@dataclass(frozen=True)
class Verdict:
    """The exact facts of one g at (m, n) over the extreme classes."""

    ok: bool  # every weight > 0 and every class row < 0
    room: Fraction  # min over classes of slack / sum w: eps works iff eps < room
    eps: Fraction | None  # the canonical eps (a power of 1/2 below room), None if not ok
    worst: Fraction | None  # the worst |y - t| over every class with that eps
    witness: tuple[int, int] | None  # an extreme class (X, u) attaining worst


def canonical_eps(room: Fraction) -> Fraction:
    """The largest power of 1/2 that is <= 1/2 and < room (as levelfamily._eliminated_eps)."""
    eps = HALF
    while eps >= room:
        eps /= 2
    return eps


def verdict(g: dict[int, Fraction | int], m: int, n: int) -> Verdict:
    """Decide g exactly at (m, n): weights, every extreme class, eps and the worst error."""
    gi = integral(g)
    h = kernel(gi, m)
    if min(h) <= 0:
        return Verdict(False, Fraction(0), None, None, None)
    g0 = h[0]
    room_num, room_den = 1, 1  # the class X = 0 has slack / sum w = 1
    for X in range(1, m + 1):
        for u in range(X + 1):
            slack = -class_value(h, X, u, n)
            if slack <= 0:
                return Verdict(False, Fraction(0), None, None, (X, u))
            den = g0 + h[X] + (n - 2) * h[u]
            if slack * room_den < room_num * den:
                room_num, room_den = slack, den
    room = Fraction(room_num, room_den)
    eps = canonical_eps(room)
    worst, witness = _worst(h, m, n, eps)
    return Verdict(True, room, eps, worst, witness)


def _worst(h: list[int], m: int, n: int, eps: Fraction) -> tuple[Fraction, tuple[int, int]]:
    """max |y - t| over the extreme classes: y - t = (g_0 X + (n-2)(X - u) H(u)) / sum w
    - 1/2 + eps; its least value -1/2 + eps is attained at X = 0."""
    best_num, best_den, witness = 0, 1, (0, 0)
    g0 = h[0]
    for X in range(1, m + 1):
        for u in range(X + 1):
            num = g0 * X + (n - 2) * (X - u) * h[u]
            den = g0 + h[X] + (n - 2) * h[u]
            if num * best_den > best_num * den:
                best_num, best_den, witness = num, den, (X, u)
    upper = Fraction(best_num, best_den) - HALF + eps
    lower = HALF - eps
    return (upper, witness) if upper > lower else (lower, (0, 0))


def level_class(X: int, u: int, n: int) -> tuple[int, ...]:
    """The level class (p, l_2..l_n) of an extreme class at the least query weight p = X:
    one key at level 0 (x = X) and n - 2 keys at level X - u."""
    return (X, 0, *([X - u] * (n - 2)))


# ---------------------------------------------------------------- the construction


@dataclass
class Construction:
    """A complement-basis, affine-readout level construction decided exactly at (m, n)."""

    m: int
    n: int
    g: dict[int, Fraction]
    eps: Fraction
    worst: Fraction
    method: str  # "explicit chain" or "prefix search"
    stats: dict = field(default_factory=dict)

    @property
    def support(self) -> tuple[int, ...]:
        return tuple(sorted(j for j, v in self.g.items() if v != 0))

    @property
    def rank(self) -> int:
        return sum(comb(self.m, j) for j in self.support)

    @property
    def nonnegative(self) -> bool:
        return all(v >= 0 for v in self.g.values())

    def certificate(self) -> dict:
        """The format-v2 `level-family` certificate (complement basis, affine readout)."""
        return certificate(self.g, self.eps, self.worst, self.m, self.n)


def decide(g: dict[int, Fraction | int], m: int, n: int, method: str, stats: dict | None = None) -> Construction | None:
    """The construction of g at (m, n) if the exact extreme-class check passes, else None."""
    g = {j: Fraction(v) for j, v in sorted(g.items()) if v != 0}
    if not g or max(g) > m:
        return None
    v = verdict(g, m, n)
    if not v.ok or v.worst >= HALF:
        return None
    return Construction(m, n, g, v.eps, v.worst, method, dict(stats or {}))


def certificate(g: dict[int, Fraction], eps: Fraction, worst: Fraction, m: int, n: int) -> dict:
    """A `level-family` document (docs/certificate-format-v2.md) for g, eps at (m, n)."""
    from ..certificate import header, rational

    support = sorted(j for j, v in g.items() if v != 0)
    rank = sum(comb(m, j) for j in support)
    doc = header("level-family", version=2)
    doc.update(
        m=m,
        n=n,
        positions="all",
        basis="complement",
        differences=[rational(Fraction(g.get(j, 0))) for j in range(m + 1)],
        readout={"type": "affine", "eps": rational(eps)},
        claims={
            "worst_error": rational(worst),
            "feature_rank": rank,
            "kernel_rank": rank,
            "nonnegative_features": all(v >= 0 for v in g.values()),
            "support": support,
        },
    )
    return doc


def restrict(doc: dict, m: int) -> dict:
    """A complement-basis, affine-readout `level-family` certificate restricted to
    m <= doc's m bits (tokens whose top bits are 0): g_j with j <= m is kept (C(x, j) = 0
    for x <= m < j, and the classes at m are a subset of those at doc's m, so doc's eps
    still works) and the worst error is re-derived over the extreme classes, O(m^2) at
    every n; the same document as levelfamily.restrict, which enumerates every class.
    A minimality section is dropped."""
    if doc.get("basis") != "complement" or doc.get("readout", {}).get("type") != "affine":
        raise ValueError("complementbasis.restrict needs a complement-basis, affine-readout certificate")
    if not 1 <= m <= doc["m"]:
        raise ValueError(f"cannot restrict a certificate for m = {doc['m']} to m = {m}")
    n, eps = doc["n"], Fraction(doc["readout"]["eps"])
    g = {j: Fraction(x) for j, x in enumerate(doc["differences"][: m + 1]) if Fraction(x) != 0}
    v = verdict(g, m, n)
    if not v.ok or not 0 < eps < v.room:  # impossible for a valid certificate: its classes include these
        raise ValueError(f"the restriction to m = {m} fails the exact class check")
    worst, _ = _worst(kernel(integral(g), m), m, n, eps)
    return certificate(g, eps, worst, m, n)
