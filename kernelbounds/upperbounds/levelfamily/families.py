"""The level families of THEORY §2 U4 and their exact evaluation over level classes.

A *family* fixes the feature basis (``subset``: w_p(l) = sum_j g_j C(l, j); ``complement``:
w_p(l) = sum_j g_j C(p - l, j)), the readout (``affine``: F = <q,z> - 1/2 + eps with eps
eliminated; ``free``: F(q, z) = f_p(l), a table) and the signs (``nonnegative``: every
g_j >= 0).  In both bases the weight is a function of one integer d in 0..m (d = l, or
d = p - l), so there are m + 1 weight values.  :func:`exact_worst_error` decides a member
exactly over every level class.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement, pairwise
from math import comb

from ...classes import LevelProfile, worst_error_extreme_classes

BASES = ("subset", "complement")
READOUTS = ("affine", "free")
HALF = Fraction(1, 2)
DENOMINATORS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512, 1024, 2**12, 2**16, 2**20, 2**24, 2**30, 2**40)


@dataclass(frozen=True, order=True)
class LevelFamily:
    basis: str  # "subset" or "complement"
    readout: str  # "affine" or "free"
    nonnegative: bool  # require g_j >= 0 (nonnegative features in the complement basis)

    @property
    def name(self) -> str:
        return f"{self.basis}/{self.readout}/{'nonnegative' if self.nonnegative else 'any'}"


def families(basis: str = "best", readout: str = "best", nonnegative: bool = False) -> list[LevelFamily]:
    """The families a request covers (``best`` = both)."""
    bs = BASES if basis == "best" else (basis,)
    rs = READOUTS if readout == "best" else (readout,)
    return [LevelFamily(b, r, nonnegative) for b in bs for r in rs]


def level_distance(basis: str, p: int, l: int) -> int:
    """The argument d of the weight: w_p(l) = sum_j g_j C(d, j)."""
    return l if basis == "subset" else p - l


def cost(support, m: int) -> int:
    """Feature rank of a support: sum_{j in S} C(m, j)."""
    return sum(comb(m, j) for j in support)


def classes(m: int, n: int):
    """(p, levels of the n-1 other keys): every level class (THEORY §2)."""
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            yield p, levels


# ---------------------------------------------------------------- exact evaluation


def weights(fam: LevelFamily, g: dict[int, Fraction], m: int) -> list[Fraction]:
    """w(d) = sum_j g_j C(d, j) for d = 0..m."""
    return [sum((v * comb(d, j) for j, v in g.items()), Fraction(0)) for d in range(m + 1)]


def readout_table(fam: LevelFamily, eps: Fraction | None, f: list[list[Fraction]] | None, m: int) -> list[list[Fraction]]:
    """F(p, l) for 0 <= l <= p <= m."""
    if fam.readout == "affine":
        return [[l - HALF + eps for l in range(p + 1)] for p in range(m + 1)]
    return f


def exact_worst_error(fam: LevelFamily, g: dict[int, Fraction], table: list[list[Fraction]], m: int, n: int):
    """(worst |y - t| over every class, witness class), or (None, reason) when some weight <= 0.
    The member is a level-determined head, so the level-class engine decides it
    (:func:`kernelbounds.classes.worst_error_extreme_classes`: exact once every weight is > 0)."""
    w = weights(fam, g, m)
    bad = next((d for d in range(m + 1) if w[d] <= 0), None)
    if bad is not None:
        return None, bad
    profile = LevelProfile(lambda p, l: w[level_distance(fam.basis, p, l)], lambda p, l: table[p][l])
    result = worst_error_extreme_classes(profile, m, n)
    return result.worst_error, result.witness


def differences(values: list[Fraction]) -> list[Fraction]:
    """Forward differences at 0: a_i with values[l] = sum_i a_i C(l, i)."""
    out, row = [], list(values)
    while row:
        out.append(row[0])
        row = [b - a for a, b in pairwise(row)]
    return out


def value_dim(f: list[list[Fraction]], m: int) -> int:
    """dv = sum_{i <= D} C(m, i), D the largest i with a difference a_(p,i) != 0 (U4)."""
    top = max((i for row in f for i, a in enumerate(differences(row)) if a != 0), default=0)
    return sum(comb(m, i) for i in range(top + 1))
