"""Graham-Sloane constant-weight codes of minimum distance 4 (THEORY L6).

For a in Z_m the words of weight w with sum of support positions = a (mod m) differ
in at least 4 places: two words differing in exactly two places i -> j would have sums
differing by j - i, which is not 0 mod m.  The largest of the m classes has at least
C(m, w)/m words; every pair meets in at most w - 2 points (gap >= 2).
"""

from __future__ import annotations

from itertools import combinations
from math import comb

from ...errors import InvalidArgument
from . import Code

MAX_CANDIDATES = 2_000_000


def graham_sloane(m: int, w: int, max_words: int | None = None) -> Code:
    if comb(m, w) > MAX_CANDIDATES:
        raise InvalidArgument(f"C({m},{w}) = {comb(m, w)} is over the limit {MAX_CANDIDATES}")
    classes: list[list[int]] = [[] for _ in range(m)]
    for support in combinations(range(m), w):
        classes[sum(support) % m].append(sum(1 << i for i in support))
    a = max(range(m), key=lambda r: (len(classes[r]), -r))
    words = classes[a][:max_words] if max_words else classes[a]
    return Code(f"graham-sloane-w{w}-a{a}", m, tuple(words), f"sum of positions = {a} mod {m}, distance 4")
