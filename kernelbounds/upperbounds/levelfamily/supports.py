"""The support search of a level family (THEORY §2 U4, "Search"): exact rows, float LP
proposals, rationalisation, exact Motzkin refutations.

For a support S (g_j = 0 off S) the conditions are homogeneous strict linear inequalities in
x = (g_S, u) with u_p(l) = w_p(l) f_p(l):

- weight rows      -w(d) < 0                       for d = 0..m;
- affine class rows sum_l w_p(l)(l - t - 1) < 0     for every level class;
- free class rows   2 sum u - (2t + 1) sum w < 0 and (2t - 1) sum w - 2 sum u < 0;
- sign rows         -g_j <= 0 (nonnegative families only).

Floats only propose: one HiGHS LP per support maximises a margin, its solution is
rounded to the coarsest denominator of a fixed ladder that passes the exact class check
(:func:`~kernelbounds.upperbounds.levelfamily.families.exact_worst_error`), and
infeasibility is certified by exact Motzkin multipliers (:func:`refute`).  Every row is
built here in exact integers and converted to floats only for the LP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, reduce
from math import comb, gcd, lcm

import numpy as np

from .families import DENOMINATORS, HALF, LevelFamily, classes, cost, exact_worst_error, level_distance, readout_table, weights


# ---------------------------------------------------------------- the exact rows


@dataclass(frozen=True)
class System:
    """The strict rows r.x < 0 of a family over all of g_0..g_m (and u), in exact integers."""

    fam: LevelFamily
    m: int
    n: int
    rows: np.ndarray  # int64, one row per strict inequality
    labels: list  # ("weight", d) | ("class", p, levels, side)
    margin: np.ndarray  # 1.0 on class rows, 1.0 on weight rows (the LP's margin s)
    weight_rows: np.ndarray  # the m+1 weight vectors w(d) (as "+w")
    nvars: int

    def u_index(self, p: int, l: int) -> int:
        return self.m + 1 + p * (p + 1) // 2 + l


@lru_cache(maxsize=64)
def system(fam: LevelFamily, m: int, n: int) -> System:
    """Every strict row of the family at (m, n) (columns: g_0..g_m, then u_p(l))."""
    nu = (m + 1) * (m + 2) // 2 if fam.readout == "free" else 0
    nv = m + 1 + nu
    binom = np.array([[comb(d, j) for j in range(m + 1)] for d in range(m + 1)], dtype=np.int64)
    rows, labels = [], []
    for d in range(m + 1):
        r = np.zeros(nv, dtype=np.int64)
        r[: m + 1] = -binom[d]
        rows.append(r)
        labels.append(("weight", d))
    for p, levels in classes(m, n):
        all_levels = (p, *levels)
        t = min(all_levels)
        if fam.readout == "affine":
            r = np.zeros(nv, dtype=np.int64)
            for l in all_levels:
                r[: m + 1] += (l - t - 1) * binom[level_distance(fam.basis, p, l)]
            rows.append(r)
            labels.append(("class", p, levels, "upper"))
            continue
        sw = np.zeros(m + 1, dtype=np.int64)
        su = np.zeros(nv, dtype=np.int64)
        for l in all_levels:
            sw += binom[level_distance(fam.basis, p, l)]
            su[m + 1 + p * (p + 1) // 2 + l] += 1
        up = 2 * su
        up[: m + 1] -= (2 * t + 1) * sw
        lo = -2 * su
        lo[: m + 1] += (2 * t - 1) * sw
        rows += [up, lo]
        labels += [("class", p, levels, "upper"), ("class", p, levels, "lower")]
    mat = np.array(rows, dtype=np.int64)
    return System(fam, m, n, mat, labels, np.ones(len(rows)), binom, nv)


def columns(sys_: System, support) -> np.ndarray:
    """Column indices of the variables of a support: g_j (j in S), then every u."""
    return np.array(sorted(support) + list(range(sys_.m + 1, sys_.nvars)), dtype=np.int64)


# ---------------------------------------------------------------- LP proposals


@dataclass
class Proposal:
    margin: float
    g: dict[int, float]
    u: np.ndarray | None


def propose(fam: LevelFamily, support, m: int, n: int) -> Proposal | None:
    """The LP of U4 on the support (floats): every weight >= 1 (delta = 1) and every class
    row <= -1 (margin 1 in the same units; the strict system is homogeneous, so this loses
    nothing), minimising the sum of the m+1 weights.  None when HiGHS finds it infeasible."""
    from scipy.optimize import linprog

    s = system(fam, m, n)
    cols = columns(s, support)
    a_ub = s.rows[:, cols].astype(float)
    b_ub = -np.ones(len(a_ub))
    k = len(cols)
    c = np.concatenate([s.weight_rows.sum(axis=0)[sorted(support)].astype(float), np.zeros(k - len(support))])
    bounds = [(0, None) if (fam.nonnegative and i < len(support)) else (None, None) for i in range(k)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs")
    if res.status != 0:
        return None
    x = res.x
    g = {j: float(x[i]) for i, j in enumerate(sorted(support))}
    u = x[len(support) : k] if fam.readout == "free" else None
    return Proposal(1.0, g, u)


def _round(x: float, d: int) -> Fraction:
    return Fraction(round(x * d), d)


def rationalise(fam: LevelFamily, prop: Proposal, m: int, n: int):
    """(g, eps, f, worst) with exact rationals that pass, from the coarsest denominator of
    a fixed ladder, or None.  g is scaled so that the least weight is about 1."""
    wf = [sum(v * comb(d, j) for j, v in prop.g.items()) for d in range(m + 1)]
    scale = min(wf)
    if scale <= 0:
        return None
    gs = {j: v / scale for j, v in prop.g.items()}
    for den in DENOMINATORS:
        g = {j: _round(v, den) for j, v in gs.items()}
        g = {j: v for j, v in g.items() if v != 0}
        if 0 not in g:
            continue
        w = weights(fam, g, m)
        if min(w) <= 0:
            continue
        if fam.readout == "affine":
            eps = _eliminated_eps(fam, w, m, n)
            if eps is None:
                continue
            table = readout_table(fam, eps, None, m)
            f = None
        else:
            eps = None
            f = []
            for p in range(m + 1):
                row = []
                for l in range(p + 1):
                    wpl = wf[level_distance(fam.basis, p, l)]
                    row.append(_round(float(prop.u[p * (p + 1) // 2 + l]) / wpl, den))
                f.append(row)
            table = f
        worst, _ = exact_worst_error(fam, g, table, m, n)
        if worst is not None and worst < HALF:
            return g, eps, f, worst
    return None


def _eliminated_eps(fam: LevelFamily, w: list[Fraction], m: int, n: int) -> Fraction | None:
    """A canonical eps in (0, 1) for the affine readout: half of the largest that works,
    rounded down to a power of 1/2 (eps works iff sum w (l - t - 1 + eps) < 0 everywhere)."""
    room = Fraction(1)
    for p, levels in classes(m, n):
        all_levels = (p, *levels)
        t = min(all_levels)
        ws = [w[level_distance(fam.basis, p, l)] for l in all_levels]
        slack = -sum((wl * (l - t - 1) for wl, l in zip(ws, all_levels)), Fraction(0))
        if slack <= 0:
            return None
        room = min(room, slack / sum(ws))
    eps = Fraction(1, 2)
    while eps >= room:
        eps /= 2
    return eps


# ---------------------------------------------------------------- exact refutation


@dataclass
class Refutation:
    """Motzkin multipliers: sum_i y_i r_i has zero u- and signed g-components and
    nonnegative components on sign-constrained g_j, with y >= 0, y != 0."""

    support: tuple[int, ...]
    multipliers: list[tuple[tuple, int]]  # (row label, positive integer)


def refute(fam: LevelFamily, support, m: int, n: int) -> Refutation | None:
    """Exact Motzkin multipliers showing the support is infeasible, or None."""
    from scipy.optimize import linprog

    s = system(fam, m, n)
    cols = columns(s, support)
    a = s.rows[:, cols].astype(float)  # strict rows r.x < 0
    nrows, k = a.shape
    nsign = len(support) if fam.nonnegative else 0
    # y >= 0 (rows), z >= 0 (sign rows on g): a^T y - [z; 0] = 0, sum y = 1
    eq = np.hstack([a.T, -np.eye(k)[:, :nsign]])
    eq = np.vstack([eq, np.concatenate([np.ones(nrows), np.zeros(nsign)])])
    rhs = np.concatenate([np.zeros(k), [1.0]])
    for method, objective in (("highs-ds", 0.0), ("highs-ds", 1.0), ("highs-ipm", 1.0), ("highs-ipm", 0.0)):
        res = linprog(np.full(nrows + nsign, objective), A_eq=eq, b_eq=rhs, bounds=[(0, None)] * (nrows + nsign), method=method)
        if res.status != 0:
            continue
        y, z = res.x[:nrows], res.x[nrows:]
        for tol in (1e-9, 1e-7, 1e-11, 1e-5):
            cut = tol * max(y.max(), 1e-300)
            found = _exact_multipliers(s, cols, np.flatnonzero(y > cut), fam.nonnegative, len(support), np.flatnonzero(z > cut))
            if found is None and fam.nonnegative:  # let every sign row take part
                found = _exact_multipliers(s, cols, np.flatnonzero(y > cut), fam.nonnegative, len(support))
            if found is not None:
                return Refutation(tuple(sorted(support)), [(s.labels[i], v) for i, v in found])
    return None


def _exact_multipliers(s: System, cols, active, nonnegative: bool, nsupport: int, signs=None):
    """Solve sum_{i in active} y_i r_i = z exactly, z supported on the sign-constrained
    g_j listed in `signs` (default: all of them when the family is nonnegative)."""
    import flint

    rows = s.rows[np.ix_(active, cols)]
    k = len(cols)
    signs = list(range(nsupport)) if signs is None and nonnegative else ([] if signs is None else [int(x) for x in signs])
    nsign = len(signs)
    ncol = len(active) + nsign
    mat = [[0] * (ncol + 1) for _ in range(k + 1)]
    for c, i in enumerate(range(len(active))):
        for v in range(k):
            mat[v][c] = int(rows[i, v])
        mat[k][c] = 1
    for c, z in enumerate(signs):
        mat[z][len(active) + c] = -1
    mat[k][ncol] = 1
    red, rank = flint.fmpq_mat(k + 1, ncol + 1, [x for r in mat for x in r]).rref()
    sol = [Fraction(0)] * ncol
    for r in range(rank):
        lead = next(c for c in range(ncol + 1) if red[r, c] != 0)
        if lead == ncol:
            return None  # inconsistent
        sol[lead] = Fraction(int(red[r, ncol].p), int(red[r, ncol].q))
    if any(v < 0 for v in sol) or not any(v > 0 for v in sol[: len(active)]):
        return None
    ys = sol[: len(active)]
    den = lcm(*(v.denominator for v in ys))
    ints = [int(v * den) for v in ys]
    gg = reduce(gcd, [x for x in ints if x])
    out = [(int(active[i]), x // gg) for i, x in enumerate(ints) if x]
    return out if verify_refutation(s, cols, out, nonnegative, nsupport) else None


def verify_refutation(s: System, cols, pairs, nonnegative: bool, nsupport: int) -> bool:
    """Exact re-check (Python ints) of a multiplier combination."""
    total = [0] * len(cols)
    for i, y in pairs:
        if y <= 0:
            return False
        r = s.rows[i]
        for c, col in enumerate(cols):
            total[c] += y * int(r[col])
    for c in range(len(cols)):
        if total[c] < 0 and nonnegative and c < nsupport:
            return False
        if total[c] != 0 and not (nonnegative and c < nsupport):
            return False
    return True


# ---------------------------------------------------------------- support search


def supports_below(m: int, bound: int):
    """Every support containing 0 with cost < bound (depth-first)."""
    out = []

    def walk(j: int, chosen: list[int], c: int) -> None:
        if j > m:
            out.append(tuple(chosen))
            return
        walk(j + 1, chosen, c)
        cj = comb(m, j)
        if c + cj < bound:
            walk(j + 1, chosen + [j], c + cj)

    if bound > 1:
        walk(1, [0], 1)
    return out


def maximal_below(m: int, bound: int) -> list[tuple[int, ...]]:
    """The inclusion-maximal supports containing 0 with cost < bound, in (cost, lex) order."""
    out = []
    for s in supports_below(m, bound):
        c = cost(s, m)
        if all(c + comb(m, j) >= bound for j in range(1, m + 1) if j not in s):
            out.append(s)
    return sorted(out, key=lambda s: (cost(s, m), s))


def supports_of_cost(m: int, target: int) -> list[tuple[int, ...]]:
    """Every support containing 0 with cost exactly target, in lexicographic order."""
    return sorted(s for s in supports_below(m, target + 1) if cost(s, m) == target)


@dataclass
class Found:
    """The result of a family's search."""

    family: LevelFamily
    m: int
    n: int
    support: tuple[int, ...] | None
    g: dict[int, Fraction] = field(default_factory=dict)
    eps: Fraction | None = None
    f: list[list[Fraction]] | None = None
    worst: Fraction | None = None
    refuted_by_lp: list[tuple[int, ...]] = field(default_factory=list)  # maximal cheaper supports (float LP)
    unresolved: list[tuple[int, ...]] = field(default_factory=list)  # LP feasible, no rational solution passed
    lps: int = 0
    least_cost: bool = True  # the support found has the least cost that the float LPs allow

    @property
    def rank(self) -> int | None:
        return None if self.support is None else cost(self.g, self.m)

    @property
    def nonnegative_features(self) -> bool:
        return bool(self.g) and all(v >= 0 for v in self.g.values())


