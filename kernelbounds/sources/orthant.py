"""The orthant family (THEORY L7): t = floor(m/2) queries on disjoint bit pairs, shattered
by the signs L1 forces, so r >= floor(m/2) (sign rank >= VC dimension; kind ``orthant``,
rule ``disjoint-pairs``).  Nonnegative and signed kernels (positive denominators, L8 (a)).

Committed files at m = 5..16 (n = 3) and a few other variants; stored (COMPUTED) at every
cell with 4 <= m <= 41 where it can decide a side: floor(m/2) >= the code bound - 1 (the
signed code side is one less).
"""

from __future__ import annotations

from functools import partial

from .protocol import Entry, Statement, no_description, plain_label, verdict

NAME, KIND, SIDE = "orthant", "orthant", "lower"
THEORY, METHOD = "L7", "sign rank (orthant family)"
STORED, COMPUTED = "cell", True
label, describe = plain_label(METHOD, THEORY), no_description

MAX_M = 41  # signrank's certificates list the pairs up to here; above, L4's codes are far better
KERNELS = ("nonnegative", "signed")  # not signed-any-denominator (THEORY L8)


def has_orthant(m: int, code_bound: int) -> bool:
    """Whether THEORY L7's floor(m/2) is stored at m beside this code bound: it can decide a
    side (floor(m/2) >= code_bound - 1: the signed code side is one less)."""
    return 4 <= m <= MAX_M and m // 2 >= code_bound - 1


def _family(m: int, n: int, variant: str):
    from ..lowerbounds import signrank

    return signrank.orthant(m, n, variant)


def covers(m: int, n: int, variant: str, kernel: str) -> bool:
    return 4 <= m <= MAX_M and n >= 3 and kernel in KERNELS


def build(m: int, n: int, variant: str, kernel: str) -> dict:
    return _family(m, n, variant).certificate()


def row(m: int, n: int, variant: str, lookup) -> dict | None:
    """Bound floor(m/2) and the witness family's size where it can decide a side, with the
    checker's verdict on its certificate."""
    codes = lookup("codes", m, n, variant)
    if not has_orthant(m, codes["bound"] if codes else 0):
        return None
    o = _family(m, n, variant)
    found = verdict(o.certificate(), f"orthant family at m = {m}, n = {n} ({variant})")
    return {"bound": o.bound, "witness_inputs": o.witness_count} | found


def statements(m: int, n: int, variant: str, kernel: str, lookup) -> list[Statement]:
    o = lookup(NAME, m, n, variant)
    if o is None:
        return []
    detail = f"t = {o['bound']} queries on disjoint bit pairs shattered by the signs L1 forces (sign rank >= VC dimension), witness family {o['witness_inputs']} inputs"
    return [Statement(o["bound"], METHOD, THEORY, m, detail, f"kernelbounds bound --m {m} --n {n} --variant {variant} -o FILE", found=o, at=(m, n, variant),
                      where=f"orthant family at m = {m}, n = {n} ({variant})", build=partial(build, m, n, variant, kernel))]


def _file(m: int, n: int, variant: str = "position-independent") -> Entry:
    return Entry(f"orthant-{variant}-m{m:02d}-n{n}.json", lambda: build(m, n, variant, "nonnegative"), cell=(m, n, variant, "nonnegative"))


def entries() -> list[Entry]:
    out = [_file(m, 3) for m in range(5, 17)]
    return out + [_file(m, 3, "position-dependent") for m in (8, 10, 12)] + [_file(12, 3, "causal")]

