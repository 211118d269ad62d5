"""Exact ranks of kernel matrices over all tokens of {0,1}^m (FLINT), and the
level-kernel rank formula (THEORY §2, last paragraph).

A level kernel h(<x,z>) expands as h(l) = sum_j g_j C(l, j) with g_j = (Delta^j h)(0),
and C(<x,z>, j) = #{T : |T| = j, T within x and z}, so
[h(<x,z>)] = sum_{|T| = j} g_j [T within x][T within z]: rank <= sum_{g_j != 0} C(m, j);
the columns [T within z] are independent (a triangular system), so equality holds.
"""

from __future__ import annotations

from itertools import pairwise
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm

import flint
import numpy as np

from .errors import InvalidArgument
from .bits import to_str
from .certificate import header, rational

def forward_differences(h: Sequence[Fraction]) -> list[Fraction]:
    """[(Delta^j h)(0) for j = 0..len(h)-1]."""
    row = [Fraction(x) for x in h]
    out = []
    while row:
        out.append(row[0])
        row = [b - a for a, b in pairwise(row)]
    return out


def formula_rank(h: Sequence[Fraction], m: int) -> int:
    """sum of C(m, j) over the j with (Delta^j h)(0) != 0 (h given on levels 0..m)."""
    if len(h) != m + 1:
        raise InvalidArgument(f"a level kernel on m = {m} bits needs h(0..{m}), got {len(h)} values")
    return sum(comb(m, j) for j, g in enumerate(forward_differences(h)) if g != 0)


def named_kernel(name: str, m: int, n: int = 3, c: Fraction | None = None, h: Sequence[Fraction] | None = None) -> list[Fraction]:
    """h(0..m) of a named level kernel."""
    if name == "tensor":
        base = Fraction(1, 2 * n - 1) if c is None else Fraction(c)
        return [base**l for l in range(m + 1)]
    if name == "softmax":
        return [Fraction(1, (2 * n - 1) ** l) for l in range(m + 1)]
    if name == "inner":
        return [Fraction(l) for l in range(m + 1)]
    if name == "disjoint":
        return [Fraction(int(l == 0)) for l in range(m + 1)]
    if name == "level":
        if h is None:
            raise InvalidArgument("--kernel level needs --h")
        return [Fraction(x) for x in h]
    raise InvalidArgument(f"unknown kernel {name!r}")


def level_matrix(m: int) -> np.ndarray:
    """The 2^m x 2^m matrix of levels <x, z>, vectorised."""
    idx = np.arange(1 << m, dtype=np.uint64)
    return np.bitwise_count(np.bitwise_and.outer(idx, idx)).astype(np.int64)


def integer_values(h: Sequence[Fraction]) -> list[int]:
    """h scaled by the lcm of its denominators (a positive factor: the rank is unchanged)."""
    d = lcm(*(Fraction(x).denominator for x in h))
    return [int(Fraction(x) * d) for x in h]


def kernel_rows(h: Sequence[Fraction], m: int) -> list[list[int]]:
    """The integer matrix D * [h(<x,z>)] as Python lists (exact even beyond 64 bits)."""
    values = integer_values(h)
    levels = level_matrix(m)
    if max(abs(v) for v in values) < 2**62:
        return np.array(values, dtype=np.int64)[levels].tolist()
    table = np.array(values, dtype=object)
    return table[levels].tolist()


def flint_rank(rows: list[list[int]]) -> int:
    """Exact rational rank of an integer matrix (FLINT fmpz_mat)."""
    return flint.fmpz_mat(rows).rank() if rows else 0


def pivots_mod_p(rows: list[list[int]], p: int) -> tuple[list[int], list[int]]:
    """Row and column indices of a nonsingular minor modulo p of maximal size."""
    mat = flint.nmod_mat([[x % p for x in r] for r in rows], p)

    def pivot_columns(a) -> list[int]:
        reduced, rank = a.rref()
        cols, entries = [], reduced.tolist()
        for r in range(rank):
            row = entries[r]
            cols.append(next(c for c, x in enumerate(row) if int(x) != 0))
        return cols

    return pivot_columns(mat.transpose()), pivot_columns(mat)


@dataclass(frozen=True)
class LevelRank:
    """The two routes to a level kernel's rank over all m-bit tokens."""

    formula: int  # exact by the level expansion (THEORY §2)
    flint: int | None  # FLINT's exact rank of the 2^m x 2^m matrix, when m <= max_matrix_m
    build_seconds: float = 0.0
    rank_seconds: float = 0.0

    @property
    def contradicts_theory(self) -> bool:
        """FLINT computed a different rank: the level-expansion formula would be wrong."""
        return self.flint is not None and self.flint != self.formula


def level_rank(h: Sequence[Fraction], m: int, max_matrix_m: int = 12) -> LevelRank:
    """The formula, and FLINT on the full matrix when m <= max_matrix_m."""
    formula = formula_rank(h, m)
    if m > max_matrix_m:
        return LevelRank(formula, None)
    t0 = time.perf_counter()
    rows = kernel_rows(h, m)
    t1 = time.perf_counter()
    exact = flint_rank(rows)
    return LevelRank(formula, exact, t1 - t0, time.perf_counter() - t1)


PRIMES = (2**31 - 1, 1_000_000_007, 998_244_353)


def certificate(h: Sequence[Fraction], m: int, name: str = "level") -> dict:
    """A rank certificate: level expansion (upper) and a nonsingular minor mod p (lower)."""
    h = [Fraction(x) for x in h]
    target = formula_rank(h, m)
    rows = kernel_rows(h, m)
    for p in PRIMES:
        if target == 1 << m:
            ok = flint.nmod_mat([[x % p for x in r] for r in rows], p).rank() == target
            pick_rows = pick_cols = "all"
        else:
            r_idx, c_idx = pivots_mod_p(rows, p)
            ok = len(r_idx) == target
            pick_rows, pick_cols = [to_str(i, m) for i in r_idx], [to_str(i, m) for i in c_idx]
        if ok:
            break
    else:
        raise RuntimeError("no listed prime preserves the rank")  # never seen: each would divide a nonzero minor
    doc = header("rank")
    doc.update(
        m=m,
        kernel={"type": "level", "name": name, "h": [rational(x) for x in h]},
        claims={"rank": target},
        upper={"rule": "level-expansion", "differences": [rational(g) for g in forward_differences(h)]},
        lower={"prime": p, "rows": pick_rows, "cols": pick_cols},
    )
    return doc


def head_rows(head) -> tuple[list[int], list[list[int]]]:
    """(tokens, integer-scaled matrix [a(x, z)]) over the tokens of a table head."""
    tokens = sorted(head.phi_q)
    rows = [[sum((a * b for a, b in zip(head.phi_q[x], head.phi_k[z], strict=True)), Fraction(0)) for z in tokens] for x in tokens]
    d = lcm(*(v.denominator for r in rows for v in r)) if rows else 1
    return tokens, [[int(v * d) for v in r] for r in rows]


def head_certificate(head) -> dict:
    """A rank certificate for a table head's kernel over its tokens (kernel type features)."""
    tokens, rows = head_rows(head)
    exact = flint_rank(rows)
    for p in PRIMES:
        r_idx, c_idx = pivots_mod_p(rows, p)
        if len(r_idx) == exact:
            break
    else:
        raise RuntimeError("no listed prime preserves the rank")
    m = head.m
    doc = header("rank")
    doc.update(
        m=m,
        kernel={
            "type": "features",
            "tokens": [to_str(x, m) for x in tokens],
            "phi_q": [[rational(v) for v in head.phi_q[x]] for x in tokens],
            "phi_k": [[rational(v) for v in head.phi_k[x]] for x in tokens],
        },
        claims={"rank": exact},
        upper={"rule": "exact"},
        lower={"prime": p, "rows": [to_str(tokens[i], m) for i in r_idx], "cols": [to_str(tokens[i], m) for i in c_idx]},
    )
    return doc
