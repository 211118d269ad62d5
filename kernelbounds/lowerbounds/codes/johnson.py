"""Johnson's upper bound on constant-weight codes, to report how far a code is from optimal.

A(m, 2g, w): the largest code of weight w whose words pairwise differ in >= 2g places,
i.e. meet in <= w - g points.  A(m, 2g, w) <= floor(m/w * A(m-1, 2g, w-1)), with
A = 1 when g > w and A = floor(m/w) when g = w (disjoint words).
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=None)
def johnson(m: int, g: int, w: int) -> int:
    if w < 0 or w > m:
        return 0
    if g > w or w == 0:
        return 1
    if g == w:
        return m // w
    return (m * johnson(m - 1, g, w - 1)) // w
