"""The prefix search over complement-basis supports (THEORY §2 U4', "Locality").

Family: complement basis, affine readout (eps eliminated), g of any sign or g >= 0
(nonnegative features).  A class with largest x = X involves only g_j with j <= X, so a
support S is feasible at m only if each prefix S ∩ [0, j) reaches j - 1 for every j in S:
the next element of a prefix with reach R lies in (max prefix, R + 1].  The search is a
depth-first walk over prefixes with branch-and-bound on the cost sum_(j in S) C(m, j):

- the reach of a prefix is proposed by float LPs over the extreme classes (X, u) with the
  rescaling THEORY U4' describes: the rows of X divided by the current H(X), the columns by
  the current |g_j|, a new element warm-started at beta * H(j - 1) (beta = 16); rows enter
  as cutting planes (the most binding at the warm start first); X gallops up from the
  reach of the warm start and is then bisected, never past the cap U(j) below;
- the cost still to pay after a prefix ending at j is at least T(j) (a dynamic programme
  over the largest reach U(k) of any support inside [0, k]: proved for g >= 0, see
  :mod:`chain`; for signed g the float-LP reach of the full prefix [0, k]);
- the incumbent starts at the explicit chain (:mod:`chain`, exact, nonnegative, so in both
  families), and a prefix whose LP reach is >= m is a candidate: its LP solution is
  rounded to short dyadic rationals and **only the exact extreme-class check decides**
  (:func:`complementbasis.decide`); a candidate that fails is counted as unresolved, never used.

Floats only propose.  The answer is deterministic for a given ``max_nodes`` (HiGHS is
deterministic on the same input); ``time_budget`` (seconds, wall clock) is a user option
that makes the answer depend on the machine's speed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from ..errors import InvalidArgument
from . import chain, complementbasis

BETA = 16
MARGIN = 1e-7  # an LP is "feasible" when its margin (rows scaled to O(1)) exceeds this
RETRY = 1e-3  # a best margin in (-RETRY, MARGIN] is re-solved with fresh scales
BOX = 1e3  # |y_j| <= BOX in the column-scaled variables (the rows are homogeneous)
BITS = (10, 16, 24, 32, 40, 53)  # significant bits tried when rounding an LP solution


# ---------------------------------------------------------------- the LP


TOP = 256  # the float binomial table covers x, j <= TOP (the LP prefixes of extension.py reach m = 256)
_PASCAL = np.array([[float(comb(x, j)) for j in range(TOP + 1)] for x in range(TOP + 1)])


@lru_cache(maxsize=4096)
def _pairs(X: int) -> tuple[np.ndarray, np.ndarray]:
    """(x, u) for 1 <= x <= X, 0 <= u <= x - 1, in order of x then u."""
    xs = np.concatenate([np.full(x, x) for x in range(1, X + 1)]) if X >= 1 else np.zeros(0, dtype=int)
    us = np.concatenate([np.arange(x) for x in range(1, X + 1)]) if X >= 1 else np.zeros(0, dtype=int)
    return xs.astype(int), us.astype(int)


def _kernel_float(g: dict[int, float], upto: int) -> np.ndarray:
    js = np.array(sorted(g), dtype=int)
    return _PASCAL[: upto + 1, js] @ np.array([g[j] for j in sorted(g)], dtype=float)


def _rows(support: tuple[int, ...], X: int, n: int, guess: dict[int, float]) -> tuple[np.ndarray, np.ndarray]:
    """(rows, scales): every extreme-class row with largest x <= X (and g_0 > 0) in the
    column-scaled variables y_j = g_j / |guess_j|, each row divided by the guess's H(x).
    Row order: g_0 > 0, then x = 1..X, u = 0..x - 1 (u = x - 1: g_0 (x - 1) - H(x) < 0)."""
    k = len(support)
    sc = np.array([abs(guess.get(j, 0.0)) or 1.0 for j in support])
    hs = np.abs(_kernel_float(guess, X))
    hs[hs == 0] = 1.0
    b = _PASCAL[: X + 1, np.array(support, dtype=int)] * sc[None, :]  # H(x) = b[x] @ y
    e0 = np.zeros(k)
    e0[0] = sc[0]
    xs, us = _pairs(X)
    rows = (xs - 1)[:, None] * e0[None, :] - b[xs] + ((n - 2) * (xs - us - 1))[:, None] * b[us]
    rows /= hs[xs][:, None]
    return np.vstack([(-e0 / hs[0])[None, :], rows]), sc


def _initial_rows(a: np.ndarray, X: int) -> np.ndarray:
    """The rows most binding at y = 1 (the guess): per block of one x, the three largest."""
    at_guess = a.sum(axis=1)
    keep = [0]
    start = 1
    for x in range(1, X + 1):
        block = at_guess[start : start + x]
        keep += list(start + np.argsort(-block, kind="stable")[:3])
        start += x
    return np.array(sorted(set(keep)))


def lp(support: tuple[int, ...], X: int, n: int, nonnegative: bool, guess: dict[int, float]):
    """Maximise the margin s over the extreme classes with largest x <= X (rows scaled by
    the guess's H(x), columns by the guess's |g_j|): (s, g) or (None, None).  Rows enter by
    cutting planes: the most binding at the guess first, then every row the solution
    violates, until none is (the answer is that of the LP over all rows)."""
    from scipy.optimize import linprog

    k = len(support)
    a, sc = _rows(support, X, n, guess)
    full = np.hstack([a, np.ones((len(a), 1))])
    c = np.zeros(k + 1)
    c[-1] = -1.0
    bounds = [((0.0 if nonnegative else -BOX), BOX)] * k + [(None, 1.0)]
    active = _initial_rows(a, X)
    for _ in range(50):
        res = linprog(c, A_ub=full[active], b_ub=np.zeros(len(active)), bounds=bounds, method="highs")
        if res.status != 0 or res.x is None:
            return None, None
        values = full @ res.x
        values[active] = 0.0
        violated = np.flatnonzero(values > 1e-9)
        if len(violated) == 0:
            break
        active = np.union1d(active, violated)
    else:
        return None, None
    y, s = res.x[:k], float(res.x[k])
    return s, {j: float(sc[i] * y[i]) for i, j in enumerate(support)}


def feasible(support, X: int, n: int, nonnegative: bool, guess: dict[int, float], stats: dict):
    """The LP at X: g or None.  A margin near 0 is re-solved once with the scales of its own
    solution (the sign of the best margin does not depend on the scales, its float value does)."""
    stats["lps"] = stats.get("lps", 0) + 1
    s, g = lp(support, X, n, nonnegative, guess)
    if s is None or s <= -RETRY:
        return None
    if s <= MARGIN:
        stats["lps"] += 1
        s, g = lp(support, X, n, nonnegative, g)
        if s is None or s <= MARGIN:
            return None
    return g


def float_reach(g: dict[int, float], n: int, limit: int) -> int:
    """The reach of a float g (floats only: a proposal for the binary search's lower end)."""
    if g.get(0, 0.0) <= 0:
        return -1
    h = _kernel_float(g, limit)
    xs, us = _pairs(limit)
    top = np.zeros(limit + 1)
    np.maximum.at(top, xs, h[us] * (xs - us - 1))
    xr = np.arange(limit + 1)
    bad = (h <= 0) | (h[0] * (xr - 1) - h + (n - 2) * top >= -1e-9 * np.abs(h))
    bad[0] = h[0] <= 0
    first = np.flatnonzero(bad)
    return int(first[0]) - 1 if len(first) else limit


def lp_reach(support, n: int, nonnegative: bool, guess: dict[int, float], lo: int, hi: int, stats: dict):
    """(reach, g): the largest X in [lo, hi] whose LP is feasible, and the LP solution there
    (lo is taken as feasible with g = guess).  The float reach r0 of the warm start is the
    lower end; the LP reach is usually r0 + a few, so the search gallops up from r0 + 1
    (steps 1, 2, 4, ...) and then bisects."""
    best = guess
    lo = max(lo, min(float_reach(guess, n, hi), hi))
    step = 1
    while lo < hi:
        X = min(lo + step, hi)
        g = feasible(support, X, n, nonnegative, best, stats)
        if g is None:
            hi = X - 1
            break
        best, lo = g, max(X, min(float_reach(g, n, hi), hi))
        step *= 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        g = feasible(support, mid, n, nonnegative, best, stats)
        if g is None:
            hi = mid - 1
        else:
            best, lo = g, max(mid, min(float_reach(g, n, hi), hi))
    return lo, best


# ---------------------------------------------------------------- bounds on the reach


def signed_reach(k: int, n: int, cap: int) -> int:
    """The float-LP reach of the full prefix [0, k] with g of any sign, capped at cap: every
    support inside [0, k] reaches no further (feasibility is monotone in the support)."""
    return _full_prefix(k, n, cap)[0]


@lru_cache(maxsize=None)
def _full_prefix(k: int, n: int, cap: int) -> tuple[int, tuple[tuple[int, float], ...]]:
    """(reach, LP solution) of the full prefix [0, k], grown from [0, k - 1]."""
    if k == 0:
        return chain.reach_bound(0, n), ((0, 1.0),)
    below, g = _full_prefix(k - 1, n, cap)
    if below >= cap:
        return cap, g
    r, best = lp_reach(tuple(range(k + 1)), n, False, _child_guess(dict(g), k), below, cap, {})
    return r, tuple(sorted(best.items()))


def reach_bounds(m: int, n: int, nonnegative: bool) -> list[int]:
    """U(k) for k = 0..m, each capped at m."""
    if nonnegative:
        return [min(chain.reach_bound(k, n), m) for k in range(m + 1)]
    out = []
    for k in range(m + 1):
        out.append(m if out and out[-1] >= m else min(signed_reach(k, n, m), m))
    return out


def cost_to_go(m: int, bounds: list[int]) -> list[int]:
    """T(j): the cheapest continuation j -> j' -> ... (j' <= U(j) + 1) ending at U >= m."""
    big = 2 ** (m + 1)
    t = [big] * (m + 2)
    for j in range(m, -1, -1):
        if bounds[j] >= m:
            t[j] = 0
        else:
            t[j] = min((comb(m, jj) + t[jj] for jj in range(j + 1, min(bounds[j] + 1, m) + 1)), default=big)
    return t


# ---------------------------------------------------------------- rounding


def dyadic(x: float, bits: int) -> Fraction:
    """x rounded to `bits` significant bits, as an exact dyadic rational."""
    if x == 0:
        return Fraction(0)
    e = int(np.floor(np.log2(abs(x)))) - bits + 1
    return Fraction(round(x / 2.0**e)) * Fraction(2) ** e


def rationalise(g: dict[int, float], m: int, n: int, stats: dict) -> complementbasis.Construction | None:
    """The first rounding (fewest significant bits, g_0 scaled to 1) that passes the exact
    extreme-class check, or None."""
    g0 = g.get(0, 0.0)
    if g0 <= 0:
        return None
    scaled = {j: v / g0 for j, v in g.items()}
    for bits in BITS:
        exact = {j: dyadic(v, bits) for j, v in scaled.items()}
        exact[0] = Fraction(1)
        found = complementbasis.decide(exact, m, n, "prefix search", stats)
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------- the search


@dataclass
class _State:
    m: int
    n: int
    nonnegative: bool
    t: list[int]
    caps: list[int]
    best: complementbasis.Construction
    nodes: int
    max_nodes: int | None
    deadline: float | None
    stats: dict
    bar: object
    stopped: str = ""

    def out_of_budget(self) -> bool:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            self.stopped = f"max_nodes = {self.max_nodes}"
        elif self.deadline is not None and time.monotonic() > self.deadline:
            self.stopped = "time_budget"
        return bool(self.stopped)


def _child_guess(g: dict[int, float], j: int) -> dict[int, float]:
    out = dict(g)
    out[j] = BETA * float(sum(v * comb(j - 1, i) for i, v in g.items()))
    return out


def _visit(st: _State, prefix: tuple[int, ...], g: dict[int, float], reach: int, c: int) -> None:
    m = st.m
    last = prefix[-1]
    order = sorted(range(last + 1, min(reach + 1, m) + 1), key=lambda j: (comb(m, j) + st.t[j], -j))
    for j in order:
        cj = comb(m, j)
        if c + cj + st.t[j] >= st.best.rank:
            continue
        if st.out_of_budget():
            return
        st.nodes += 1
        child = prefix + (j,)
        r, gj = lp_reach(child, st.n, st.nonnegative, _child_guess(g, j), j - 1, st.caps[j], st.stats)
        st.bar.update(1)
        st.bar.set_postfix_str(f"best {st.best.rank:,} ({st.best.method}); prefix {list(child)} reach {r}")
        if r < j:
            continue
        if r >= m:
            _candidate(st, child, gj)
            continue
        _visit(st, child, gj, r, c + cj)


def _candidate(st: _State, support: tuple[int, ...], g: dict[int, float]) -> None:
    found = rationalise(g, st.m, st.n, st.stats)
    if found is None:  # re-solve at m with the solution's own scales, then give up on it
        g2 = feasible(support, st.m, st.n, st.nonnegative, g, st.stats)
        found = rationalise(g2, st.m, st.n, st.stats) if g2 is not None else None
    if found is None or (st.nonnegative and not found.nonnegative):
        st.stats["unresolved"].append(list(support))
        return
    if found.rank < st.best.rank:
        st.best = found
        st.stats["found_at"] = st.nodes


def search(m: int, n: int, nonnegative: bool = False, max_nodes: int | None = None, time_budget: float | None = None, progress: bool = False) -> complementbasis.Construction:
    """The least-cost complement-basis support found by the prefix search at (m, n).

    ``nonnegative`` restricts to g >= 0 (nonnegative features).  ``max_nodes`` bounds the
    prefixes tried (the answer is deterministic for a given value); ``time_budget`` (seconds)
    stops the walk early, making the answer machine-dependent.  ``progress`` draws a tqdm
    bar on a terminal (prefixes tried, current best, reach).  Returns an
    :class:`complementbasis.Construction` (``.rank``, ``.support``, ``.g`` exact,
    ``.certificate()``), never worse than the explicit chain, decided exactly."""
    if n < 3 or not 1 <= m <= TOP:
        raise InvalidArgument(f"the prefix search is defined for n >= 3 and 1 <= m <= {TOP}")
    from ..progress import bar

    start = time.monotonic()
    incumbent = chain.explicit(m, n)
    stats = {"lps": 0, "unresolved": [], "found_at": 0}
    caps = reach_bounds(m, n, nonnegative)
    t = cost_to_go(m, caps)
    deadline = None if time_budget is None else start + time_budget
    with bar(None, f"prefix search m={m} n={n}{' g>=0' if nonnegative else ''}", unit=" prefixes") if progress else _no_bar() as b:
        st = _State(m, n, nonnegative, t, caps, incumbent, 0, max_nodes, deadline, stats, b)
        _visit(st, (0,), {0: 1.0}, chain.reach_bound(0, n), 1)
    best = st.best
    best.stats = dict(best.stats, nodes=st.nodes, found_at=stats["found_at"], lps=stats["lps"], unresolved=stats["unresolved"], complete=not st.stopped, stopped=st.stopped, seconds=round(time.monotonic() - start, 3))
    return best


class _no_bar:
    """The stand-in when progress=False (progress.bar draws nothing off a terminal either)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass
