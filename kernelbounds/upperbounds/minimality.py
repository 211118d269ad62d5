"""Minimality of the complement-basis affine-readout level family (THEORY §2 U4', "Minimality").

The family: complement basis, H(x) = sum_j g_j C(x, j) the weight of a key with
x = |q \\ z| = p - l, affine readout F = l - 1/2 + eps (THEORY U4), signs ``any`` or
``nonnegative`` (every g_j >= 0).  A head of it solves Min-IP at length n on m bits only if

- every weight is >= 0 (the kernel is nonnegative, THEORY §1): -H(d) <= 0 for d = 0..m;
- every level class (p; l_2..l_n), t its least level, satisfies the affine row
  sum_(l in p, l_2..l_n) (l - t - 1) H(p - l) < 0 (eps eliminated: the row plus eps times the
  positive denominator is the upper side of |y - t| < 1/2).

A row depends on the class only through its x values, and a class with largest x = X
involves only g_j with j <= X (C(x, j) = 0 for j > x): prefix locality.  For n keys the row
of (self at x = 0, one key at X, n - 2 keys at u_1..u_(n-2)) is the average of the rows of
the *extreme* classes (X; u, ..., u) over u = u_i, so those O(X^2) classes carry every row.

**Reach.**  For the full prefix [0..k] (g_j = 0 for j > k), L(k) is the largest P such that
some g supported on [0..k] satisfies every class with query weight p <= P, i.e. the prefix
solves Min-IP at m = P in the family.  The generator proves L(k) <= L with exact Motzkin
multipliers on the rows of the classes with p <= L + 1 (at least one class row with y > 0;
the combination is 0 on every g_j, or >= 0 when g >= 0 is required), and L(k) >= L with an
exact witness g.  None of this depends on m.

**Chain bound.**  If a support S = {0 = j_0 < j_1 < ...} solves at m and L(j_i) < m, then
S ∩ [0, L(j_i) + 1] solves at m' = L(j_i) + 1 <= m and is not inside [0..j_i], so
j_(i+1) <= L(j_i) + 1; and L(j_last) >= m.  So the least cost sum_i C(m, j_i) over such chains
(a dynamic program over j) is a lower bound on the least feature rank of the family at m.

Floats only propose (HiGHS LPs, rows scaled by their size under the current solution and
columns by |g_j|, THEORY U4' "Numerics"); exact integers and Fractions decide.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, reduce
from math import comb, floor, gcd, lcm, log2

import numpy as np

MAX_M = 64  # the chain bound covers every m <= this (the committed tables' reach)
SIGNS = ("any", "nonnegative")


# ---------------------------------------------------------------- the exact rows


def extreme_class(n: int, x: int, u: int) -> tuple[int, tuple[int, ...]]:
    """The class (p; l_2..l_n) with the self key at x = 0, one key at x and n - 2 keys at u:
    p = x, levels 0 and x - u (increasing)."""
    return x, (0, *([x - u] * (n - 2)))


def class_row(p: int, levels: tuple[int, ...], k: int) -> list[int]:
    """Coefficients on g_0..g_k of sum_(l in p, levels) (l - t - 1) C(p - l, j) (the affine row)."""
    all_levels = (p, *levels)
    t = min(all_levels)
    return [sum((l - t - 1) * comb(p - l, j) for l in all_levels) for j in range(k + 1)]


def weight_row(d: int, k: int) -> list[int]:
    """Coefficients of -H(d) on g_0..g_k."""
    return [-comb(d, j) for j in range(k + 1)]


@lru_cache(maxsize=256)
def rows(n: int, k: int, reach: int) -> tuple[tuple[tuple, tuple[int, ...]], ...]:
    """Every row of the prefix [0..k] on the classes with p <= reach: the weights d <= reach
    (label ("weight", d)) and the extreme classes (label ("class", p, levels)).  The class
    row is computed in x coordinates, g_0 (x - 1) - H(x) + (n - 2)(x - u - 1) H(u) (THEORY
    U4'), equal to class_row of extreme_class(n, x, u) (a test checks it)."""
    binom = [[comb(d, j) for j in range(k + 1)] for d in range(reach + 1)]
    out = [(("weight", d), tuple(-c for c in binom[d])) for d in range(reach + 1)]
    for x in range(reach + 1):
        for u in range(x + 1):
            f = (n - 2) * (x - u - 1)
            r = tuple((x - 1 if j == 0 else 0) - binom[x][j] + f * binom[u][j] for j in range(k + 1))
            p, levels = extreme_class(n, x, u)
            out.append((("class", p, levels), r))
    return tuple(out)


def satisfies(g: list[Fraction], n: int, reach: int) -> bool:
    """Exact: H(d) > 0 for d <= reach and every extreme class row < 0 (hence every class with
    p <= reach, by the averaging of the module docstring); integer arithmetic on g scaled by
    the common denominator."""
    den = lcm(*(x.denominator for x in g))
    ints = [x.numerator * (den // x.denominator) for x in g]
    return all(sum(a * b for a, b in zip(r, ints, strict=True)) < 0 for _, r in rows(n, len(g) - 1, reach))


# ---------------------------------------------------------------- float proposals


def _scaled(table: list[list[int]], cs: np.ndarray) -> np.ndarray:
    a = np.array([[float(x) for x in r] for r in table]) * cs
    norms = np.abs(a).sum(axis=1)
    norms[norms == 0] = 1.0
    return a / norms[:, None]


def _margin_lp(table: list[list[int]], cs: np.ndarray, nonnegative: bool):
    """max s subject to (scaled row).g' + s <= 0, |g'| <= 1 (g' >= 0 for nonnegative); g = g' cs."""
    from scipy.optimize import linprog

    a = _scaled(table, cs)
    k1 = a.shape[1]
    c = np.zeros(k1 + 1)
    c[-1] = -1.0
    bounds = [(0.0 if nonnegative else -1.0, 1.0)] * k1 + [(None, 1.0)]
    res = linprog(c, A_ub=np.hstack([a, np.ones((len(a), 1))]), b_ub=np.zeros(len(a)), bounds=bounds, method="highs")
    if res.status != 0 or res.x[-1] <= 0:
        return None
    return res.x[:-1] * cs


def _near_scale(near: tuple[Fraction, ...]) -> np.ndarray:
    """|g_j| of a known solution, zeros raised to the least nonzero |g_j|."""
    a = np.abs(np.array([float(x) for x in near]))
    return np.maximum(a, a[a > 0].min())


def _significant(x: float, bits: int) -> Fraction:
    """x rounded to `bits` significant bits, exactly."""
    if x == 0:
        return Fraction(0)
    shift = bits - floor(log2(abs(x)))
    return Fraction(round(x * 2.0**shift)) / Fraction(2) ** shift if shift >= 0 else Fraction(round(x / 2.0 ** (-shift))) * 2 ** (-shift)


def _column_scale(k: int, reach: int) -> np.ndarray:
    return np.array([1.0 / comb(max(reach, j), j) for j in range(k + 1)])


def witness(n: int, k: int, reach: int, nonnegative: bool, rounds: int = 6, near: tuple[Fraction, ...] | None = None) -> list[Fraction] | None:
    """An exact g on [0..k] satisfying every class with p <= reach (and g >= 0 when asked), or
    None when the LPs propose none that passes.  Columns start scaled by the binomials (or by
    |g_j| of `near`, a solution at a smaller reach) and are rescaled by |g_j| each round."""
    table = [r for _, r in rows(n, k, reach)]
    cs = _column_scale(k, reach) if near is None else _near_scale(near)
    for _ in range(rounds):
        g = _margin_lp(table, cs, nonnegative)
        if g is None:
            return None
        for bits in (8, 16, 24, 32, 40, 53):
            q = [Fraction(0) if nonnegative and x < 0 else _significant(float(x), bits) for x in g]
            if q[0] > 0 and satisfies(q, n, reach):
                return q
        a = np.abs(g)
        if not (a > 0).any():
            return None
        cs = np.maximum(a, a[a > 0].min())
    return None


# ---------------------------------------------------------------- exact refutations


@dataclass(frozen=True)
class Refutation:
    """Motzkin multipliers: positive integers y on rows (labels) whose combination is 0 on
    every g_j (any signs) or >= 0 on every g_j (nonnegative), with some class row."""

    multipliers: tuple[tuple[tuple, int], ...]


def _solve_exact(picked: list[list[int]], tight: list[int], nonnegative: bool, k: int) -> list[Fraction] | None:
    """y >= 0 with sum y = 1 and sum y_i r_i = 0 on the tight columns (every column for any
    signs), checked to be >= 0 (resp. 0) on every column."""
    import flint

    cols = tight if nonnegative else list(range(k + 1))
    na = len(picked)
    mat = [[picked[i][v] for i in range(na)] + [0] for v in cols] + [[1] * na + [1]]
    red, rank = flint.fmpq_mat(len(mat), na + 1, [x for r in mat for x in r]).rref()
    sol = [Fraction(0)] * na
    for r in range(rank):
        lead = next(c for c in range(na + 1) if red[r, c] != 0)
        if lead == na:
            return None
        sol[lead] = Fraction(int(red[r, na].p), int(red[r, na].q))
    if any(v < 0 for v in sol):
        return None
    total = [sum(sol[i] * picked[i][v] for i in range(na)) for v in range(k + 1)]
    return sol if all(t >= 0 if nonnegative else t == 0 for t in total) else None


def refute(n: int, k: int, reach: int, nonnegative: bool, near: tuple[Fraction, ...] | None = None) -> Refutation | None:
    """Exact Motzkin multipliers proving that no g on [0..k] satisfies the classes with
    p <= reach (so L(k) <= reach - 1), or None.  Columns are scaled by the binomials, then by
    |g_j| of `near` (a solution at a smaller reach) when given."""
    labelled = rows(n, k, reach)
    table = [r for _, r in labelled]
    scales = [_column_scale(k, reach)]
    if near is not None and any(near):
        scales.append(_near_scale(near))
    for cs in scales:
        found = _refute_scaled(labelled, table, cs, nonnegative, k)
        if found is not None:
            return found
    return None


def _refute_scaled(labelled, table, cs: np.ndarray, nonnegative: bool, k: int) -> Refutation | None:
    from scipy.optimize import linprog

    a = _scaled(table, cs)
    nr, k1 = a.shape
    ns = k1 if nonnegative else 0
    eq = np.vstack([np.hstack([a.T, -np.eye(k1)[:, :ns]]), np.concatenate([np.ones(nr), np.zeros(ns)])])
    rhs = np.concatenate([np.zeros(k1), [1.0]])
    scale = np.abs(a).max()
    for method in ("highs-ds", "highs-ipm"):
        res = linprog(np.zeros(nr + ns), A_eq=eq, b_eq=rhs, bounds=[(0, None)] * (nr + ns), method=method)
        if res.status != 0:
            continue
        y = res.x[:nr]
        combo = a.T @ y
        for cut in (0.0, 1e-12, 1e-10, 1e-9, 1e-7, 1e-5):
            active = [int(i) for i in np.flatnonzero(y > cut * y.max())]
            picked = [table[i] for i in active]
            for tol in (1e-12, 1e-10, 1e-8, 1e-6, 1e-4):
                tight = [int(v) for v in np.flatnonzero(np.abs(combo) <= tol * scale)]
                sol = _solve_exact(picked, tight, nonnegative, k)
                if sol is not None and any(v > 0 and labelled[i][0][0] == "class" for v, i in zip(sol, active, strict=True)):
                    return _integral(labelled, active, sol)
                if not nonnegative:
                    break
    return None


def _integral(labelled, active: list[int], sol: list[Fraction]) -> Refutation:
    den = lcm(*(v.denominator for v in sol))
    ints = [int(v * den) for v in sol]
    common = reduce(gcd, [x for x in ints if x])
    pairs = sorted((labelled[i][0], x // common) for i, x in zip(active, ints, strict=True) if x)
    return Refutation(tuple(pairs))


def combination(refutation: Refutation, k: int) -> list[int]:
    """sum y_i r_i on g_0..g_k, re-derived from the labels (exact)."""
    total = [0] * (k + 1)
    for label, y in refutation.multipliers:
        r = weight_row(label[1], k) if label[0] == "weight" else class_row(label[1], label[2], k)
        total = [t + y * c for t, c in zip(total, r, strict=True)]
    return total


# ---------------------------------------------------------------- the reach table


@dataclass(frozen=True)
class Prefix:
    """What is proved about the full prefix [0..k]: L(k) <= upper (the refutation of the
    classes with p <= upper + 1) and L(k) >= lower (the witness satisfies every class with
    p <= lower); exact when they meet."""

    k: int
    upper: int
    refutation: Refutation
    lower: int
    witness: tuple[Fraction, ...]

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


def prefix(n: int, k: int, nonnegative: bool, start: int, known: tuple[Fraction, ...], max_m: int) -> Prefix | None:
    """L(k) for the prefix [0..k], searched upward from `start`, a reach that the exact g
    `known` (on [0..k]) attains; None when the prefix reaches max_m (no bound is then needed
    at any m <= max_m) or no exact refutation below max_m is found."""
    lower, wit = start, known
    while lower < max_m:
        g = witness(n, k, lower + 1, nonnegative) or witness(n, k, lower + 1, nonnegative, near=wit)
        if g is None:
            break
        lower, wit = lower + 1, tuple(g)
    for upper in range(lower, max_m):  # the least reach that exact multipliers refute
        ref = refute(n, k, upper + 1, nonnegative, wit)
        if ref is not None:
            return Prefix(k, upper, ref, lower, wit)
    return None


def table(n: int, nonnegative: bool, max_m: int = MAX_M) -> list[Prefix]:
    """The prefixes k = 0, 1, ... with L(k) < max_m, each with its proofs (THEORY U4')."""
    out: list[Prefix] = []
    start, known = 0, (Fraction(1),)  # g = (1) solves every class with p = 0 (row -n g_0 < 0)
    for k in range(max_m + 1):
        found = prefix(n, k, nonnegative, start, known, max_m)
        if found is None:
            break
        out.append(found)
        start, known = found.lower, found.witness + (Fraction(0),)  # g_(k+1) = 0 keeps the reach
    return _monotone(out)


def _monotone(prefixes: list[Prefix]) -> list[Prefix]:
    """L(k) <= L(k + 1) ([0..k] is inside [0..k + 1]): a refutation of the larger prefix, read on
    g_0..g_k, refutes the smaller one, so a weaker bound of k is replaced by that of k + 1."""
    out = list(prefixes)
    for k in range(len(out) - 2, -1, -1):
        nxt = out[k + 1]
        if nxt.upper < out[k].upper:
            out[k] = Prefix(out[k].k, nxt.upper, nxt.refutation, out[k].lower, out[k].witness)
    return out


# ---------------------------------------------------------------- the chain bound


def chain_bound(uppers: list[int], m: int) -> tuple[int, tuple[int, ...]]:
    """(least cost, lexicographically least chain of that cost) over 0 = j_0 < ... < j_r <= m
    with j_(i+1) <= L(j_i) + 1 and L(j_r) >= m, L(k) = uppers[k] (no bound beyond the list)."""
    inf = float("inf")

    def reach(j: int) -> float:
        return uppers[j] if j < len(uppers) else inf

    best: list[tuple[int, tuple[int, ...]] | None] = [None] * (m + 1)
    best[0] = (1, (0,))
    for j in range(1, m + 1):
        options = [(best[i][0] + comb(m, j), best[i][1] + (j,)) for i in range(j) if best[i] is not None and j <= reach(i) + 1]
        best[j] = min(options) if options else None
    ends = [best[j] for j in range(m + 1) if best[j] is not None and reach(j) >= m]
    return min(ends)


# ---------------------------------------------------------------- the certificate


def _label_json(label: tuple, y: int) -> dict:
    if label[0] == "weight":
        return {"weight": label[1], "y": str(y)}
    return {"class": [label[1], *label[2]], "y": str(y)}


def certificate(n: int, nonnegative: bool, max_m: int = MAX_M, prefixes: list[Prefix] | None = None) -> dict:
    """A format-v2 `level-family-minimality` certificate (docs/certificate-format-v2.md)."""
    from ..certificate import header, rational

    prefixes = table(n, nonnegative, max_m) if prefixes is None else prefixes
    uppers = [p.upper for p in prefixes]
    doc = header("level-family-minimality", version=2)
    entries = []
    for p in prefixes:
        entry = {"reach": p.upper, "refutation": sorted((_label_json(lab, y) for lab, y in p.refutation.multipliers), key=_sort_key)}
        if p.exact:
            entry["witness"] = [rational(x) for x in p.witness]
        entries.append(entry)
    bounds = []
    for m in range(1, max_m + 1):
        cost, chain = chain_bound(uppers, m)
        bounds.append({"m": m, "bound": cost, "chain": list(chain)})
    doc.update(
        n=n,
        basis="complement",
        readout="affine",
        signs="nonnegative" if nonnegative else "any",
        prefixes=entries,
        claims={"max_m": max_m, "chain_bounds": bounds},
    )
    return doc


def _sort_key(entry: dict) -> tuple:
    return (0, entry["weight"], ()) if "weight" in entry else (1, entry["class"][0], tuple(entry["class"][1:]))


def filename(n: int, nonnegative: bool) -> str:
    return f"minimality-{'nonnegative' if nonnegative else 'any'}-n{n}.json"
