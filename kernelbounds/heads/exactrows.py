"""The exact side of the extreme-class route (THEORY §1; heads/everyinput.py has the argument):
integer rows W, U of a head per query from python-flint products, and each (query, least
level) class decided with integers: its denominators, a claimed error bound on either side
(least value of a per-token sum, attained at an extreme multiset (a, b^(n-2))), and its
exact maximum by Dinkelbach.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from .tables import TableHead


@dataclass(frozen=True)
class Found:
    """An input of the all-inputs family, scored at position 1: (q, a, b, ..., b)."""

    q: int
    others: tuple[int, ...]

    @property
    def input(self) -> tuple[int, ...]:
        return (self.q, *self.others)


class ExactRows:
    """Integer rows of a head over all 2^m tokens, per query q: lists W, U with
    y = sum U / sum W on every multiset (one positive scale per query), from
    python-flint products of integer-scaled tables."""

    def __init__(self, head: TableHead, tokens: list[int]):
        import flint

        self.T = len(tokens)
        self.head = head
        self.tokens = tokens
        psi = [head.phi_k[z] for z in tokens]
        val = [head.value[z] for z in tokens]
        self.dk = lcm(*(x.denominator for row in psi for x in row))
        self.dv = lcm(*(x.denominator for row in val for x in row))
        self.psi = flint.fmpz_mat([[int(x * self.dk) for x in row] for row in psi]).transpose()
        self.val = flint.fmpz_mat([[int(x * self.dv) for x in row] for row in val]).transpose()

    def rows(self, queries: list[int]) -> dict[int, tuple[list[int], list[int]]]:
        """{q: (W, U)} for the queries (one flint product per table for all of them)."""
        import flint

        if not queries:
            return {}
        phis, reads, scales = [], [], []
        for q in queries:
            p = self.head.phi_q[q]
            d = lcm(*(x.denominator for x in p))
            phis.append([int(x * d) for x in p])
            w, b = self.head.readout[q]
            e = lcm(b.denominator, *(x.denominator for x in w))
            reads.append([int(x * e) for x in w])
            scales.append((e, int(b * e)))
        K = (flint.fmpz_mat(phis) * self.psi).tolist()
        F = (flint.fmpz_mat(reads) * self.val).tolist()
        out = {}
        for k, q in enumerate(queries):
            e, be = scales[k]
            s = e * self.dv  # F(q, z) = (F_int(z) + be dv) / s
            W = [int(x) for x in K[k]]
            Fz = [int(f) + be * self.dv for f in F[k]]
            out[q] = ([w * s for w in W], [w * f for w, f in zip(W, Fz)])
        return out


class ExactQuery:
    """The classes of one query, decided with integers (THEORY §1, module docstring)."""

    def __init__(self, q: int, W: list[int], U: list[int], m: int, n: int):
        self.q, self.W, self.U, self.k = q, W, U, n - 2
        levels = [(q & z).bit_count() for z in range(len(W))]
        self.at = [[] for _ in range(m + 1)]
        for z, lv in enumerate(levels):
            self.at[lv].append(z)

    def above(self, t: int) -> list[int]:
        return [z for lv in range(t, len(self.at)) for z in self.at[lv]]

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
        from ..upperbounds.generalheads import _dinkelbach

        first = self.at[t]
        rest = self.above(t) if self.k > 0 else first[:1]
        W, U = self.W, self.U
        lam, ia, ib = _dinkelbach(U[self.q], W[self.q], [(U[z], W[z]) for z in first], [(U[z], W[z]) for z in rest], max(self.k, 0), side)
        b = rest[ib] if self.k > 0 else first[ia]
        return side * (lam - t), self.found(first[ia], b)
