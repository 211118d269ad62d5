"""The level-min reduction (THEORY §1 and U5): the one engine that decides a table head's
worst error over every input without listing the inputs.

A position-independent head with kernel rows is given, per query q, by integers W(z) and
U(z) over the 2^m tokens with y = sum U / sum W on q plus any multiset M of n - 1 other
tokens (one positive scale per query; W(z) = K(q, z), U(z) = K(q, z) F(q, z)).  Group the
multisets by their least level t = min_{z in M} <q, z> (the query's own level |q| is the
largest): the class (q, t).  For a constant c, c sum W - sum U is a sum of one term per
token, so its least value over the class is attained at an *extreme multiset* (a, b^(n-2))
with <q, a> = t and <q, b> >= t.  Hence

* every denominator of the class is > 0 iff W(q) + min_{<q,a>=t} W(a) + (n-2) min_{<q,b>>=t} W(b) > 0;
* "s (y - t) <= e on the class" is one least value of a per-token sum (:meth:`QueryClasses.violation`);
* the class maximum of s (y - t) is attained at an extreme multiset, found exactly by
  Dinkelbach's iteration (:func:`dinkelbach`, :meth:`QueryClasses.class_max`).

Everything that needs a head's exact worst error over all inputs uses this module: the
explicit heads (:mod:`kernelbounds.upperbounds.generalheads`), the symmetric heads
(:mod:`kernelbounds.upperbounds.symmetric`) and the evaluation of table heads
(:mod:`kernelbounds.heads.everyinput`); each supplies only its rows W, U.  The level-class
routes of :mod:`kernelbounds.classes` are the same reduction where every token of one level
carries the same weight (the level families use them), and
:mod:`kernelbounds.upperbounds.complementbasis` its closed form where a class's error does not
depend on the query's weight.  :func:`kernelbounds.model.exhaustive_worst_error` is the literal
brute force (tests and the bench's anchor).  The checker keeps its own copy (rule E2, trusted
base).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from .bits import inner


@dataclass(frozen=True)
class Found:
    """An input of the all-inputs family, scored at position 1: (q, a, b, ..., b)."""

    q: int
    others: tuple[int, ...]

    @property
    def input(self) -> tuple[int, ...]:
        return (self.q, *self.others)


def dinkelbach(c: int, d: int, first: list[tuple[int, int]], rest: list[tuple[int, int]], k: int, sign: int) -> tuple[Fraction, int, int]:
    """max (sign = 1) or min (sign = -1) of (c + u_a + k u_b) / (d + w_a + k w_b) over a in
    `first`, b in `rest` (pairs (u, w), all denominators > 0), exactly: Dinkelbach's
    iteration with lambda = num/den, which ends after finitely many steps on a finite set.
    Returns the optimum and the indices (a, b) of an attaining pair (the first maximiser of
    the last step's linearisation, in list order)."""
    a, b = 0, 0
    num, den = c + first[a][0] + k * rest[b][0], d + first[a][1] + k * rest[b][1]
    while True:
        a = max(range(len(first)), key=lambda i: sign * (den * first[i][0] - num * first[i][1]))
        b = max(range(len(rest)), key=lambda i: sign * (den * rest[i][0] - num * rest[i][1])) if k else 0
        n2, d2 = c + first[a][0] + k * rest[b][0], d + first[a][1] + k * rest[b][1]
        if n2 * den == num * d2:
            return Fraction(num, den), a, b
        num, den = n2, d2


class QueryClasses:
    """The classes (q, t), t = 0..|q|, of one query with integer rows W, U over the tokens
    0..len(W) - 1, decided with integers (module docstring).  Tokens are listed in increasing
    order at every level and above it, so ties resolve the same way everywhere."""

    def __init__(self, q: int, W: list[int], U: list[int], n: int):
        self.q, self.W, self.U, self.k = q, W, U, n - 2
        self.levels = [inner(q, z) for z in range(len(W))]
        self.at: list[list[int]] = [[] for _ in range(q.bit_count() + 1)]
        for z, lv in enumerate(self.levels):
            self.at[lv].append(z)

    def above(self, t: int) -> list[int]:
        """The tokens z with <q, z> >= t, in increasing order."""
        return [z for z, lv in enumerate(self.levels) if lv >= t]

    def _least(self, term, t: int) -> tuple[int, int, int]:
        """(least value of sum_{q+M} term over the class, a, b) at the minimisers."""
        a = min(self.at[t], key=term)
        b = min(self.above(t), key=term) if self.k > 0 else a
        return term(self.q) + term(a) + self.k * term(b) * (self.k > 0), a, b

    def found(self, a: int, b: int) -> Found:
        return Found(self.q, tuple(sorted((a,) + (b,) * self.k)))

    def denominator(self, t: int) -> Found | None:
        """An input of the class with denominator <= 0, or None if every one is > 0."""
        W = self.W
        least, a, b = self._least(lambda z: W[z], t)
        return self.found(a, b) if least <= 0 else None

    def violation(self, t: int, e: Fraction, side: int, strict: bool) -> Found | None:
        """An input of the class with s (y - t) > e (>= e when strict), or None: side s = +1
        tests y <= t + e (< when strict), s = -1 tests y >= t - e; the denominators > 0."""
        en, ed = e.numerator, e.denominator
        c = side * t * ed + en
        W, U = self.W, self.U
        least, a, b = self._least(lambda z: c * W[z] - side * ed * U[z], t)
        bad = least <= 0 if strict else least < 0
        return self.found(a, b) if bad else None

    def class_max(self, t: int, side: int) -> tuple[Fraction, Found]:
        """max s (y - t) over the class, exactly (Dinkelbach; every denominator > 0)."""
        first = self.at[t]
        rest = self.above(t) if self.k > 0 else first[:1]
        W, U = self.W, self.U
        lam, ia, ib = dinkelbach(U[self.q], W[self.q], [(U[z], W[z]) for z in first], [(U[z], W[z]) for z in rest], max(self.k, 0), side)
        b = rest[ib] if self.k > 0 else first[ia]
        return side * (lam - t), self.found(first[ia], b)


def worst_error(rows: Iterable[tuple[int, list[int], list[int]]], n: int) -> tuple[Fraction, Found] | None:
    """The exact max |y - t| over every input scored at its query, for the queries and rows
    (q, W, U) given (n >= 2), and the first input attaining it (queries in the given order,
    then t = 0..|q|, then the upper side before the lower); None if some kernel value
    W(z) is negative or some denominator is not > 0."""
    worst: Fraction = Fraction(-1)
    witness = Found(0, ())
    for q, W, U in rows:
        if min(W) < 0:
            return None
        classes = QueryClasses(q, W, U, n)
        for t in range(q.bit_count() + 1):
            if classes.denominator(t) is not None:
                return None
            for side in (1, -1):
                err, found = classes.class_max(t, side)
                if err > worst:
                    worst, witness = err, found
    return worst, witness
