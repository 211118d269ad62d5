"""Multi-block level families at n = 3 and beyond (THEORY §2 U8): search, exact decision,
certificates, and the stored answers the committed certificates replay.

Split the m coordinates into blocks of sizes h_1..h_b.  With x_i = |q_i minus z_i| in
block i, the kernel is H(x) = sum_J g_J prod_i C(x_i, J_i) (J over the box
prod_i [0, h_i]); the feature rank is sum_{g_J != 0} prod_i C(h_i, J_i).  With the
affine readout F = <q, z> - 1/2 + eps (eps eliminated) the head solves length n iff H > 0
on the box and, for every X and U in the box with |U| <= |X|,

    row(X, U) = g_0 (|X| - 1) - H(X) + (n - 2) H(U) (|X| - |U| - 1) < 0.

**Search** (floats propose, exact arithmetic decides).  The rows are linear in g; with one
auxiliary variable per total s, M_s >= H(U) >= N_s for |U| = s, the class rows become
g_0 (S - 1) - H(X) + (n - 2)(S - s - 1) M_s <= -1 (s <= S - 2) and
g_0 (S - 1) - H(X) - (n - 2) N_S <= -1 (homogeneous, so a margin of 1 fixes the scale),
P (m + 1) rows for P = prod (h_i + 1) points.  :func:`propose` minimises the feature rank
over supports by a mixed-integer LP (HiGHS through scipy: one binary per term, |g_J| <= B
z_J); its float g is rounded on a ladder of denominators and :func:`decide` accepts the
first rounding that passes the exact check.  :func:`best` tries every two-block split.
HiGHS's defaults (a fixed seed; a run cut by its time limit may differ), so the committed
certificates replay stored answers (``kernelbounds/data/multiblock-answers.json``) and
regeneration needs no solver.

    python -m kernelbounds.upperbounds.multiblock --refresh [--m 12 16 20] [--nonnegative] [--blocks 5+7 ...]
    python -m kernelbounds.upperbounds.multiblock --refresh --m 32 --prune 400000
    python -m kernelbounds.upperbounds.multiblock --refresh --m 48 --prune 4.6e8

At scale (m >= 32) the mixed-integer LP does not finish; :func:`prune` seeds from the best
one-block family lifted by Vandermonde plus the cheap terms and drops terms while an LP stays
feasible (THEORY U8, "Search"), every LP scaled by the kernel of the last feasible g so that
its entries are O(1) (:func:`_scaled_lp`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb, lcm, prod
from pathlib import Path

from ..errors import InvalidArgument

HALF = Fraction(1, 2)
KIND = "multi-block-level-family"
DATA = Path(__file__).resolve().parents[1] / "data" / "multiblock-answers.json"
FORMAT = "kernelbounds-multiblock-answers"
LADDER = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2**12, 2**14, 2**16, 2**20, 2**24, 2**30)


def filename(m: int, n: int, nonnegative: bool) -> str:
    return f"upper-multiblock-{'nonnegative' if nonnegative else 'any'}-m{m:02d}-n{n}.json"


def box(blocks: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every point of prod_i [0, h_i] (also every degree vector J), lexicographically."""
    return list(product(*(range(h + 1) for h in blocks)))


def term_cost(blocks: tuple[int, ...], J: tuple[int, ...]) -> int:
    """The features a term contributes: prod_i C(h_i, J_i)."""
    return prod(comb(h, a) for h, a in zip(blocks, J, strict=True))


@dataclass(frozen=True)
class Family:
    """A decided member: blocks, the nonzero g_J (exact), eps and the exact worst error."""

    blocks: tuple[int, ...]
    n: int
    g: tuple[tuple[tuple[int, ...], Fraction], ...]  # (J, g_J), J increasing, g_J != 0
    eps: Fraction
    worst_error: Fraction

    @property
    def m(self) -> int:
        return sum(self.blocks)

    @property
    def rank(self) -> int:
        return sum(term_cost(self.blocks, J) for J, _ in self.g)

    @property
    def nonnegative(self) -> bool:
        return all(v > 0 for _, v in self.g)

    def certificate(self) -> dict:
        """The `multi-block-level-family` certificate (docs/certificate-format-v2.md)."""
        return {
            "format": "kernelbounds-certificate", "version": 2, "kind": KIND, "m": self.m, "n": self.n, "positions": "all",
            "blocks": list(self.blocks),
            "terms": [{"degrees": list(J), "g": _q(v)} for J, v in self.g],
            "readout": {"type": "affine", "eps": _q(self.eps)},
            "claims": {"worst_error": _q(self.worst_error), "feature_rank": self.rank, "kernel_rank": self.rank, "nonnegative_features": self.nonnegative},
        }


