"""Level families at a fixed length n: two feature bases, two readouts (THEORY §2 U4).

A *family* fixes the feature basis (``subset``: w_p(l) = sum_j g_j C(l, j); ``complement``:
w_p(l) = sum_j g_j C(p - l, j)), the readout (``affine``: F = <q,z> - 1/2 + eps with eps
eliminated; ``free``: F(q, z) = f_p(l), a table) and the signs (``nonnegative``: every
g_j >= 0).  In both bases the weight is a function of one integer d in 0..m (d = l, or
d = p - l), so there are m + 1 weight values.  For a support S (g_j = 0 off S) the
conditions are homogeneous strict linear inequalities in x = (g_S, u) with
u_p(l) = w_p(l) f_p(l) (U4, "Search"):

- weight rows      -w(d) < 0                       for d = 0..m;
- affine class rows sum_l w_p(l)(l - t - 1) < 0     for every level class;
- free class rows   2 sum u - (2t + 1) sum w < 0 and (2t - 1) sum w - 2 sum u < 0;
- sign rows         -g_j <= 0 (nonnegative families only).

Floats only propose: one HiGHS LP per support maximises a margin, its solution is
rounded to the coarsest denominator of a fixed ladder that passes the exact class check
(:func:`exact_worst_error`), and infeasibility is certified by exact Motzkin multipliers
(:func:`refute`).  Every row is built here in exact integers and converted to floats
only for the LP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, reduce
from itertools import combinations_with_replacement
from math import comb, gcd, lcm

import numpy as np

BASES = ("subset", "complement")
READOUTS = ("affine", "free")
HALF = Fraction(1, 2)
DENOMINATORS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512, 1024, 2**12, 2**16, 2**20, 2**24, 2**30, 2**40)


@dataclass(frozen=True, order=True)
class LevelFamily:
    basis: str  # "subset" or "complement"
    readout: str  # "affine" or "free"
    nonnegative: bool  # require g_j >= 0 (nonnegative features in the complement basis)

    @property
    def name(self) -> str:
        return f"{self.basis}/{self.readout}/{'nonnegative' if self.nonnegative else 'any'}"


def families(basis: str = "best", readout: str = "best", nonnegative: bool = False) -> list[LevelFamily]:
    """The families a request covers (``best`` = both)."""
    bs = BASES if basis == "best" else (basis,)
    rs = READOUTS if readout == "best" else (readout,)
    return [LevelFamily(b, r, nonnegative) for b in bs for r in rs]


def level_distance(basis: str, p: int, l: int) -> int:
    """The argument d of the weight: w_p(l) = sum_j g_j C(d, j)."""
    return l if basis == "subset" else p - l


def cost(support, m: int) -> int:
    """Feature rank of a support: sum_{j in S} C(m, j)."""
    return sum(comb(m, j) for j in support)


def classes(m: int, n: int):
    """(p, levels of the n-1 other keys): every level class (THEORY §2)."""
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            yield p, levels


# ---------------------------------------------------------------- exact evaluation


def weights(fam: LevelFamily, g: dict[int, Fraction], m: int) -> list[Fraction]:
    """w(d) = sum_j g_j C(d, j) for d = 0..m."""
    return [sum((v * comb(d, j) for j, v in g.items()), Fraction(0)) for d in range(m + 1)]


def readout_table(fam: LevelFamily, eps: Fraction | None, f: list[list[Fraction]] | None, m: int) -> list[list[Fraction]]:
    """F(p, l) for 0 <= l <= p <= m."""
    if fam.readout == "affine":
        return [[l - HALF + eps for l in range(p + 1)] for p in range(m + 1)]
    return f


def exact_worst_error(fam: LevelFamily, g: dict[int, Fraction], table: list[list[Fraction]], m: int, n: int):
    """(worst |y - t| over every class, witness class), or (None, reason) when some weight <= 0."""
    w = weights(fam, g, m)
    bad = next((d for d in range(m + 1) if w[d] <= 0), None)
    if bad is not None:
        return None, bad
    worst, witness = Fraction(-1), None
    for p in range(m + 1):
        wp = [w[level_distance(fam.basis, p, l)] for l in range(p + 1)]
        up = [wp[l] * table[p][l] for l in range(p + 1)]
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            den = wp[p] + sum(wp[l] for l in levels)
            t = levels[0] if levels else p  # levels are sorted and <= p
            err = abs((up[p] + sum(up[l] for l in levels)) / den - t)
            if err > worst:
                worst, witness = err, (p, *levels)
    return worst, witness


def differences(values: list[Fraction]) -> list[Fraction]:
    """Forward differences at 0: a_i with values[l] = sum_i a_i C(l, i)."""
    out, row = [], list(values)
    while row:
        out.append(row[0])
        row = [b - a for a, b in zip(row, row[1:])]
    return out


def value_dim(f: list[list[Fraction]], m: int) -> int:
    """dv = sum_{i <= D} C(m, i), D the largest i with a difference a_(p,i) != 0 (U4)."""
    top = max((i for row in f for i, a in enumerate(differences(row)) if a != 0), default=0)
    return sum(comb(m, i) for i in range(top + 1))


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


# ---------------------------------------------------------------- minimality and certificates


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


def _multiplier_json(label: tuple, y: int) -> dict:
    from ..certificate import rational

    if label[0] == "weight":
        return {"weight": label[1], "y": rational(y)}
    _, p, levels, side = label
    return {"class": [p, *levels], "side": side, "y": rational(y)}


def certificate(found: Found, refutations: list[Refutation] | None = None) -> dict:
    """A format-v2 `level-family` certificate (docs/certificate-format-v2.md)."""
    from ..certificate import header, rational

    fam, m, n = found.family, found.m, found.n
    if found.support is None:
        raise ValueError("no construction to certify")
    worst, _ = exact_worst_error(fam, found.g, readout_table(fam, found.eps, found.f, m), m, n)
    if worst is None or worst >= HALF:
        raise ValueError("the construction does not solve length n")  # least() returns verified ones only
    doc = header("level-family", version=2)
    if fam.readout == "affine":
        readout = {"type": "affine", "eps": rational(found.eps)}
    else:
        readout = {"type": "free", "table": [[rational(x) for x in row] for row in found.f], "value_dim": value_dim(found.f, m)}
    doc.update(
        m=m,
        n=n,
        positions="all",
        basis=fam.basis,
        differences=[rational(found.g.get(j, 0)) for j in range(m + 1)],
        readout=readout,
        claims={
            "worst_error": rational(worst),
            "feature_rank": found.rank,
            "kernel_rank": found.rank,
            "nonnegative_features": found.nonnegative_features,
            "support": sorted(found.g),
        },
    )
    if refutations is not None:
        doc["minimality"] = {
            "signs": "nonnegative" if fam.nonnegative else "any",
            "refuted": [
                {"support": list(r.support), "multipliers": sorted((_multiplier_json(lab, y) for lab, y in r.multipliers), key=lambda e: (sorted(e.items()).__repr__()))}
                for r in refutations
            ],
        }
    return doc


# ---------------------------------------------------------------- every family at once


@dataclass
class Result:
    """One family's answer: the construction (or None) and, on request, its minimality."""

    found: Found
    refutations: list[Refutation] | None  # exact Motzkin multipliers for every maximal cheaper support
    proved: bool  # minimality (or, with no construction, infeasibility of the family) proved exactly

    @property
    def rank(self) -> int | None:
        return self.found.rank


