"""Vectorised exact verification of code properties (numpy integer bit counts).

Words of any length are split into 64-bit limbs; intersections are bitwise AND plus
popcount, summed over limbs, all in exact integer arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ROW_BLOCK = 1024


def limbs(words: Sequence[int], m: int) -> np.ndarray:
    """An (N, L) uint64 array of the words' 64-bit limbs."""
    if m <= 64:  # one limb: numpy converts the Python ints directly
        return np.array(words, dtype=np.uint64).reshape(len(words), 1)
    count = max(1, (m + 63) // 64)
    mask = (1 << 64) - 1
    return np.array([[(w >> (64 * t)) & mask for t in range(count)] for w in words], dtype=np.uint64).reshape(len(words), count)


def weights(words: Sequence[int], m: int) -> np.ndarray:
    return np.bitwise_count(limbs(words, m)).sum(axis=1, dtype=np.int64)


def _blocks(words: Sequence[int], m: int):
    """Yield (row slice, intersection block |c_i & c_j|) in blocks of rows."""
    arr = limbs(words, m)
    for start in range(0, len(words), ROW_BLOCK):
        block = arr[start : start + ROW_BLOCK]
        inter = np.bitwise_count(block[:, None, :] & arr[None, :, :]).sum(axis=2, dtype=np.int64)
        yield slice(start, start + len(block)), inter


def intersection_matrix(words: Sequence[int], m: int) -> np.ndarray:
    """The N x N matrix of |c_i & c_j|."""
    return np.vstack([inter for _, inter in _blocks(words, m)]) if words else np.zeros((0, 0), dtype=np.int64)


def gap_histogram(words: Sequence[int], m: int) -> dict[int, int]:
    """{g: #ordered pairs i != j with |c_j \\ c_i| = |c_j| - |c_i & c_j| = g}."""
    w = weights(words, m)
    counts: dict[int, int] = {}
    for rows, inter in _blocks(words, m):
        gaps = w[None, :] - inter
        idx = np.arange(rows.start, rows.stop)
        gaps[idx - rows.start, idx] = -1  # drop the diagonal
        freq = np.bincount(gaps[gaps >= 0], minlength=m + 1)  # gaps lie in 0..m: a bincount, no sort
        for v in np.flatnonzero(freq).tolist():
            counts[v] = counts.get(v, 0) + int(freq[v])
    return counts


def max_intersection(words: Sequence[int], m: int) -> int:
    """max over i != j of |c_i & c_j|."""
    best = 0
    for rows, inter in _blocks(words, m):
        idx = np.arange(rows.start, rows.stop)
        inter[idx - rows.start, idx] = -1
        best = max(best, int(inter.max()))
    return best
