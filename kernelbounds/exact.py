"""Exact r*(m, n) at the smallest m, as proved by the committed v2 certificates (THEORY U5;
docs/exact-small.md).  r* here is the least feature rank of a position-independent head
with a nonnegative kernel that solves the full task (every input, every position).

- rank one: explicit rank-1 heads for m <= 3 and Farkas certificates at m = 4 for every
  n in 3..8, so r*(m, n) = 1 for m <= 3 and r*(m, n) >= 2 for m >= 4 (r* is nondecreasing
  in m: restrict a head to the tokens whose top bits are 0);
- general heads: explicit heads of rank r at (m, n), stored as tables in
  kernelbounds/data/heads/mMM-nN-rR.json, so r*(m', n) <= r for m' <= m.
"""

from __future__ import annotations

import re
from pathlib import Path

HEADS_DIR = Path(__file__).parent / "data" / "heads"
RANK_ONE_NS = range(3, 9)
RANK_ONE_MAX_M = 3  # rank-one heads certified for m = 1..3
RANK_ONE_FAILS_M = 4  # the least m where rank one fails (Farkas), for every n in RANK_ONE_NS


def general_heads() -> list[tuple[int, int, int, Path]]:
    """(m, n, rank, path) of every stored general head, sorted."""
    out = []
    for path in HEADS_DIR.glob("m*-n*-r*.json"):
        found = re.fullmatch(r"m(\d+)-n(\d+)-r(\d+)\.json", path.name)
        if found:
            m, n, r = map(int, found.groups())
            out.append((m, n, r, path))
    return sorted(out)


def known(m: int, n: int) -> tuple[int, int | None] | None:
    """(lower, upper) on r*(m, n) from these certificates (upper None if none), or None."""
    if n not in RANK_ONE_NS:
        return None
    lower = 1 if m <= RANK_ONE_MAX_M else 2
    uppers = [r for (m2, n2, r, _) in general_heads() if n2 == n and m2 >= m]
    if m <= RANK_ONE_MAX_M:
        uppers.append(1)
    return lower, min(uppers) if uppers else None


def combine(m: int, n: int, lower: int, upper: int) -> tuple[int, int]:
    """The table's (lower, upper) tightened by what the small-m certificates prove."""
    k = known(m, n)
    if k is None:
        return lower, upper
    lo, up = k
    return max(lower, lo), upper if up is None else min(upper, up)
