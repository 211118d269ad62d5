"""Exact helpers on lists of rationals shared by the upper-bound rules (no generator code):
a common denominator, and the forward differences of the level expansion (THEORY U4)."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import lcm


def scale_to_ints(values: list[Fraction]) -> tuple[list[int], int]:
    """(integers, d) with values[i] = integers[i] / d and d > 0."""
    d = lcm(*(v.denominator for v in values)) if values else 1
    return [v.numerator * (d // v.denominator) for v in values], d


def differences(values: list[Fraction]) -> list[Fraction]:
    """The forward differences at 0: [(Delta^j v)(0) for j = 0..len(values) - 1] (the level
    expansion v(l) = sum_j (Delta^j v)(0) C(l, j), THEORY U4)."""
    out, row = [], list(values)
    while row:
        out.append(row[0])
        row = [b - a for a, b in pairwise(row)]
    return out
