"""Hadamard codes from Paley difference sets (q prime, q = 3 mod 4).

The quadratic residues D mod q form a (q, (q-1)/2, (q-3)/4) difference set, so the
translates D + a, each with an extra point at infinity, are q words of weight (q+1)/2
on q + 1 points meeting pairwise in (q+1)/4 points.  With their complements (within
the q + 1 points) they give 2q words of weight (q+1)/2 meeting in (q+1)/4 or 0.
"""

from __future__ import annotations

from ...errors import InvalidArgument
from . import Code

PRIMES_3_MOD_4 = (3, 7, 11, 19, 23, 31, 43, 47, 59, 67, 71, 79, 83)


def paley_words(q: int, with_complements: bool = True) -> tuple[int, ...]:
    residues = {(x * x) % q for x in range(1, q)}
    infinity = 1 << q
    full = (1 << (q + 1)) - 1
    translates = [sum(1 << ((r + a) % q) for r in residues) | infinity for a in range(q)]
    words = translates + ([full ^ w for w in translates] if with_complements else [])
    return tuple(words)


def paley(q: int, m: int | None = None) -> Code:
    if q not in PRIMES_3_MOD_4:
        raise InvalidArgument(f"q = {q} is not a listed prime = 3 mod 4")
    code = Code(f"paley{q}", q + 1, paley_words(q), f"Paley Hadamard code of order {q + 1}")
    return code if m is None else code.padded(m)