def _shrink(fam: LevelFamily, support: tuple[int, ...], m: int, n: int, counter: list[int]) -> tuple[int, ...]:
    """Drop elements (largest C(m, j) first, ties low j) while the LP stays feasible."""
    current = list(support)
    for j in sorted(support, key=lambda j: (-comb(m, j), j)):
        if j == 0 or j not in current:
            continue
        trial = [x for x in current if x != j]
        counter[0] += 1
        if propose(fam, trial, m, n) is not None:
            current = trial
    return tuple(current)


def least(fam: LevelFamily, m: int, n: int) -> Found:
    """The least-rank support of a family (U4): the first feasible support in (cost, lex)
    order, found by refuting every maximal cheaper support (float LPs; exact Motzkin
    multipliers on request via :func:`refute`) and then scanning the least cost in
    lexicographic order."""
    counter = [0]
    full = tuple(range(m + 1))
    counter[0] += 1
    if propose(fam, full, m, n) is None:
        return Found(fam, m, n, None, refuted_by_lp=[full], lps=counter[0])
    best = _shrink(fam, full, m, n, counter)
    infeasible: set[tuple[int, ...]] = set()
    while True:
        bound = cost(best, m)
        improved = None
        for s in maximal_below(m, bound):
            if s in infeasible:
                continue
            counter[0] += 1
            if propose(fam, s, m, n) is None:
                infeasible.add(s)
            else:
                improved = _shrink(fam, s, m, n, counter)
                break
        if improved is None:
            break
        best = improved
    target = cost(best, m)
    refuted = maximal_below(m, target)
    found = Found(fam, m, n, None, refuted_by_lp=refuted)
    for s in supports_of_cost(m, target) + [full]:  # the full support: a last resort, never silently
        if s == full and (found.unresolved or cost(full, m) != target):
            found.least_cost = False  # the rank found is then not the least: claim nothing about cheaper supports
        counter[0] += 1
        prop = propose(fam, s, m, n)
        if prop is None:
            continue
        exact = rationalise(fam, prop, m, n)
        if exact is None:
            found.unresolved.append(s)
            continue
        found.support, (found.g, found.eps, found.f, found.worst) = s, exact
        break
    found.lps = counter[0]
    return found


def brute_force(fam: LevelFamily, m: int, n: int) -> tuple[int, ...] | None:
    """The first LP-feasible support in (cost, lex) order over all 2^m supports containing 0."""
    every = supports_below(m, 2 ** (m + 1))
    for s in sorted(every, key=lambda s: (cost(s, m), s)):
        if propose(fam, s, m, n) is not None:
            return s
    return None


# ---------------------------------------------------------------- minimality


def prove_minimal(found: Found) -> list[Refutation] | None:
    """Exact Motzkin multipliers for every maximal support cheaper than the one found
    (U4, "Optional"); None if some support could not be refuted exactly."""
    if not found.least_cost:
        return None
    out = []
    for s in found.refuted_by_lp:
        r = refute(found.family, s, found.m, found.n)
        if r is None:
            return None
        out.append(r)
    return out