def solve_family(fam: LevelFamily, m: int, n: int, prove: bool = False) -> Result:
    found = least(fam, m, n)
    refs = prove_minimal(found) if prove else None
    return Result(found, refs, refs is not None)


def _solve_job(job):
    return solve_family(*job)


SMALL_CLASSES = 1500  # below this many level classes a process pool costs more than it saves


def solve_families(fams: list[LevelFamily], m: int, n: int, prove: bool = False, processes: int = 2) -> list[Result]:
    """solve_family for each family, over a process pool (results in the order given)."""
    jobs = [(fam, m, n, prove) for fam in fams]
    if processes <= 1 or len(jobs) <= 1 or comb(m + n, n) < SMALL_CLASSES:
        return [_solve_job(j) for j in jobs]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=min(processes, len(jobs))) as pool:
        return list(pool.map(_solve_job, jobs))


def best(results: list[Result]) -> Result | None:
    """The least rank; ties go to the first family in the order of families()."""
    found = [r for r in results if r.rank is not None]
    return min(found, key=lambda r: r.rank) if found else None


def filename(m: int, n: int, nonnegative: bool) -> str:
    """The committed file of the least rank over the families at (m, n)."""
    return f"upper-{'nonnegative' if nonnegative else 'any'}-m{m:02d}-n{n}.json"