def _q(x: Fraction) -> str:
    return str(Fraction(x))


# ---------------------------------------------------------------- exact decision


def box_kernel(blocks: tuple[int, ...], g: dict[tuple[int, ...], int]) -> dict[tuple[int, ...], int]:
    """H(x) for every point x, block by block: contract the coefficient tensor with the
    binomial table C(x_i, a) of one block at a time (integers)."""
    table: dict[tuple[int, ...], int] = dict(g)
    for i, h in enumerate(blocks):
        out: dict[tuple[int, ...], int] = {}
        for key, v in table.items():
            a = key[i]
            for x in range(a, h + 1):
                k = key[:i] + (x,) + key[i + 1:]
                out[k] = out.get(k, 0) + v * comb(x, a)
        table = out
    return {x: table.get(x, 0) for x in box(blocks)}


def decide(blocks: tuple[int, ...], g: dict[tuple[int, ...], Fraction], n: int) -> Family | None:
    """The member with these g if it solves length n (exact), else None: H > 0 on the box,
    every row(X, U) < 0; eps is the largest power of 1/2 below half the least relative
    slack min -row/(g_0 + H(X) + (n - 2) H(U)), and the worst error is computed exactly."""
    g = {J: Fraction(v) for J, v in g.items() if v != 0}
    if not g:
        return None
    d = lcm(*(v.denominator for v in g.values()))
    H = box_kernel(blocks, {J: int(v * d) for J, v in g.items()})
    if min(H.values()) <= 0:
        return None
    free = n - 2
    by_total: dict[int, list[int]] = {}
    for x, v in H.items():
        by_total.setdefault(sum(x), []).append(v)
    extremes = {s: (max(v), min(v)) for s, v in by_total.items()}
    g0 = H[tuple(0 for _ in blocks)]
    room = None  # the least -row / den over the class pairs
    ratios = []
    for X, hx in H.items():
        S = sum(X)
        cands = [h for s in range(S + 1) for h in extremes[s]] if free else [0]
        sizes = [s for s in range(S + 1) for _ in (0, 1)] if free else [S]
        for hu, s in zip(cands, sizes, strict=True):
            row = g0 * (S - 1) - hx + free * hu * (S - s - 1)
            den = g0 + hx + free * hu
            if row >= 0:
                return None
            r = Fraction(-row, den)
            room = r if room is None or r < room else room
            ratios.append(Fraction(g0 * S + free * hu * (S - s), den))
    eps = Fraction(1, 2)
    while eps >= room / 2:
        eps /= 2
    worst = max(abs(r - HALF + eps) for r in (max(ratios), min(ratios)))
    if worst >= HALF:
        return None
    return Family(tuple(blocks), n, tuple(sorted(g.items())), eps, worst)


# ---------------------------------------------------------------- the float proposal


class _Rows:
    """Sparse rows lo <= a.x <= hi, added one at a time (floats: the proposal only)."""

    def __init__(self) -> None:
        self.r: list[int] = []
        self.c: list[int] = []
        self.v: list[float] = []
        self.lo: list[float] = []
        self.hi: list[float] = []

    def add(self, entries, a: float, b: float) -> None:
        k = len(self.lo)
        for j, val in entries:
            self.r.append(k)
            self.c.append(j)
            self.v.append(float(val))
        self.lo.append(a)
        self.hi.append(b)

    def matrix(self, nv: int):
        import numpy as np
        from scipy.sparse import coo_matrix

        return coo_matrix((self.v, (self.r, self.c)), shape=(len(self.lo), nv)).tocsr(), np.array(self.lo), np.array(self.hi)


def _h_rows(points: list[tuple[int, ...]], terms: list[tuple[int, ...]]) -> dict[tuple[int, ...], list[tuple[int, int]]]:
    """H(x) as (column, prod_i C(x_i, J_i)) over the terms, for every point x."""
    return {x: [(k, term_cost(x, J)) for k, J in enumerate(terms) if all(a <= b for a, b in zip(J, x, strict=True))] for x in points}


