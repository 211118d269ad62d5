"""Level-kernel constructions below 2^m for a fixed length n (THEORY §2, last paragraph).

A level kernel h(l) = sum_{j in S} g_j C(l, j) with values v(z) = z and readout
F(q, z) = <q, z> - 1/2 + eps has error < 1/2 at every position of every length-n input
iff h > 0 on 0..m and, for every level class (p, l_2..l_n) with least level t,
sum_j h(l_j)(l_j - t - 1 + eps) < 0 (the self level p included; the lower side
y > t - 1/2 holds automatically since every l_j >= t and eps > 0).  Its rank is
sum_{j in S} C(m, j).  A support S is tested by a linear program (HiGHS via scipy) in the
free variables g_j, j in S; the float answer is turned into exact rationals and every
class is re-checked exactly, so the LP only proposes and exact arithmetic decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

import numpy as np

EPS = Fraction(1, 4)


def classes(m: int, n: int):
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            yield (p, *levels)


def h_from_differences(g: dict[int, Fraction], m: int) -> list[Fraction]:
    return [sum((gj * comb(l, j) for j, gj in g.items()), Fraction(0)) for l in range(m + 1)]


def worst_error(h: list[Fraction], m: int, n: int, eps: Fraction = EPS) -> Fraction | None:
    """Exact worst |y - t| over the level classes (None if some h(l) <= 0)."""
    if any(x <= 0 for x in h):
        return None
    worst = Fraction(0)
    for cls in classes(m, n):
        t = min(cls)
        den = sum(h[l] for l in cls)
        num = sum(h[l] * (l - Fraction(1, 2) + eps) for l in cls)
        worst = max(worst, abs(num / den - t))
    return worst


def _lp(support: list[int], m: int, n: int, eps: float, margin: float):
    """Feasible g on the support with h >= 1 and every class sum <= -margin, or None."""
    from scipy.optimize import linprog

    a_ub, b_ub = _constraints(support, m, n, eps, margin)
    res = linprog(np.zeros(len(support)), A_ub=a_ub, b_ub=b_ub, bounds=[(None, None)] * len(support), method="highs")
    return res.x if res.status == 0 else None


def exact_profile(support: list[int], m: int, n: int, eps: Fraction = EPS) -> dict[int, Fraction] | None:
    """An exactly verified g on the support, or None."""
    for margin in (1.0, 10.0, 1000.0):
        x = _lp(support, m, n, float(eps), margin)
        if x is None:
            return None
        for denominator in (1000, 10**6, 10**9, None):  # prefer short rationals; None = the float exactly
            g = {j: (Fraction(v) if denominator is None else Fraction(v).limit_denominator(denominator)) for j, v in zip(support, x)}
            g = {j: v for j, v in g.items() if v != 0}  # an exact zero only shrinks the support
            err = worst_error(h_from_differences(g, m), m, n, eps)
            if err is not None and err < Fraction(1, 2):
                return g
    return None


@dataclass(frozen=True)
class LevelConstruction:
    m: int
    n: int
    eps: Fraction
    g: dict[int, Fraction]

    @property
    def rank(self) -> int:
        return sum(comb(self.m, j) for j in self.g)

    @property
    def h(self) -> list[Fraction]:
        return h_from_differences(self.g, self.m)

    @property
    def nonnegative_features(self) -> bool:
        return all(v > 0 for v in self.g.values())


def _constraints(support: list[int], m: int, n: int, eps: float, margin: float):
    basis = np.array([[comb(l, j) for j in support] for l in range(m + 1)], dtype=float)  # h = basis @ g
    rows = []
    for cls in classes(m, n):
        t = min(cls)
        coef = np.zeros(m + 1)
        for l in cls:
            coef[l] += l - t - 1 + eps
        rows.append(coef @ basis)
    a_ub = np.vstack([np.array(rows), -basis])
    b_ub = np.concatenate([np.full(len(rows), -margin), -np.ones(m + 1)])
    return a_ub, b_ub


def weighted_l1_support(m: int, n: int, eps: Fraction = EPS) -> list[int] | None:
    """The support of a solution minimising sum_j C(m, j)|g_j| (a sparsity heuristic)."""
    from scipy.optimize import linprog

    a_ub, b_ub = _constraints(list(range(m + 1)), m, n, float(eps), 1.0)
    weights = np.array([comb(m, j) for j in range(m + 1)], dtype=float)
    res = linprog(np.concatenate([weights, weights]), A_ub=np.hstack([a_ub, -a_ub]), b_ub=b_ub, bounds=[(0, None)] * (2 * m + 2), method="highs")
    if res.status != 0:
        return None
    x = res.x[: m + 1] - res.x[m + 1 :]
    return [j for j in range(m + 1) if abs(x[j]) > 1e-9 * max(abs(x))]


def _greedy(support: list[int], order: list[int], m: int, n: int, eps: Fraction) -> dict[int, Fraction] | None:
    g = exact_profile(support, m, n, eps)
    if g is None:
        return None
    for j in order:
        trial = [x for x in sorted(g) if x != j]
        if trial and j in g:
            found = exact_profile(trial, m, n, eps)
            if found is not None:
                g = found
    return g


def search(m: int, n: int, eps: Fraction = EPS) -> LevelConstruction | None:
    """The cheapest exactly verified level kernel over three greedy strategies: start from
    the full support {0..m} or from a weighted-L1 solution's support, and drop the j with the
    largest C(m, j) first (ties: low j first, or high j first) whenever the LP stays
    feasible and the rational profile verifies exactly.  A heuristic: the result is a
    certified upper bound, not the minimum."""
    full = list(range(m + 1))
    starts = [(full, sorted(full, key=lambda j: (-comb(m, j), j))), (full, sorted(full, key=lambda j: (-comb(m, j), -j)))]
    sparse = weighted_l1_support(m, n, eps)
    if sparse:
        starts.append((sparse, sorted(sparse, key=lambda j: (-comb(m, j), j))))
    best: dict[int, Fraction] | None = None
    for support, order in starts:
        g = _greedy(support, order, m, n, eps)
        if g is not None and (best is None or (sum(comb(m, j) for j in g), sorted(g)) < (sum(comb(m, j) for j in best), sorted(best))):
            best = g
    return LevelConstruction(m, n, eps, best) if best is not None else None


def restrict(c: LevelConstruction, m: int) -> LevelConstruction | None:
    """The same h on m <= c.m bits (tokens with the top c.m - m bits zero): its classes are a
    subset of c's, so it still solves length n; rank sum_{j <= m, g_j != 0} C(m, j).
    Re-verified exactly before it is returned."""
    g = {j: v for j, v in c.g.items() if j <= m}
    err = worst_error(h_from_differences(g, m), m, c.n, c.eps) if g else None
    return LevelConstruction(m, c.n, c.eps, g) if err is not None and err < Fraction(1, 2) else None


def certificate(c: LevelConstruction) -> dict:
    """A v1 construction certificate (kernel type level-expansion)."""
    from .certificate import header, rational

    err = worst_error(c.h, c.m, c.n, c.eps)
    if err is None or err >= Fraction(1, 2):
        raise ValueError("the level profile does not solve length n")  # search() only returns verified profiles
    doc = header("construction")
    doc.update(
        construction="level-kernel",
        m=c.m,
        n=c.n,
        positions="all",
        head={
            "kernel": {"type": "level-expansion", "differences": [rational(c.g.get(j, 0)) for j in range(c.m + 1)]},
            "values": {"type": "identity"},
            "readout": {"type": "query-affine", "alpha": "1", "beta": "0", "gamma": rational(c.eps - Fraction(1, 2))},
        },
        claims={"worst_error": rational(err), "feature_rank": c.rank, "kernel_rank": c.rank, "nonnegative_features": c.nonnegative_features},
    )
    return doc


# ---------------------------------------------------------------- U4 level families (issue 12)

CERTIFICATES = __import__("pathlib").Path(__file__).resolve().parents[1] / "certificates"


def family_filename(m: int, n: int, nonnegative: bool) -> str:
    return f"upper-{'nonnegative' if nonnegative else 'any'}-m{m:02d}-n{n}.json"


SUBSET_MAX_CLASSES = 5000  # beyond this many level classes the committed set searches the complement basis only:
# the subset-basis free-readout search at n = 5, m = 12 (6188 classes) ran over 15 minutes, and the
# subset basis was never better than the complement basis at any committed (m, n) with m >= 5


def family_certificate(m: int, n: int, nonnegative: bool, prove: bool = True, processes: int = 2) -> dict:
    """The committed `level-family` certificate: the least rank over the families of U4
    (any signs, or nonnegative features), with exact minimality in its family when every
    maximal cheaper support was refuted exactly."""
    from .upperbounds import levelfamily

    basis = "best" if comb(m + n, n) <= SUBSET_MAX_CLASSES else "complement"
    results = levelfamily.solve_families(levelfamily.families(basis, nonnegative=nonnegative), m, n, prove=prove, processes=processes)
    r = levelfamily.best(results)
    if r is None:
        raise ValueError(f"no level family solves m = {m}, n = {n}")
    return levelfamily.certificate(r.found, r.refutations if r.proved else None)


def _committed(n: int, nonnegative: bool) -> dict[int, dict]:
    """m -> the committed level-family certificate for (m, n), each re-checked by the checker."""
    import json

    from .checker import Limits, check_file

    quick = Limits(exhaustive_inputs=0, rank_m=0)  # the level-class route proves the claim; skip the extra routes
    out = {}
    for path in sorted(CERTIFICATES.glob(f"upper-{'nonnegative' if nonnegative else 'any'}-m*-n{n}.json")):
        if check_file(str(path), quick).ok:
            doc = json.loads(path.read_text())
            out[doc["m"]] = doc
    return out


def restricted_rank(doc: dict, m: int) -> int | None:
    """The rank of a level-family head on m <= doc's m bits (tokens with the top bits zero):
    its level classes are a subset of the original's and g_j with j > m never contributes
    (C(d, j) = 0 for d <= m < j), so it still solves length n with support S ∩ [0, m]."""
    if m > doc["m"]:
        return None
    return sum(comb(m, j) for j in doc["claims"]["support"] if j <= m)


def best_known(m: int, n: int, search_max_m: int = 0) -> tuple[int, int]:
    """(upper bound with any features, upper bound with nonnegative features) for r*(m, n):
    committed certificates and their restriction closure, a fresh search where nothing is
    committed and m <= search_max_m (complement-basis families), and U2's 2^m nonnegative
    features.  The any-features bound is also at most the nonnegative one."""
    from .upperbounds import levelfamily

    out = []
    for nonneg in (False, True):
        ranks = [2**m]
        ranks += [r for doc in _committed_cache(n, nonneg).values() if (r := restricted_rank(doc, m)) is not None]
        if m not in _committed_cache(n, nonneg) and m <= search_max_m and n >= 2:
            # complement basis only: the best family at every m >= 5 measured (docs/upper-bounds.md), and fast
            r = levelfamily.best(levelfamily.solve_families(levelfamily.families("complement", nonnegative=nonneg), m, n))
            if r is not None:
                ranks.append(r.rank)
        out.append(min(ranks))
    any_rank, nonneg_rank = out
    return min(any_rank, nonneg_rank), nonneg_rank


_CACHE: dict = {}


def _committed_cache(n: int, nonneg: bool) -> dict[int, dict]:
    if (n, nonneg) not in _CACHE:
        _CACHE[(n, nonneg)] = _committed(n, nonneg)
    return _CACHE[(n, nonneg)]