SUBSET_MAX_CLASSES = 5000  # beyond this many level classes the committed set searches the complement basis only:
# the subset-basis free-readout search at n = 5, m = 12 (6188 classes) ran over 15 minutes, and the
# subset basis was never better than the complement basis at any committed (m, n) with m >= 5


def least_certificate(m: int, n: int, nonnegative: bool, prove: bool = True, processes: int = 2) -> dict:
    """The committed `level-family` certificate: the least rank over the families of U4
    (any signs, or nonnegative features), with exact minimality in its family when every
    maximal cheaper support was refuted exactly."""
    basis = "best" if comb(m + n, n) <= SUBSET_MAX_CLASSES else "complement"
    r = best(solve_families(families(basis, nonnegative=nonnegative), m, n, prove=prove, processes=processes))
    if r is None:
        raise ValueError(f"no level family solves m = {m}, n = {n}")
    return certificate(r.found, r.refutations if r.proved else None)


def restrict(doc: dict, m: int) -> dict:
    """The level-family certificate of the same head on m <= doc's m bits (tokens whose top
    bits are 0): its level classes are a subset of the original's and g_j with j > m never
    contributes (C(d, j) = 0 for d <= m < j), so it solves length n with support S ∩ [0, m]
    (THEORY U4).  Claims are recomputed exactly; a minimality section is dropped."""
    if not 1 <= m <= doc["m"]:
        raise ValueError(f"cannot restrict a certificate for m = {doc['m']} to m = {m}")
    if m == doc["m"]:
        return doc
    if doc["basis"] == "complement" and doc["readout"]["type"] == "affine":  # O(m^2) extreme classes (U4')
        from . import extreme

        return extreme.restrict(doc, m)
    fam = LevelFamily(doc["basis"], doc["readout"]["type"], False)
    g = {j: Fraction(x) for j, x in enumerate(doc["differences"][: m + 1]) if Fraction(x) != 0}
    ro = doc["readout"]
    eps = Fraction(ro["eps"]) if ro["type"] == "affine" else None
    f = [[Fraction(x) for x in row] for row in ro["table"][: m + 1]] if ro["type"] == "free" else None
    found = Found(fam, m, doc["n"], tuple(sorted(g)), g, eps, f)
    return certificate(found)


def explicit_head(doc: dict):
    """The literal head of a level-family certificate (THEORY U4), as a model.KernelHead:
    phi_T(q) = g_|T| [T ⊆ q], psi_T(z) = [T ⊆ z] or [T ∩ z = ∅]; affine: v(z) = z,
    L_q(v) = <q, v> - 1/2 + eps; free: v(z)_S = [S ⊆ z] for |S| <= D and
    L_q(v) = sum_(S ⊆ q, |S| <= D) a_(|q|,|S|) v_S.  Returns (head, features, value_dim)."""
    from ..model import feature_head

    m = doc["m"]
    g = [Fraction(x) for x in doc["differences"]]
    sets = [t for t in range(2**m) if g[t.bit_count()] != 0]
    subset = doc["basis"] == "subset"

    def phi_q(x, i):
        return tuple(g[t.bit_count()] if t & ~x == 0 else Fraction(0) for t in sets)

    def phi_k(z, j):
        return tuple(Fraction(int((t & ~z if subset else t & z) == 0)) for t in sets)

    ro = doc["readout"]
    if ro["type"] == "affine":
        eps = Fraction(ro["eps"])

        def value(z, j):
            return tuple(Fraction((z >> i) & 1) for i in range(m))

        def readout(q, i):
            return tuple(Fraction((q >> k) & 1) for k in range(m)), eps - HALF

        return feature_head(phi_q, phi_k, value, readout), len(sets), m
    diffs = [differences([Fraction(x) for x in row]) for row in ro["table"]]
    top = max((i for row in diffs for i, a in enumerate(row) if a != 0), default=0)
    vsets = [s for s in range(2**m) if s.bit_count() <= top]

    def value(z, j):
        return tuple(Fraction(int(s & ~z == 0)) for s in vsets)

    def readout(q, i):
        a = diffs[q.bit_count()]
        return tuple(a[s.bit_count()] if s & ~q == 0 else Fraction(0) for s in vsets), Fraction(0)

    return feature_head(phi_q, phi_k, value, readout), len(sets), len(vsets)
