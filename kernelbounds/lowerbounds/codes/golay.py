"""The extended binary Golay code [24, 12, 8] and codes taken from it.

Built as the cyclic quadratic-residue code of length 23 with generator polynomial
g(x) = x^11 + x^10 + x^6 + x^5 + x^4 + x^2 + 1, extended by an overall parity bit.
Weight distribution 1, 759, 2576, 759, 1 (weights 0, 8, 12, 16, 24); octads meet in
0, 2 or 4 points, dodecads in 0, 4, 6 or 8.
"""

from __future__ import annotations

from functools import lru_cache

from ...errors import InvalidArgument
from . import Code

GENERATOR_POLY = (1 << 11) | (1 << 10) | (1 << 6) | (1 << 5) | (1 << 4) | (1 << 2) | 1


def generator_rows() -> list[int]:
    """The 12 rows x^i g(x), i = 0..11, extended by parity (bit 23)."""
    rows = []
    for i in range(12):
        word = GENERATOR_POLY << i
        rows.append(word | ((word.bit_count() & 1) << 23))
    return rows


@lru_cache(maxsize=None)
def codewords() -> tuple[int, ...]:
    """All 4096 codewords, in the order of their message vectors."""
    rows = generator_rows()
    words = []
    for msg in range(1 << 12):
        w = 0
        for i in range(12):
            if (msg >> i) & 1:
                w ^= rows[i]
        words.append(w)
    return tuple(words)


def shortened(weight: int, m: int) -> Code:
    """Codewords of the given weight that vanish outside the first m coordinates."""
    if not 1 <= m <= 24:
        raise InvalidArgument("Golay shortenings need 1 <= m <= 24")
    outside = ((1 << 24) - 1) ^ ((1 << m) - 1)
    words = tuple(sorted(w for w in codewords() if w.bit_count() == weight and not w & outside))
    name = {8: "golay-octads", 12: "golay-dodecads"}.get(weight, f"golay-w{weight}")
    return Code(name if m == 24 else f"{name}-short{24 - m}", m, words, "extended Golay code [24,12,8]")


def octads() -> Code:
    return shortened(8, 24)


def dodecads() -> Code:
    return shortened(12, 24)
