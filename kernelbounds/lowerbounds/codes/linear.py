"""Binary linear codes, and the constant-weight codes inside them (THEORY L4).

All 2^k codewords are enumerated by doubling (words, words ^ row) on numpy uint64 limbs.
For the words of one weight w, any two differ in a nonzero codeword, so in at least
d_min places; equal weights make |c_j \\ c_i| = d(c_i, c_j)/2 >= d_min/2.  That bounds
every gap without a pairwise pass, which is what makes huge codes certifiable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import combinations

import numpy as np

from ...errors import InvalidArgument
from ..symmetry import affine_generators, padded, restricted
from .golay import generator_rows

MAX_K = 24


@dataclass(frozen=True)
class LinearCode:
    name: str
    m: int
    rows: tuple[int, ...]  # generator rows as m-bit ints
    # coordinate permutations known (by construction) to map the code onto itself;
    # the checker verifies each one (THEORY L3 "Rows in one orbit")
    automorphisms: tuple[tuple[int, ...], ...] = field(default=(), compare=False)
    base: LinearCode | None = field(default=None, compare=False, repr=False)  # the unpadded code

    @property
    def unpadded(self) -> LinearCode:
        return self.base or self

    def __post_init__(self):
        if len(self.rows) > MAX_K:
            raise InvalidArgument(f"dimension {len(self.rows)} is over the limit {MAX_K}")
        if (self.base or self).m > 64:  # a padded code keeps its unpadded code's words
            raise InvalidArgument("linear codes are enumerated for m <= 64")

    @cached_property
    def codewords(self) -> np.ndarray:
        if self.base is not None:  # padding adds zero coordinates: the same integers
            return self.base.codewords
        words = np.zeros(1, dtype=np.uint64)
        for r in self.rows:
            words = np.concatenate([words, words ^ np.uint64(r)])
        return words

    @cached_property
    def weights(self) -> np.ndarray:
        if self.base is not None:
            return self.base.weights
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

    @cached_property
    def sorted_words(self) -> dict[int, np.ndarray]:
        """weight -> the sorted uint64 words of that weight (cached per weight on demand)."""
        return {}

    @cached_property
    def orbit_rows(self) -> dict:
        """weight -> the orbits and row histograms of its words (filled by lowerbound)."""
        return {}

    def words_of_weight_array(self, w: int) -> np.ndarray:
        if self.base is not None:
            return self.base.words_of_weight_array(w)
        if w not in self.sorted_words:
            self.sorted_words[w] = np.sort(self.codewords[self.weights == w])
        return self.sorted_words[w]

    def padded(self, m: int) -> LinearCode:
        if m == self.m:
            return self
        base = self.unpadded
        return LinearCode(f"{base.name}+{m - base.m}", m, self.rows, tuple(padded(p, m) for p in base.automorphisms), base)


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


def shortened_on_flat(r: int, mu: int, fixed: int) -> LinearCode:
    """RM(r, mu) shortened on the flat {x_(mu-f) = ... = x_(mu-1) = 1} (the last 2^(mu-f)
    coordinates), with the affine maps that preserve the flat as automorphisms."""
    m = 2**mu - 2 ** (mu - fixed)
    code = shortened(reed_muller(r, mu), m)
    perms = tuple(restricted(p, m) for p in affine_generators(mu, fixed))
    return LinearCode(code.name, m, code.rows, perms)


@lru_cache(maxsize=None)
def reed_muller(r: int, mu: int) -> LinearCode:
    """RM(r, mu): evaluations of the monomials of degree <= r at the 2^mu points of F_2^mu."""
    n = 2**mu
    rows = []
    for degree in range(r + 1):
        for monomial in combinations(range(mu), degree):
            rows.append(sum(1 << p for p in range(n) if all((p >> v) & 1 for v in monomial)))
    return LinearCode(f"RM({r},{mu})", n, tuple(rows), tuple(affine_generators(mu)))


def golay_linear() -> LinearCode:
    return LinearCode("golay", 24, tuple(generator_rows()))


def row_basis(rows) -> tuple[int, ...]:
    """An F_2 basis of the span of `rows` (reduced echelon form, leading bits decreasing)."""
    basis: list[int] = []
    for r in rows:
        for b in basis:
            r = min(r, r ^ b)
        if r:
            basis = [min(b, b ^ r) for b in basis] + [r]
            basis.sort(reverse=True)
    return tuple(basis)


def punctured_on_flat(r: int, mu: int, fixed: int) -> LinearCode:
    """RM(r, mu) punctured on the flat {x_(mu-f) = ... = x_(mu-1) = 1}: every codeword
    restricted to the other 2^mu - 2^(mu-f) coordinates (dimension drops by the codewords
    supported on the flat).  The affine maps preserving the flat are automorphisms."""
    m = 2**mu - 2 ** (mu - fixed)
    mask = (1 << m) - 1
    rows = row_basis(x & mask for x in reed_muller(r, mu).rows)
    perms = tuple(restricted(p, m) for p in affine_generators(mu, fixed))
    return LinearCode(f"RM({r},{mu})-punct{2**mu - m}", m, rows, perms)



def rm_on_cells(r: int, mu: int, free: int, cells: int, shorten: tuple[int, ...] = ()) -> LinearCode:
    """RM(r, mu) on the first `cells` cells {p : p >> free = c} (c < cells) of 2^free
    points: shortened on the cells in `shorten` (codewords vanishing there) and punctured
    on the others.  Every affine map of the low `free` variables whose translation may
    depend on the high variables (p -> A p_low + b(p_high), p_high fixed) preserves every
    cell, hence maps the code onto itself: AGL(free, 2) and x_0 += x_j for each high j."""
    base = reed_muller(r, mu)
    low = (1 << free) - 1
    points = [p for p in range(2**mu) if p >> free < cells]
    order = {p: i for i, p in enumerate(points)}
    rows = list(base.rows)
    for bit in (p for p in range(2**mu) if p >> free in shorten):
        pivot = next((x for x in rows if (x >> bit) & 1), None)
        if pivot is not None:
            rows = [x ^ pivot if (x >> bit) & 1 else x for x in rows if x is not pivot]
    project = lambda x: sum(1 << order[p] for p in points if (x >> p) & 1)  # noqa: E731
    gens = [tuple(order[(p & ~low) | g[p & low]] for p in points) for g in affine_generators(free)]
    gens += [tuple(order[p ^ ((p >> j) & 1)] for p in points) for j in range(free, mu)]
    name = f"RM({r},{mu})-cells{cells}x{2**free}" + (f"-short{''.join(map(str, shorten))}" if shorten else "")
    return LinearCode(name, len(points), row_basis(project(x) for x in rows), tuple(gens))
