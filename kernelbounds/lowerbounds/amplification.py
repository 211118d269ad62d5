"""Amplification along chains of levels (THEORY §3 L2).

A link of gap d between keys of levels l < l + d gives the factor (n-2)(d-1) (L1);
a chain 0 = l_0 < ... < l_k = g multiplies its links' factors.  R_n(g) is the best
product over compositions of g into parts >= 2 (R_n(0) = 1, R_n(1) undefined).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

from ..errors import InvalidArgument
from ..bits import low_bits
from .domination import factor


@lru_cache(maxsize=None)
def best_schedule(n: int, g: int) -> tuple[int, tuple[int, ...]] | None:
    """(R_n(g), parts) maximising prod (n-2)(d_i-1) over compositions of g into parts >= 2.

    Ties prefer fewer links (a smaller witness family), then larger first parts.
    None for g = 1 (no composition); (1, ()) for g = 0.
    """
    if n < 3:
        raise InvalidArgument("amplification needs n >= 3 (R_2 = 0)")
    if g == 0:
        return 1, ()
    best: tuple[int, tuple[int, ...]] | None = None
    for d in range(g, 1, -1):
        rest = best_schedule(n, g - d)
        if rest is None:
            continue
        value, parts = factor(n, d) * rest[0], (d, *rest[1])
        if best is None or (value, -len(parts)) > (best[0], -len(best[1])):
            best = (value, parts)
    return best


def R(n: int, g: int) -> int:
    """R_n(g); raises ValueError for g = 1, where no chain exists."""
    sched = best_schedule(n, g)
    if sched is None:
        raise InvalidArgument("R_n(1) is undefined: a single gap of 1 gives no bound")
    return sched[0]


def chain_levels(parts: tuple[int, ...]) -> tuple[int, ...]:
    """Levels 0 = l_0 < l_1 < ... < l_k of a chain with the given gaps."""
    levels = [0]
    for d in parts:
        levels.append(levels[-1] + d)
    return tuple(levels)


def chain_product(n: int, levels: tuple[int, ...]) -> int:
    """prod over links of (n-2)(d-1); every gap must be >= 2."""
    product = 1
    for a, b in pairwise(levels):
        if b - a < 2:
            raise InvalidArgument(f"link {a} -> {b} has gap < 2")
        product *= factor(n, b - a)
    return product


def chain_keys(q: int, c_start: int, c_end: int, levels: tuple[int, ...]) -> list[int]:
    """Keys z_0 = c_start, z_1..z_{k-1} = the l_t lowest set bits of q, z_k = c_end (THEORY L4)."""
    return [c_start, *(low_bits(q, l) for l in levels[1:-1]), c_end]