def _rows(blocks: tuple[int, ...], n: int):
    """The LP over (g_J for every J of the box, M_s, N_s): sparse rows (lo <= a.x <= hi)."""
    import numpy as np

    pts = box(blocks)
    m, T = sum(blocks), len(pts)
    Mi, Ni = T, T + m + 1
    nv = T + 2 * (m + 1)
    Hrow = _h_rows(pts, pts)
    rows = _Rows()
    add = rows.add
    free = n - 2
    for x in pts:
        s = sum(x)
        add(Hrow[x], 1.0, np.inf)  # H(x) >= 1
        if free:
            add([(Mi + s, 1)] + [(j, -w) for j, w in Hrow[x]], 0.0, np.inf)
            add([(Ni + s, -1)] + Hrow[x], 0.0, np.inf)
    for X in pts:
        S = sum(X)
        base = {0: S - 1}  # column 0 is J = 0 (g_0 = H(0))
        for j, w in Hrow[X]:
            base[j] = base.get(j, 0) - w
        if free:
            for s in range(S - 1):
                add(list(base.items()) + [(Mi + s, free * (S - s - 1))], -np.inf, -1.0)
            add(list(base.items()) + [(Ni + S, -free)], -np.inf, -1.0)
        else:
            add(list(base.items()), -np.inf, -1.0)
    A, lo, hi = rows.matrix(nv)
    return pts, A, lo, hi, nv


