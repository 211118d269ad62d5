"""Greedy (lexicographic) constant-weight codes.

Scan the weight-w words in lexicographic order of supports and keep each word that
meets every kept word in at most `lam` points.  A boolean mask over all candidates is
updated with one vectorised intersection pass per kept word.
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..bits import tokens_of_weight
from . import Code
from .verify import limbs

MAX_CANDIDATES = 1_000_000


def candidates(m: int, w: int) -> list[int]:

    return list(tokens_of_weight(m, w))


def lexicode(m: int, w: int, lam: int, max_words: int = 1024) -> Code:
    """The greedy code of weight w with pairwise intersections <= lam (at most max_words)."""
    if comb(m, w) > MAX_CANDIDATES:
        raise ValueError(f"C({m},{w}) = {comb(m, w)} candidates is over the limit {MAX_CANDIDATES}")
    words = candidates(m, w)
    arr = limbs(words, m)
    alive = np.ones(len(words), dtype=bool)
    kept: list[int] = []
    start = 0
    while len(kept) < max_words:
        free = np.flatnonzero(alive[start:])
        if free.size == 0:
            break
        pick = start + int(free[0])
        kept.append(words[pick])
        inter = np.bitwise_count(arr & arr[pick]).sum(axis=1)
        alive &= inter <= lam
        alive[pick] = False
        start = pick + 1
    return Code(f"lexicode-w{w}-l{lam}", m, tuple(kept), f"greedy code, weight {w}, intersections <= {lam}")
