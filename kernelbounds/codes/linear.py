"""Binary linear codes, and the constant-weight codes inside them (THEORY L4).

All 2^k codewords are enumerated by doubling (words, words ^ row) on numpy uint64 limbs.
For the words of one weight w, any two differ in a nonzero codeword, so in at least
d_min places; equal weights make |c_j \\ c_i| = d(c_i, c_j)/2 >= d_min/2.  That bounds
every gap without a pairwise pass, which is what makes huge codes certifiable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

import numpy as np

from .golay import generator_rows

MAX_K = 24


@dataclass(frozen=True)
class LinearCode:
    name: str
    m: int
    rows: tuple[int, ...]  # generator rows as m-bit ints

    def __post_init__(self):
        if len(self.rows) > MAX_K:
            raise ValueError(f"dimension {len(self.rows)} is over the limit {MAX_K}")
        if self.m > 64:
            raise ValueError("linear codes are enumerated for m <= 64")

    @cached_property
    def codewords(self) -> np.ndarray:
        words = np.zeros(1, dtype=np.uint64)
        for r in self.rows:
            words = np.concatenate([words, words ^ np.uint64(r)])
        return words

    @cached_property
    def weights(self) -> np.ndarray:
        return np.bitwise_count(self.codewords)

    @property
    def dimension_ok(self) -> bool:
        """The rows are independent: the 2^k codewords are distinct."""
        return len(np.unique(self.codewords)) == len(self.codewords)

    @cached_property
    def min_distance(self) -> int:
        nonzero = self.weights[1:]
        return int(nonzero.min()) if len(nonzero) else 0

    def count_of_weight(self, w: int) -> int:
        return int((self.weights == w).sum())

    def words_of_weight(self, w: int) -> list[int]:
        return [int(x) for x in self.codewords[self.weights == w]]

    def padded(self, m: int) -> LinearCode:
        return self if m == self.m else LinearCode(f"{self.name}+{m - self.m}", m, self.rows)


def shortened(code: LinearCode, m: int) -> LinearCode:
    """The subcode of words vanishing outside the first m coordinates, as an m-bit code.

    Gaussian elimination clears the outside coordinates one at a time: a row with that
    coordinate set is XORed into the others that have it, then dropped."""
    rows = list(code.rows)
    for bit in range(m, code.m):
        pivot = next((r for r in rows if (r >> bit) & 1), None)
        if pivot is None:
            continue
        rows = [r ^ pivot if (r >> bit) & 1 else r for r in rows if r is not pivot]
    rows = [r for r in rows if r]
    return LinearCode(f"{code.name}-short{code.m - m}", m, tuple(rows))


def reed_muller(r: int, mu: int) -> LinearCode:
    """RM(r, mu): evaluations of the monomials of degree <= r at the 2^mu points of F_2^mu."""
    n = 2**mu
    rows = []
    for degree in range(r + 1):
        for monomial in combinations(range(mu), degree):
            rows.append(sum(1 << p for p in range(n) if all((p >> v) & 1 for v in monomial)))
    return LinearCode(f"RM({r},{mu})", n, tuple(rows))


def golay_linear() -> LinearCode:
    return LinearCode("golay", 24, tuple(generator_rows()))
