"""Work estimates shared by the rules of forced sign families (crossing, orthant, rank-refutation, rank-extension)."""

from __future__ import annotations

from ..cost import op


def level_work(m: int) -> int:
    """Two popcounts and a comparison."""
    return 2 * op(m) + 4


def family_work(n: int) -> int:
    """Per (query, pair): up to n + 1 inputs of n tokens (an upper bound on the closed form)."""
    return (n + 1) * (n + 4)