def propose(blocks: tuple[int, ...], n: int, nonnegative: bool, bound: float = 1e4, time_limit: float = 600.0) -> dict[tuple[int, ...], float] | None:
    """The least-rank support under |g_J| <= bound by a mixed-integer LP (HiGHS, one thread,
    fixed seed) and its float g, or None (no solution found in the time)."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix, hstack, identity, vstack

    pts, A, lo, hi, nv = _rows(blocks, n)
    T = len(pts)
    # z_J in {0, 1} with -bound z_J <= g_J <= bound z_J
    E = identity(T, format="csr")
    link_hi = hstack([E, csr_matrix((T, nv - T)), -bound * E])
    link_lo = hstack([E, csr_matrix((T, nv - T)), bound * E])
    full = vstack([hstack([A, csr_matrix((A.shape[0], T))]), link_hi, link_lo]).tocsr()
    lower = np.concatenate([lo, np.full(T, -np.inf), np.zeros(T)])
    upper = np.concatenate([hi, np.zeros(T), np.full(T, np.inf)])
    cost = np.concatenate([np.zeros(nv), [float(term_cost(blocks, J)) for J in pts]])
    integrality = np.concatenate([np.zeros(nv), np.ones(T)])
    lb = np.concatenate([np.full(nv, -np.inf), np.zeros(T)])
    if nonnegative:
        lb[:T] = 0.0
    ub = np.concatenate([np.full(nv, np.inf), np.ones(T)])
    res = milp(cost, constraints=LinearConstraint(full, lower, upper), integrality=integrality, bounds=Bounds(lb, ub),
               options={"disp": False, "time_limit": time_limit, "presolve": True})
    if res.x is None:
        return None
    return {J: float(res.x[k]) for k, J in enumerate(pts) if res.x[nv + k] > 0.5}


def rounded(blocks: tuple[int, ...], n: int, g: dict[tuple[int, ...], float], ladder: tuple[int, ...] = LADDER) -> Family | None:
    """The first rounding of g on the denominator ladder that passes :func:`decide`."""
    for den in ladder:
        cand = {J: Fraction(round(v * den), den) for J, v in g.items()}
        found = decide(blocks, cand, n)
        if found is not None:
            return found
    return None


def search(blocks: tuple[int, ...], n: int, nonnegative: bool, bounds: tuple[float, ...] = (1e4, 1e3, 1e5), time_limit: float = 600.0) -> Family | None:
    """The least rank the mixed-integer LP finds that the exact check accepts (trying the
    coefficient bounds in order; the first accepted proposal wins)."""
    for bound in bounds:
        g = propose(blocks, n, nonnegative, bound, time_limit)
        found = rounded(blocks, n, g) if g else None
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------- at scale: seed and prune


ITERATIONS = 25_000  # simplex iterations per pruning LP: one that stalls counts as infeasible
TIME_LIMIT = 60.0  # seconds per pruning LP (one m = 48 LP ran 117 s inside the iteration limit); a run it cuts is machine-dependent
BITS = (20, 30, 40, 52)  # significant bits per g_J tried, in turn, by the exact decision


def _incidence(blocks: tuple[int, ...], terms: list[tuple[int, ...]], mirror: bool = False):
    """The points of the box and the float matrix C[x, J] = prod_i C(x_i, J_i) (J <= x).
    With ``mirror`` (two equal blocks, g_(a, b) = g_(b, a)) a term J stands for J and its
    mirror image J_2, J_1 (the column sums both) and only the points x_1 <= x_2 are kept
    (H is symmetric)."""
    from scipy.sparse import coo_matrix

    pts = [x for x in box(blocks) if not mirror or x <= x[::-1]]
    at = {x: i for i, x in enumerate(pts)}
    r, c, v = [], [], []
    for k, J in enumerate(terms):
        for K in sorted({J, J[::-1]}) if mirror else [J]:
            for x in product(*(range(a, h + 1) for a, h in zip(K, blocks, strict=True))):
                if x in at:
                    r.append(at[x])
                    c.append(k)
                    v.append(float(term_cost(x, K)))
    return pts, coo_matrix((v, (r, c)), shape=(len(pts), len(terms))).tocsc()


def _scaled_lp(blocks: tuple[int, ...], n: int, terms: list[tuple[int, ...]], pts: list[tuple[int, ...]], C, H, active: set, nonnegative: bool, eps: float):
    """One pruning LP, scaled by a positive kernel ``H`` on the points (the last feasible
    one): the float g over the active terms (g_0 = 1) or None (infeasible, or stalled after
    ITERATIONS simplex iterations).  With eps fixed the conditions are, over
    (y+_J, y-_J, t_x, M_s, N_s, R_S) with g_J = c_J y_J and H(x) = H_x t_x,
    t = E y (E[x, J] = C[x, J] c_J / H_x, c_J = min_x H_x / C[x, J]: every entry in (0, 1]),
    t_0 = 1, t >= 0, N_s <= t_x H_x / nu_s and t_x H_x / mu_s <= M_s on total s (mu, nu the
    largest and least H_x there), (S - s - 1 + eps) mu_s M_s <= rho_S R_S for s < S, and per
    point X of total S, divided by H_X,
    g_0 (S - 1 + eps) - (1 - eps) H(X) + (n - 2) rho_S R_S <= 0 and
    g_0 (S - 1 + eps) - (1 - eps) H(X) - (n - 2)(1 - eps) nu_S N_S <= 0:
    O(P + m^2) rows whose entries are O(1) near the scaling kernel (the raw rows span the
    binomials times g, 20 and more orders of magnitude, at m = 48)."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    pts_total = np.array([sum(x) for x in pts])
    m, T, P = sum(blocks), len(terms), len(H)
    free = n - 2
    Cc = C.tocsc()
    col = np.array([np.min(H[Cc.indices[Cc.indptr[k]:Cc.indptr[k + 1]]] / Cc.data[Cc.indptr[k]:Cc.indptr[k + 1]]) for k in range(T)])
    mu, nu = np.zeros(m + 1), np.full(m + 1, np.inf)
    np.maximum.at(mu, pts_total, H)
    np.minimum.at(nu, pts_total, H)
    rho = np.array([max([(S - s - 1 + eps) * mu[s] for s in range(S)], default=1.0) for S in range(m + 1)])
    ti, Mi, Ni, Ri = 2 * T, 2 * T + P, 2 * T + P + m + 1, 2 * T + P + 2 * (m + 1)
    nv = Ri + m + 1
    E = coo_matrix(Cc.multiply(col[None, :]).multiply(1.0 / H[:, None]))
    A_eq = coo_matrix((np.concatenate([E.data, -E.data, -np.ones(P)]),
                       (np.concatenate([E.row, E.row, np.arange(P)]), np.concatenate([E.col, T + E.col, ti + np.arange(P)]))), shape=(P, nv))
    rows = _Rows()
    for i, s in enumerate(pts_total):
        rows.add([(ti + i, H[i] / mu[s]), (Mi + s, -1)], -np.inf, 0.0)
        rows.add([(ti + i, -H[i] / nu[s]), (Ni + s, 1)], -np.inf, 0.0)
    for S in range(m + 1):
        for s in range(S):
            rows.add([(Mi + s, (S - s - 1 + eps) * mu[s] / rho[S]), (Ri + S, -1)], -np.inf, 0.0)
    for i, S in enumerate(pts_total):
        if S:
            a0 = H[0] * (S - 1 + eps) / H[i]
            rows.add([(ti, a0), (ti + i, -(1 - eps)), (Ri + S, free * rho[S] / H[i])], -np.inf, 0.0)
            rows.add([(ti, a0), (ti + i, -(1 - eps)), (Ni + S, -free * (1 - eps) * nu[S] / H[i])], -np.inf, 0.0)
    A_ub, _, b_ub = rows.matrix(nv)
    on = [J in active for J in terms]
    bounds = [(0.0, None if o else 0.0) for o in on] + [(0.0, None if o and not nonnegative else 0.0) for o in on]
    bounds += [(1.0, 1.0)] + [(0.0, None)] * (P - 1) + [(None, None)] * (3 * (m + 1))
    res = linprog(np.zeros(nv), A_ub=A_ub, b_ub=b_ub, A_eq=A_eq.tocsr(), b_eq=np.zeros(P), bounds=bounds, method="highs",
                  options={"maxiter": ITERATIONS, "time_limit": TIME_LIMIT, "primal_feasibility_tolerance": 1e-9, "dual_feasibility_tolerance": 1e-9})
    if res.status != 0:
        return None
    g = (res.x[:T] - res.x[T:2 * T]) * col
    return g / g[terms.index(tuple(0 for _ in blocks))]


