"""Greedy (lexicographic) constant-weight codes.

Scan the weight-w words in lexicographic order of supports and keep each word that
meets every kept word in at most `lam` points.  The indices of the surviving candidates
shrink with one vectorised intersection pass over the survivors per kept word.
"""

from __future__ import annotations

from math import comb

import numpy as np

from ...errors import InvalidArgument
from ...bits import tokens_of_weight
from . import Code
from .verify import limbs

MAX_CANDIDATES = 1_000_000


def candidates(m: int, w: int) -> list[int]:

    return list(tokens_of_weight(m, w))


def lexicode(m: int, w: int, lam: int, max_words: int = 1024) -> Code:
    """The greedy code of weight w with pairwise intersections <= lam (at most max_words)."""
    if comb(m, w) > MAX_CANDIDATES:
        raise InvalidArgument(f"C({m},{w}) = {comb(m, w)} candidates is over the limit {MAX_CANDIDATES}")
    words = candidates(m, w)
    arr = limbs(words, m)
    alive = np.arange(len(words))  # indices of the candidates still compatible, increasing
    kept: list[int] = []
    while len(kept) < max_words and alive.size:
        pick = int(alive[0])
        kept.append(words[pick])
        rest = alive[1:]
        inter = np.bitwise_count(arr[rest] & arr[pick]).sum(axis=1)
        alive = rest[inter <= lam]  # one pass over the survivors only
    return Code(f"lexicode-w{w}-l{lam}", m, tuple(kept), f"greedy code, weight {w}, intersections <= {lam}")
