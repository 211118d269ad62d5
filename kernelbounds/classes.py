"""Level classes: verifying a level-determined head for every m-bit input (THEORY §2).

A head is *level-determined* when, for a query q with |q| = p, the weight and the
readout value of a key z depend only on (p, <q, z>).  Its output at a position then
depends only on p and the multiset of the other n-1 levels, each in 0..p, and every
such class occurs for every m >= p (take the l lowest set bits of q as a key of
level l).  Checking all classes therefore checks every input and every position.

Arithmetic: for each query weight p the weights w_p(l) and the products w_p(l) F(p, l)
are scaled to integers W(l), V(l) once, so a class with least level t has the error
|sum V - t sum W| / sum W, a ratio of integers; the worst error is kept as a pair of
integers and compared by cross-multiplication (no Fraction per class).

Two routes to the same worst error:
- *all classes*, in lexicographic order of (p, sorted levels);
- *extreme classes*: for fixed p and least other level t the error is
  |N0 + sum_(l in S) a_l| / (D0 + sum_(l in S) W(l)) over the (n-2)-multisets S of
  t..p, with a_l = V(l) - t W(l).  If every denominator is > 0, the largest ratio of two
  additive functions over k-multisets is attained at a multiset of k equal elements
  (Dinkelbach: with lam the maximum, N(S) - lam D(S) <= 0 for all S with equality at the
  maximiser; N - lam D is additive, so k copies of its best element also reach 0); the
  same holds for -N, and the least denominator is also at k equal elements.  So the
  classes (p, t, u, ..., u), t <= u <= p, O(m^3) of them, give the worst error exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, lcm

FULL_ROUTE_CLASSES = 20_000_000  # above this many classes the generator takes the extreme-class route


@dataclass(frozen=True)
class LevelProfile:
    """weight(p, l) = K(q, z) and score(p, l) = F(q, z) for |q| = p and <q, z> = l."""

    weight: Callable[[int, int], Fraction]
    score: Callable[[int, int], Fraction]

    @staticmethod
    def level_kernel(h: list[Fraction], eps: Fraction) -> LevelProfile:
        """A level kernel h(<q, z>) with the readout <q, z> - 1/2 + eps (THEORY U4, the
        affine readout): the profile the level-kernel search checks."""
        return LevelProfile(lambda p, l: h[l], lambda p, l: l - Fraction(1, 2) + eps)


@dataclass(frozen=True)
class ClassResult:
    worst_error: Fraction | None  # None: some denominator is not > 0
    witness: tuple[int, ...]  # (p, l_2, ..., l_n): the first class (in the route's order) attaining it
    classes: int  # classes examined


def level_classes(m: int, n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(p, sorted levels of the n-1 other tokens) for every class, p = 0..m."""
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            yield p, levels


