"""The candidate codes the lower-bound search tries for a given m.

Every code here has all gaps >= 2 and at most MAX_WORDS words (a prefix of a code is a
code).  Codes built for a smaller m are padded with zero coordinates.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from . import Code
from . import designs, golay, graham_sloane, lexicode, packing, paley

MAX_WORDS = 3000
DESIGNS = ((designs.steiner_4_5_11, 11), (designs.steiner_5_6_12, 12), (designs.biplane_16, 16))


def disjoint_blocks(m: int, w: int) -> Code:
    """floor(m/w) disjoint words of weight w: every gap is w."""
    words = tuple(((1 << w) - 1) << (w * t) for t in range(m // w))
    return Code(f"disjoint-w{w}", m, words, f"{m // w} disjoint blocks of weight {w}")


def direct_sum(a: Code, b: Code, m: int) -> Code:
    """a's words on the first a.m coordinates and b's on the next b.m (cross gaps = weights)."""
    if a.m + b.m > m:
        raise ValueError("the blocks do not fit in m")
    words = a.words + tuple(w << a.m for w in b.words)
    return Code(f"{a.name}(+){b.name}", m, words, f"direct sum of {a.name} and {b.name}")


def _cap(code: Code) -> Code:
    return code if code.size <= MAX_WORDS else code.prefix(MAX_WORDS)


@lru_cache(maxsize=None)
def candidates(m: int, *, thorough: bool = True) -> tuple[Code, ...]:
    """Candidate codes for m-bit tokens (deterministic order)."""
    out: list[Code] = [disjoint_blocks(m, w) for w in range(2, m // 2 + 1)]
    if m >= 48:
        out.append(direct_sum(golay.octads(), golay.octads(), m))
    if m >= 24:
        out += [golay.octads().padded(m), golay.dodecads().padded(m)]
    elif m >= 12:
        for weight in (8, 12):
            code = golay.shortened(weight, m)
            if code.size >= 2:
                out.append(code)
    out += [paley.paley(q, m) for q in paley.PRIMES_3_MOD_4 if q + 1 <= m]
    out += [design().padded(m) for design, size in DESIGNS if size <= m]
    for w in (3, 4):
        if 2 * w <= m and comb(m, w) <= 200_000:
            out.append(graham_sloane.graham_sloane(m, w, MAX_WORDS))
    if thorough:
        for w in sorted({m // 4, m // 3, m // 2} - {0, 1}):
            if comb(m, w) <= 300_000:
                for lam in sorted({w // 3, w // 2} & set(range(0, w - 1))):
                    out.append(lexicode.lexicode(m, w, lam, MAX_WORDS))
        if m <= 10:
            for w in range(2, m // 2 + 2):
                for lam in range(0, w - 1):
                    if comb(m, w) <= packing.MAX_VERTICES:
                        out.append(packing.max_code(m, w, lam))
    unique: dict[tuple[int, ...], Code] = {}
    for code in out:
        code = _cap(code)
        if code.size >= 2 and code.words not in unique and min(code.gaps()) >= 2:
            unique[code.words] = code
    return tuple(unique.values())


@lru_cache(maxsize=None)
def linear_candidates(m: int) -> tuple[tuple[object, int], ...]:
    """(linear code, weight w) pairs that fit in m bits: Golay, Reed-Muller RM(r, mu)
    (padded), RM shortened to m, RM shortened or punctured on a flat, and RM restricted
    to unions of 4-point cells (padded), each weight class
    with 2w <= m + 1 and at least two words.  RM codes and their flat shortenings carry
    their affine automorphisms (the orbit form); the others only the uniform form."""
    from .linear import golay_linear, punctured_on_flat, reed_muller, rm_on_cells, shortened, shortened_on_flat

    codes = []
    if m >= 24:
        codes.append(golay_linear().padded(m))
    for r, mu in ((1, 4), (2, 4), (1, 5), (2, 5), (1, 6), (2, 6)):
        if 2**mu <= m:
            codes.append(reed_muller(r, mu).padded(m))
        elif 2 ** (mu - 1) < m:  # m between 2^(mu-1) and 2^mu: the shortened code
            codes.append(shortened(reed_muller(r, mu), m))
        for fixed in range(1, mu + 1) if r == 2 else ():
            length = 2**mu - 2 ** (mu - fixed)
            if length <= m:
                if fixed >= 2:
                    codes.append(_flat_code(shortened_on_flat, r, mu, fixed).padded(m))
                codes.append(_flat_code(punctured_on_flat, r, mu, fixed).padded(m))
    for mu, free, cells in ((5, 2, 5), (6, 2, 9), (6, 3, 5), (6, 2, 11), (6, 2, 13)):  # lengths between the flats
        if cells << free <= m:
            for shorten in ((), (cells,)):
                codes.append(_flat_code(rm_on_cells, 2, mu, free, cells, shorten).padded(m))
    out = []
    for code in codes:
        base = code.unpadded  # weight w and m - w give the same gaps when 1 is a codeword
        for w in sorted({int(x) for x in set(code.weights.tolist())} - {0}):
            if 2 * w <= base.m + 1 and code.count_of_weight(w) >= 2:
                out.append((code, w))
    return tuple(out)


@lru_cache(maxsize=None)
def _flat_code(build, *args):
    """One instance per flat or cell code, so padded copies share its words and orbits."""
    return build(*args)
