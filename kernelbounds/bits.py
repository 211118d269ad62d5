"""Tokens as int bitmasks (THEORY §0).

Bit i of a token is the coordinate x_i.  In certificates a token is a string of m
characters '0'/'1' whose i-th character is x_i (so the string reads bit 0 first).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from .errors import InvalidArgument



def popcount(x: int) -> int:
    """|x|, the number of set bits."""
    return x.bit_count()


def inner(x: int, z: int) -> int:
    """<x, z> = |x & z|."""
    return (x & z).bit_count()


def comp(x: int, m: int) -> int:
    """The complement of x within m bits."""
    return ((1 << m) - 1) & ~x


def all_tokens(m: int) -> range:
    """Every token of {0,1}^m, as the ints 0 .. 2^m - 1."""
    return range(1 << m)


def low_bits(q: int, level: int) -> int:
    """The `level` lowest set bits of q: a token meeting q in exactly `level` places."""
    out = 0
    for _ in range(level):
        low = q & -q
        if low == 0:
            raise InvalidArgument("level exceeds |q|")
        out |= low
        q ^= low
    return out


def tokens_of_weight(m: int, w: int) -> Iterator[int]:
    """All tokens of {0,1}^m with exactly w set bits, in lexicographic order of supports."""
    yield from map(sum, combinations([1 << i for i in range(m)], w))  # C-level sums of the bit values


def to_str(x: int, m: int) -> str:
    """Certificate form: character i is bit i."""
    if x < 0 or x >> m:
        raise InvalidArgument(f"token {x} does not fit in {m} bits")
    return "".join("1" if (x >> i) & 1 else "0" for i in range(m))


def from_str(s: str) -> int:
    """Inverse of :func:`to_str`."""
    if not s or any(ch not in "01" for ch in s):
        raise InvalidArgument(f"not a bit string: {s!r}")
    return sum(1 << i for i, ch in enumerate(s) if ch == "1")
