"""Level classes: verifying a level-determined head for every m-bit input (THEORY §2).

A head is *level-determined* when, for a query q with |q| = p, the weight and the
readout value of a key z depend only on (p, <q, z>).  Its output at a position then
depends only on p and the multiset of the other n-1 levels, each in 0..p, and every
such class occurs for every m >= p (take the l lowest set bits of q as a key of
level l).  Checking all classes therefore checks every input and every position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb


@dataclass(frozen=True)
class LevelProfile:
    """weight(p, l) = K(q, z) and score(p, l) = F(q, z) for |q| = p and <q, z> = l."""

    weight: Callable[[int, int], Fraction]
    score: Callable[[int, int], Fraction]


@dataclass(frozen=True)
class ClassResult:
    worst_error: Fraction | None  # None: some denominator is not > 0
    witness: tuple[int, ...]  # (p, l_2, ..., l_n) attaining the worst error
    classes: int


def level_classes(m: int, n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(p, sorted levels of the n-1 other tokens) for every class, p = 0..m."""
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            yield p, levels


def class_count(m: int, n: int) -> int:
    """sum_{p=0}^{m} C(p + n - 1, n - 1) = C(m + n, n)."""
    return comb(m + n, n)


def class_output(profile: LevelProfile, p: int, levels: tuple[int, ...]) -> Fraction | None:
    """The head's output for the class, or None when its denominator is not > 0."""
    all_levels = (p, *levels)
    den = sum((profile.weight(p, l) for l in all_levels), Fraction(0))
    if den <= 0:
        return None
    num = sum((profile.weight(p, l) * profile.score(p, l) for l in all_levels), Fraction(0))
    return num / den


def worst_error_by_classes(profile: LevelProfile, m: int, n: int) -> ClassResult:
    """The exact worst |y - t| over every level class of length-n inputs."""
    worst = Fraction(-1)
    witness: tuple[int, ...] = ()
    count = 0
    for p in range(m + 1):
        w = [Fraction(profile.weight(p, l)) for l in range(p + 1)]
        wf = [w[l] * profile.score(p, l) for l in range(p + 1)]
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            count += 1
            den = w[p] + sum(w[l] for l in levels)
            if den <= 0:
                return ClassResult(None, (p, *levels), count)
            err = abs((wf[p] + sum(wf[l] for l in levels)) / den - min((p, *levels)))
            if err > worst:
                worst, witness = err, (p, *levels)
    return ClassResult(worst, witness, count)
