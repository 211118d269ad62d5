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
from .rowshape import Problem, fields, sha, whole

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


FIELDS = {"bound", "witness_inputs", "sha256", "claim"}


def shape(row, where: str, m: int, n: int, variant: str, cell: dict) -> list[Problem]:
    """A stored orthant row: there exactly where it can decide a side beside the cell's code
    bound (:func:`has_orthant`; a code bound that is not a whole number in 1..2^m is the
    codes source's problem, and this row is then not judged), with exactly :data:`FIELDS`, the bound in 1..2^m and the
    witness count in 0..2^(mn) (inputs of n tokens of m bits)."""
    codes = cell.get("codes")
    if codes is not None and not (isinstance(codes, dict) and type(codes.get("bound")) is int and 1 <= codes["bound"] <= 2**m):
        return []
    bound = codes["bound"] if codes else 0
    expected = has_orthant(m, bound)
    if row is None:
        return [(where, f"missing: THEORY L7's floor(m/2) = {m // 2} decides a side at m = {m} (code bound {bound})")] if expected else []
    if not expected:
        return [(where, f"stored where THEORY L7 decides no side (m = {m}, code bound {bound})")]
    return fields(row, FIELDS, where) or (whole(row["bound"], 1, 2**m, f"{where}/bound", "the orthant bound")
                                       + whole(row["witness_inputs"], 0, 2 ** (m * n), f"{where}/witness_inputs", "the witness count") + sha(row, where))


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

