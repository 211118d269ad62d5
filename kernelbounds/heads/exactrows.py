"""The exact side of the extreme-class route (THEORY §1; heads/everyinput.py has the argument):
integer rows W, U of a head per query from python-flint products.  Each (query, least level)
class is then decided with integers by the one engine, :class:`kernelbounds.levelmin.QueryClasses`.
"""

from __future__ import annotations

import math

from .tables import TableHead
from .timelimit import check


def lcm(*values: int) -> int:
    """math.lcm, one value at a time under the evaluation's time limit (a head's
    denominators may have thousands of digits each: their lcm grows with every one)."""
    out = 1
    for v in values:
        check()
        out = math.lcm(out, v)
    return out


def scaled(values, d: int) -> list[int]:
    """The integers d*x for the fractions x (d a common multiple of their denominators):
    one exact division each, no gcd of the huge product, under the time limit."""
    out = []
    for x in values:
        check()
        out.append(x.numerator * (d // x.denominator))
    return out


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
        self.psi = flint.fmpz_mat([scaled(row, self.dk) for row in psi]).transpose()
        self.val = flint.fmpz_mat([scaled(row, self.dv) for row in val]).transpose()

    def rows(self, queries: list[int]) -> dict[int, tuple[list[int], list[int]]]:
        """{q: (W, U)} for the queries (one flint product per table for all of them)."""
        import flint

        if not queries:
            return {}
        phis, reads, scales = [], [], []
        for q in queries:
            check()
            p = self.head.phi_q[q]
            d = lcm(*(x.denominator for x in p))
            phis.append(scaled(p, d))
            w, b = self.head.readout[q]
            e = lcm(b.denominator, *(x.denominator for x in w))
            reads.append(scaled(w, e))
            scales.append((e, scaled([b], e)[0]))
        K = (flint.fmpz_mat(phis) * self.psi).tolist()
        F = (flint.fmpz_mat(reads) * self.val).tolist()
        out = {}
        for k, q in enumerate(queries):
            check()
            e, be = scales[k]
            s = e * self.dv  # F(q, z) = (F_int(z) + be dv) / s
            W = [int(x) for x in K[k]]
            Fz = [int(f) + be * self.dv for f in F[k]]
            out[q] = ([w * s for w in W], [w * f for w, f in zip(W, Fz, strict=True)])
        return out