def prune(blocks: tuple[int, ...], n: int, nonnegative: bool, seed: tuple[int, ...], cap: int, eps: float = 1e-4,
          start: dict[int, Fraction] | None = None, mirror: bool = False) -> Family | None:
    """Seed and prune (THEORY U8, "at scale"): the candidate terms are the one-block support
    ``seed`` lifted by Vandermonde (every J with |J| in seed: the one-block family itself)
    and every term of cost <= cap; one LP (eps fixed, g_0 = 1) per step, dropping the terms
    in decreasing cost (ties by J) whenever the rest stays feasible; the last feasible g is
    rounded (significant bits, BITS) and decided exactly.  Every LP is scaled by the kernel
    of the last feasible g (:func:`_scaled_lp`; the first by ``start``'s, the one-block g of
    the seed, when given, else by H = 1 at every point, the unscaled kernel), so that its
    entries stay O(1).  With
    ``mirror`` and two equal blocks, g is symmetric (g_(a, b) = g_(b, a); the conditions are,
    so a symmetric solution exists whenever one does): a term and its mirror image are one
    column, dropped together, over the points x_1 <= x_2 (half the LP, and none of the
    degenerate ties between mirror images on which the simplex stalls).  Deterministic
    (HiGHS's dual simplex with an iteration limit; the time limit is a safety net)."""
    import numpy as np

    from .prefix import dyadic

    zero = tuple(0 for _ in blocks)
    mirrored = mirror and len(blocks) == 2 and blocks[0] == blocks[1]
    terms = [J for J in box(blocks) if (sum(J) in seed or term_cost(blocks, J) <= cap) and not (mirrored and J > J[::-1])]
    pts, C = _incidence(blocks, terms, mirrored)
    active = set(terms)
    if start is not None:
        H = np.array([float(sum(v * comb(sum(x), j) for j, v in start.items())) for x in pts])
    else:
        H = np.ones(len(pts))
    g = _scaled_lp(blocks, n, terms, pts, C, H, active, nonnegative, eps)
    if g is None:
        return None
    for J in sorted(terms, key=lambda J: (-term_cost(blocks, J), J)):
        if J != zero:
            H = C @ g  # positive up to the LP's tolerance: a point at or below 0 is scaled like the least positive one
            trial = _scaled_lp(blocks, n, terms, pts, C, np.where(H > 0, H, H[H > 0].min()), active - {J}, nonnegative, eps)
            if trial is not None:
                active, g = active - {J}, trial
    g = {K: float(v) for J, v in zip(terms, g, strict=True) if J in active and v for K in ({J, J[::-1]} if mirrored else {J})}
    for bits in BITS:
        found = decide(blocks, {J: dyadic(v, bits) for J, v in g.items()}, n)
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------- stored answers


def _read(path: Path = DATA) -> dict[tuple[int, int, bool], dict]:
    if not path.is_file():
        return {}
    doc = json.loads(path.read_text())
    if doc.get("format") != FORMAT:
        raise InvalidArgument(f"{path} is not a {FORMAT} file")
    return {(e["m"], e["n"], e["nonnegative"]): e for e in doc["answers"]}