def extreme_class_inputs(m: int, n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every token-level extreme-class input (q, a, b^(n-2)) on m bits once (the others as a
    sorted multiset): for a per-token separable claim the worst input with least level t is
    of this form (THEORY U5), so the explicit-head check and both rank-one LPs need only these."""
    tokens = range(1 << m)
    for q in tokens:
        seen = set()
        for a in tokens:
            for b in tokens:
                others = tuple(sorted((a,) + (b,) * (n - 2)))
                if others not in seen:
                    seen.add(others)
                    yield q, others


def class_count(m: int, n: int) -> int:
    """sum_{p=0}^{m} C(p + n - 1, n - 1) = C(m + n, n)."""
    return comb(m + n, n)


def extreme_class_count(m: int, n: int) -> int:
    """Classes of the extreme-class route: (p) for n = 1, else (p, t, u, ..., u) with t <= u <= p
    (for n = 2 just (p, t))."""
    if n == 1:
        return m + 1
    if n == 2:
        return comb(m + 2, 2)
    return comb(m + 3, 3)


def scaled_levels(profile: LevelProfile, p: int) -> tuple[list[int], list[int]]:
    """Integers W(l) = D w_p(l) and V(l) = D w_p(l) F(p, l) for l = 0..p, one D > 0."""
    w = [Fraction(profile.weight(p, l)) for l in range(p + 1)]
    v = [x * Fraction(profile.score(p, l)) for l, x in enumerate(w)]
    d = lcm(*(x.denominator for x in w + v))
    return [x.numerator * (d // x.denominator) for x in w], [x.numerator * (d // x.denominator) for x in v]


class _Worst:
    """The running maximum of |num| / den as two integers (first maximiser kept)."""

    def __init__(self):
        self.num, self.den, self.witness = -1, 1, ()

    def offer(self, num: int, den: int, witness) -> None:
        if num < 0:
            num = -num
        if num * self.den > self.num * den:
            self.num, self.den, self.witness = num, den, witness

    def result(self, count: int) -> ClassResult:
        return ClassResult(Fraction(self.num, self.den), self.witness, count)


def _multiset_sums(w: list[int], v: list[int], k: int) -> tuple[list[int], list[int]]:
    """sum W and sum V over every k-multiset of 0..p, in lexicographic order."""
    if k == 0:
        return [0], [0]
    sw, sv = [], []
    for combo in combinations_with_replacement(range(len(w)), k):
        sw.append(sum(w[l] for l in combo))
        sv.append(sum(v[l] for l in combo))
    return sw, sv


def worst_error_all_classes(profile: LevelProfile, m: int, n: int) -> ClassResult:
    """The exact worst |y - t| over every level class of length-n inputs, in lexicographic
    order of (p, l_2 <= ... <= l_n).  For n >= 2 the least level is t = l_2; the classes
    with least level t are t followed by the (n-2)-multisets of t..p, which form the suffix
    of the (n-2)-multisets of 0..p from index C(p+n-2, n-2) - C(p-t+n-2, n-2) on."""
    best, count = _Worst(), 0
    for p in range(m + 1):
        w, v = scaled_levels(profile, p)
        if n == 1:
            count += 1
            if w[p] <= 0:
                return ClassResult(None, (p,), count)
            best.offer(v[p] - p * w[p], w[p], (p,))
            continue
        k = n - 2
        sw, sv = _multiset_sums(w, v, k)
        total = len(sw)
        for t in range(p + 1):
            first = total - comb(p - t + k, k)
            bw, bv = w[p] + w[t], v[p] + v[t]
            if min(w[t:]) <= 0:  # rare: find the first class in order whose denominator is <= 0
                for i in range(first, total):
                    if bw + sw[i] <= 0:
                        rest = next(c for j, c in enumerate(combinations_with_replacement(range(t, p + 1), k)) if j == i - first)
                        return ClassResult(None, (p, t, *rest), count + i - first + 1)
            wn, wd, at = best.num, best.den, -1
            for i in range(first, total):
                den = bw + sw[i]
                num = bv + sv[i] - t * den
                if num < 0:
                    num = -num
                if num * wd > wn * den:
                    wn, wd, at = num, den, i
            count += total - first
            if at >= 0:
                rest = next(c for j, c in enumerate(combinations_with_replacement(range(t, p + 1), k)) if j == at - first)
                best.num, best.den, best.witness = wn, wd, (p, t, *rest)
    return best.result(count)


def worst_error_extreme_classes(profile: LevelProfile, m: int, n: int) -> ClassResult:
    """The same worst error from the classes (p, t, u, ..., u) only (module docstring)."""
    best, count = _Worst(), 0
    k = max(n - 2, 0)
    for p in range(m + 1):
        w, v = scaled_levels(profile, p)
        tails = [(p,)] if n == 1 else [(p, t, *(u,) * k) for t in range(p + 1) for u in (range(t, p + 1) if k else (t,))]
        for cls in tails:
            count += 1
            den = sum(w[l] for l in cls)
            if den <= 0:
                return ClassResult(None, cls, count)
            best.offer(sum(v[l] for l in cls) - min(cls) * den, den, cls)
    return best.result(count)


def worst_error_by_classes(profile: LevelProfile, m: int, n: int) -> ClassResult:
    """The exact worst |y - t| over all level classes: every class in order when there are
    at most FULL_ROUTE_CLASSES of them, else by the extreme classes (same worst error)."""
    if class_count(m, n) <= FULL_ROUTE_CLASSES:
        return worst_error_all_classes(profile, m, n)
    return worst_error_extreme_classes(profile, m, n)
