"""Block designs as constant-weight codes (THEORY L4: the blocks are the code words).

- S(5,6,12): the 132 hexads are the intersections of one Golay dodecad D with the
  octads that meet D in six points; any two meet in at most 4 points (gap >= 2), the
  best known size A(12,4,6) = 132.
- S(4,5,11): the hexads through one point of D with that point removed: 66 blocks of
  weight 5 meeting in at most 3 points (A(11,4,5) = 66).
- The biplane 2-(16,6,2): for each cell (a, b) of a 4 x 4 grid, the other cells of its
  row and column; any two of the 16 blocks meet in exactly 2 points (gap 4;
  A(16,8,6) = 16).
"""

from __future__ import annotations

from functools import lru_cache

from . import Code, golay


def _compress(word: int, support: list[int]) -> int:
    """The word restricted to the coordinates in `support`, renumbered 0..len-1."""
    return sum(1 << t for t, p in enumerate(support) if (word >> p) & 1)


@lru_cache(maxsize=None)
def steiner_5_6_12() -> Code:
    dodecad = golay.dodecads().words[0]
    support = [p for p in range(24) if (dodecad >> p) & 1]
    hexads = sorted({_compress(o & dodecad, support) for o in golay.octads().words if (o & dodecad).bit_count() == 6})
    return Code("steiner-S(5,6,12)", 12, tuple(hexads), "hexads: a dodecad's intersections with the octads meeting it in 6 points")


@lru_cache(maxsize=None)
def steiner_4_5_11() -> Code:
    through = [h >> 1 for h in steiner_5_6_12().words if h & 1]  # hexads through point 0, point removed
    return Code("steiner-S(4,5,11)", 11, tuple(sorted(through)), "derived design of S(5,6,12) at one point")


@lru_cache(maxsize=None)
def biplane_16() -> Code:
    blocks = []
    for a in range(4):
        for b in range(4):
            cells = {(a, j) for j in range(4)} | {(i, b) for i in range(4)}
            cells.discard((a, b))
            blocks.append(sum(1 << (4 * i + j) for i, j in cells))
    return Code("biplane-2-(16,6,2)", 16, tuple(sorted(blocks)), "symmetric 2-(16,6,2) design on a 4 x 4 grid")