def stored(m: int, n: int, nonnegative: bool, path: Path = DATA) -> Family:
    """The stored answer at (m, n, signs), decided exactly (InvalidArgument if absent or false)."""
    entry = _read(path).get((m, n, nonnegative))
    if entry is None:
        raise InvalidArgument(f"no stored multi-block answer for m = {m}, n = {n} ({'nonnegative' if nonnegative else 'any'} signs)")
    blocks = tuple(entry["blocks"])
    found = decide(blocks, {tuple(t["degrees"]): Fraction(t["g"]) for t in entry["terms"]}, n)
    if found is None:
        raise InvalidArgument(f"the stored multi-block answer for m = {m}, n = {n} fails the exact check")
    return found


def certificate(m: int, n: int, nonnegative: bool) -> dict:
    """The committed certificate at (m, n, signs): the stored answer replayed exactly."""
    return stored(m, n, nonnegative).certificate()


def cells() -> list[tuple[int, int, bool]]:
    """The stored (m, n, nonnegative) answers, sorted (the committed certificates)."""
    return sorted(_read())


def two_blocks(m: int) -> list[tuple[int, int]]:
    """Every split of m coordinates into two blocks, h_1 <= h_2 (the search tries each)."""
    return [(h, m - h) for h in range(1, m // 2 + 1)]


def best(m: int, n: int, nonnegative: bool, splits: list[tuple[int, ...]] | None = None, time_limit: float = 600.0) -> Family | None:
    """The least rank :func:`search` finds over the splits (default: every two-block split),
    the first split winning ties."""
    found = None
    for blocks in splits or two_blocks(m):
        fam = search(blocks, n, nonnegative, time_limit=time_limit)
        if fam is not None and (found is None or fam.rank < found.rank):
            found = fam
    return found


def seeded(m: int, n: int, nonnegative: bool, cap: int) -> Family | None:
    """:func:`prune` at blocks m/2 + m/2, seeded from the committed one-block family of the
    same column at m (the stored prefix-search answer, or the explicit chain for g >= 0;
    upperbounds/replay.py, m = 21..64), with g symmetric (``mirror``)."""
    from . import replay

    one = replay.construction(m, n, nonnegative)
    return prune((m // 2, m - m // 2), n, nonnegative, tuple(one.support), cap, start=one.g, mirror=True)


def refresh(targets: list[tuple[int, int, bool]], path: Path = DATA, time_limit: float = 600.0, splits: list[tuple[int, ...]] | None = None, cap: int | None = None) -> None:
    """Re-run the search for each (m, n, nonnegative) (the mixed-integer LP over the splits,
    or with ``cap`` the seed-and-prune route) and rewrite the stored answers (keeping the
    others, and a stored answer the new run does not beat), atomically."""
    answers = _read(path)
    for m, n, nonnegative in targets:
        if cap is not None:
            found = seeded(m, n, nonnegative, cap)
        else:
            found = best(m, n, nonnegative, [b for b in splits if sum(b) == m] if splits else None, time_limit)
        old = answers.get((m, n, nonnegative))
        if found is None or (old is not None and stored(m, n, nonnegative, path).rank <= found.rank):
            print(f"m = {m}, n = {n}: kept the stored answer" if old else f"m = {m}, n = {n}: nothing found")
            continue
        print(f"m = {m}, n = {n}, blocks {found.blocks}, {'nonnegative' if nonnegative else 'any'}: rank {found.rank}, {len(found.g)} terms")
        answers[(m, n, nonnegative)] = {"m": m, "n": n, "nonnegative": nonnegative, "blocks": list(found.blocks),
                                        "terms": [{"degrees": list(J), "g": _q(v)} for J, v in found.g]}
    doc = {"format": FORMAT, "answers": [answers[k] for k in sorted(answers)]}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)


def _main(argv: list[str] | None = None) -> None:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--refresh", action="store_true", required=True)
    p.add_argument("--m", type=int, nargs="+", default=[12, 16, 20])
    p.add_argument("--n", type=int, default=3)
    p.add_argument("--nonnegative", action="store_true")
    p.add_argument("--blocks", type=str, nargs="*", help="splits to try, e.g. 5+7 (default: every two-block split)")
    p.add_argument("--prune", type=float, metavar="CAP", help="seed and prune at m/2 + m/2 with the terms of cost <= CAP (m = 21..64)")
    p.add_argument("--time-limit", type=float, default=600.0)
    a = p.parse_args(argv)
    splits = [tuple(int(h) for h in b.split("+")) for b in a.blocks] if a.blocks else None
    refresh([(m, a.n, a.nonnegative) for m in a.m], time_limit=a.time_limit, splits=splits, cap=None if a.prune is None else int(a.prune))


if __name__ == "__main__":
    _main()
