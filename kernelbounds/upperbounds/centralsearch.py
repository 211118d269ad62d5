"""The search for heads of the symmetry ansatz by central points and lazy token rows
(THEORY U5 "Symmetry ansatz", U7+ "Upper side at m = 8"; the ansatz, its expansion and the
exact decision are in symmetric.py).

The alternation: for fixed key features psi = (g, h) one
LP per orbit representative q in (phi(q), u_q, s_q, mu), for fixed phi one joint LP in
(g, h, every u_q, s_q, mu); maximise the least margin mu over the extreme-class inputs
(q, a, b^(n-2)) with w_q >= 1.  Two changes make it converge where a vertex version (simplex
or interior point with crossover, every token's rows; in the project's history) stalled:

* **Central points.** Each LP is solved by HiGHS's interior-point method with crossover
  switched off, so the answer is a point in the relative interior of the optimal face,
  not a vertex: the variables that the margin does not pin (most of them) sit in the
  middle of their ranges, and the next LP of the alternation starts with slack everywhere.
* **Lazy token rows.** A query's rows are indexed by tokens: with the margin mu, the slack
  variables s_t (the least lower-side and upper-side term at levels >= t) and u(q) fixed,
  the rows of a token z (as the key a at its level t_z, and as a key b at every level
  t <= t_z) bound its one free variable u(z) from below and above.  So z's rows hold for
  some u(z) iff an interval is nonempty (:func:`_interval`).  Each query carries only the
  rows of its active tokens; after each solve every other token is tested and the
  violated ones join (and the LP is solved again).  A few dozen of the 2^m tokens per
  query end up active.

Floats only propose: :func:`rationalise` rounds (to the small integers of
:data:`PSI_DIGITS` first) and symmetric.exact_worst decides every input exactly.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

import numpy as np

from ..bits import inner
from .symmetric import HALF, Ansatz, Found, exact_worst

IPM_OPTIONS = {"run_crossover": "off"}  # passed to HiGHS verbatim by scipy
CAP = 1.0  # the margin is capped (the rows are homogeneous: a positive margin scales up)
PHI_BOX = 1e3
PSI_BOX = 100.0
TOL = 1e-7  # an interval test's tolerance, relative to the weight of the token
STALL = 1e-4  # an alternation that raises the least margin by less (relative) counts as stalled; 5 in a row stop


def central_lp(c, A, b, bounds):
    """min c x subject to A x <= b and the bounds, by interior point without crossover:
    the solution vector, or None.
    HiGHS sometimes stops short of its optimality tolerance without crossover (model status
    "unknown"); then the same LP is solved with crossover (a vertex), then by the simplex.
    """
    from scipy.optimize import OptimizeWarning, linprog

    for method, options in (("highs-ipm", IPM_OPTIONS), ("highs-ipm", {}), ("highs-ds", {})):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OptimizeWarning)  # "unrecognized option" run_crossover
            res = linprog(c, A_ub=A, b_ub=b, bounds=bounds, method=method, options=options)
        if res.status == 0 and res.x is not None:
            return res.x
        if res.status == 2:  # infeasible: no other method helps
            return None
    return None


class QueryRows:
    """The extreme-class rows of one query q over the active tokens.

    Columns: w(z) for every token (T), u(z) for the active tokens, s_low(t) and s_up(t) for
    t = 0..|q| (when n > 2), mu.  With L_t(z) = 2u(z) - (2t-1) w(z) (lower side) or
    (2t+1) w(z) - 2u(z) (upper side): for every active a at level t,
    L_t(q) + L_t(a) + (n-2) s_t >= mu; for every active b and t <= level(b), s_t <= L_t(b)."""

    def __init__(self, q: int, m: int, n: int, active=()):
        self.q, self.m, self.n, self.T = q, m, n, 1 << m
        self.k = n - 2
        self.p = q.bit_count()
        self.levels = np.array([inner(q, z) for z in range(self.T)])
        self.active: list[int] = sorted(set(active) | {q})
        self.build()

    @property
    def slacks(self) -> int:
        return 2 * (self.p + 1) if self.k else 0

    def build(self) -> None:
        from scipy.sparse import csr_matrix

        T, A, k = self.T, self.active, self.k
        where = {z: i for i, z in enumerate(A)}
        nu, ns = len(A), self.slacks
        cols = T + nu + ns + 1
        data, ri, ci = [], [], []
        row = 0

        def put(c, v):
            data.append(v), ri.append(row), ci.append(c)

        for side in (0, 1):
            for t in range(self.p + 1):
                cw, cu = (2 * t - 1, -2) if side == 0 else (-(2 * t + 1), 2)  # -L_t(z) = cw w + cu u
                s_col = T + nu + side * (self.p + 1) + t
                for a in A:
                    if self.levels[a] != t:
                        continue
                    for z in (self.q, a):
                        put(z, cw), put(T + where[z], cu)
                    if k:
                        put(s_col, -k)
                    put(cols - 1, 1.0)
                    row += 1
                if k:
                    for b in A:
                        if self.levels[b] >= t:
                            put(s_col, 1.0), put(b, cw), put(T + where[b], cu)
                            row += 1
        self.M = csr_matrix((data, (ri, ci)), shape=(row, cols))
        self.cols = cols

    def split(self):
        """(M restricted to the w columns, M on the other columns)."""
        return self.M[:, : self.T], self.M[:, self.T :]

    def violated(self, w: np.ndarray, u_q: float, s: np.ndarray, mu: float) -> tuple[list[int], np.ndarray]:
        """The inactive tokens whose rows no u(z) satisfies (given w, u(q), s, mu), and a
        readout numerator u for every token (the LP's value when active, the middle of the
        interval otherwise, its nearer end when it is empty)."""
        low, high = _interval(w, self.levels, self.q, u_q, s, mu, self.p, self.k)
        u = (low + high) / 2
        bad = np.flatnonzero(low - high > TOL * np.maximum(1.0, np.abs(w)))
        act = set(self.active)
        return [int(z) for z in bad if int(z) not in act], u


def _interval(w, levels, q, u_q, s, mu, p, k):
    """Per token z, the bounds low(z) <= u(z) <= high(z) that its rows put on u(z), the
    other variables fixed (w the weights of every token; u(q) from the LP)."""
    T = len(w)
    t0 = levels
    wq = w[q]
    if k:
        s_low, s_up = s[: p + 1], s[p + 1 :]
    else:
        s_low = s_up = np.zeros(p + 1)
    Lq_low = 2 * u_q - (2 * t0 - 1) * wq  # L_t(q) at t = t0 (the key's own level)
    Lq_up = (2 * t0 + 1) * wq - 2 * u_q
    low = (mu - Lq_low - k * s_low[t0] + (2 * t0 - 1) * w) / 2
    high = ((2 * t0 + 1) * w + Lq_up + k * s_up[t0] - mu) / 2
    if k:
        for t in range(p + 1):
            on = levels >= t
            low = np.where(on, np.maximum(low, (s_low[t] + (2 * t - 1) * w) / 2), low)
            high = np.where(on, np.minimum(high, ((2 * t + 1) * w - s_up[t]) / 2), high)
    assert len(low) == T
    return low, high


# ------------------------------------------------------------------------ the two LP steps

def phi_step(rows: QueryRows, Psi: np.ndarray, rounds: int = 30):
    """max mu over (phi, u, s) for one query, Psi fixed, adding violated tokens until none
    is left: (mu, phi, u for every token) or (-inf, None, None)."""
    from scipy.sparse import csr_matrix, hstack, vstack

    T, r = Psi.shape
    for _ in range(rounds):
        Mw, Mo = rows.split()
        rest = Mo.shape[1]
        A = vstack([hstack([csr_matrix(Mw @ Psi), Mo]), hstack([csr_matrix(-Psi), csr_matrix((T, rest))])]).tocsr()
        b = np.concatenate([np.zeros(rows.M.shape[0]), -np.ones(T)])
        c = np.zeros(r + rest)
        c[-1] = -1.0
        nu = len(rows.active)
        bounds = [(-PHI_BOX, PHI_BOX)] * r + [(None, None)] * (nu + rows.slacks) + [(None, CAP)]
        x = central_lp(c, A, b, bounds)
        if x is None:
            return -np.inf, None, None
        phi, mu = x[:r], x[-1]
        w = Psi @ phi
        u_act = x[r : r + nu]
        s = x[r + nu : r + nu + rows.slacks]
        new, u = rows.violated(w, u_act[rows.active.index(rows.q)], s, mu)
        u[rows.active] = u_act
        if not new:
            return mu, phi, u
        rows.active = sorted(set(rows.active) | set(new))
        rows.build()
    return mu, phi, u


class Lift:
    """w_q = lift(phi_q) @ [g; vec(h)] as a sparse matrix, from index arrays built once."""

    def __init__(self, a: Ansatz):
        T, k, O = 1 << a.m, a.k, a.orbits
        cols = np.zeros((T, a.rank), dtype=np.int64)
        for i in range(k):
            cols[:, i] = a.back[i]
        for j in range(a.t):
            cols[:, k + j] = T + j * O + np.array(a.orbit_of)
        self.cols, self.T, self.nfeat = cols, T, T + a.t * O

    def __call__(self, phi_q: np.ndarray):
        from scipy.sparse import csr_matrix

        T, r = self.cols.shape
        rows = np.repeat(np.arange(T), r)
        return csr_matrix((np.tile(phi_q, T), (rows, self.cols.ravel())), shape=(T, self.nfeat))


def psi_step(a: Ansatz, lift: Lift, all_rows: list[QueryRows], Phi: np.ndarray, nonnegative: bool, rounds: int = 30):
    """max mu over (g, h, u_q, s_q) for every representative, phi fixed, adding violated
    tokens until none is left: (mu, g, h) or (-inf, None, None)."""
    from scipy.sparse import csr_matrix, hstack, vstack

    T, nfeat = 1 << a.m, lift.nfeat
    L = [lift(Phi[i]) for i in range(len(all_rows))]
    for _ in range(rounds):
        extra = [rows.cols - T - 1 for rows in all_rows]
        offs = np.concatenate([[0], np.cumsum(extra)]).astype(int)
        nvar = nfeat + int(offs[-1]) + 1
        ub, pos = [], []
        for i, rows in enumerate(all_rows):
            nr = rows.M.shape[0]
            Mw, Mo = rows.split()
            ub.append(hstack([Mw @ L[i], csr_matrix((nr, int(offs[i]))), Mo[:, :-1], csr_matrix((nr, int(offs[-1] - offs[i + 1]))), Mo[:, -1:]]))
            pos.append(hstack([-L[i], csr_matrix((T, nvar - nfeat))]))
        A = vstack(ub + pos).tocsr()
        b = np.concatenate([np.zeros(sum(rows.M.shape[0] for rows in all_rows)), -np.ones(T * len(all_rows))])
        c = np.zeros(nvar)
        c[-1] = -1.0
        bounds = [(0.0 if nonnegative else -PSI_BOX, PSI_BOX)] * nfeat + [(None, None)] * int(offs[-1]) + [(None, CAP)]
        x = central_lp(c, A, b, bounds)
        if x is None:
            return -np.inf, None, None
        feat, mu = x[:nfeat], x[-1]
        grew = False
        for i, rows in enumerate(all_rows):
            w = L[i] @ feat
            block = x[nfeat + offs[i] : nfeat + offs[i + 1]]
            nu = len(rows.active)
            new, _ = rows.violated(w, block[rows.active.index(rows.q)], block[nu:], mu)
            if new:
                rows.active = sorted(set(rows.active) | set(new))
                rows.build()
                grew = True
        if not grew:
            return mu, feat[:T], feat[T:].reshape(a.t, a.orbits)
    return mu, feat[:T], feat[T:].reshape(a.t, a.orbits)


def margins(a: Ansatz, all_rows: list[QueryRows], g, h, deadline: float = np.inf, clock=time.monotonic):
    """(least margin, Phi per representative) of the phi steps for psi = (g, h);
    (-inf, None) when the clock passes the deadline first."""
    Psi = a.features(np.asarray(g, dtype=float), np.asarray(h, dtype=float).reshape(a.t, a.orbits))
    Phi, least = [], np.inf
    for rows in all_rows:
        if clock() > deadline:
            return -np.inf, None
        mu, phi, _ = phi_step(rows, Psi)
        if phi is None:
            return -np.inf, None
        least = min(least, mu)
        Phi.append(phi)
    return least, np.array(Phi)


# ----------------------------------------------------------------------------- the search

@dataclass
class Progress:
    """One line of progress: the permutation, the iteration, the least margin, time left."""

    permutation: str
    iteration: int
    margin: float
    best: float
    active: int  # active tokens, summed over the representatives
    seconds_left: float

    def line(self) -> str:
        return (f"pi = {self.permutation}: iteration {self.iteration}, margin {self.margin:.3e} (best {self.best:.3e}), "
                f"{self.active} active token rows, {self.seconds_left:.0f} s left")


@dataclass
class CentralResult:
    ansatz: Ansatz
    n: int
    margin: float  # the best least LP margin (floats; positive is necessary, not sufficient)
    found: Found | None
    iterations: int
    seconds: float
    timed_out: bool
    g: np.ndarray | None = None
    h: np.ndarray | None = None


PSI_DIGITS = (3, 4, 5, 6, 9)  # psi rounded to integers of at most this many digits (the first that passes)
PHI_DIGITS = (4, 6, 9)  # phi(q) rounded to integers of this many digits (its scale cancels per query)
FDENS = (1009, 100_003, 10**9 + 7)  # the readout rows over one prime each


def _rounded(x: np.ndarray, digits: int) -> list[int]:
    top = float(np.abs(x).max()) if x.size else 0.0
    scale = 10**digits / top if top > 0 else 1.0
    return [int(v) for v in np.rint(x * scale)]


def readout_step(rows: QueryRows, w: np.ndarray):
    """The readout numerators u of one query for fixed weights w (every token's rows): the
    largest least margin, at a central point of the optimal face (uncapped: the margin is
    what the rounding of F = u / w must not use up).  (mu, u) or (-inf, None)."""
    T = rows.T
    Mw, Mo = rows.split()
    top = float(np.abs(w).max())
    bounds = [(-(rows.m + 2) * top, (rows.m + 2) * top)] * T + [(None, None)] * rows.slacks + [(None, 10 * top)]
    c = np.zeros(Mo.shape[1])
    c[-1] = -1.0
    x = central_lp(c, Mo.tocsr(), -(Mw @ w), bounds)
    return (-np.inf, None) if x is None else (x[-1], x[:T])


def rationalise(a: Ansatz, n: int, all_rows: list[QueryRows], g: np.ndarray, h: np.ndarray) -> Found | None:
    """Integer tables near the float head, smallest first: psi = (g, h) rounded to integers
    of PSI_DIGITS digits; per representative phi re-solved for that psi and rounded to
    integers of PHI_DIGITS digits (its scale cancels); with the weights now exact integers,
    the readout re-solved (central point, every token's rows) and F = u / w rounded to
    1/fden.  symmetric.exact_worst decides every input exactly; None if nothing passes."""
    T = 1 << a.m
    full = [QueryRows(rows.q, a.m, n, range(T)) for rows in all_rows]
    feat = np.concatenate([np.asarray(g, dtype=float), np.asarray(h, dtype=float).ravel()])
    for digits in PSI_DIGITS:
        ints = _rounded(feat, digits)
        G, H = ints[:T], [ints[T + j * a.orbits : T + (j + 1) * a.orbits] for j in range(a.t)]
        PsiInt = np.array(a.features(G, H), dtype=object).reshape(T, a.rank)
        Psi = PsiInt.astype(float)
        phis = []
        for rows in all_rows:
            mu, phi, _ = phi_step(rows, Psi)
            if phi is None or mu <= 0:
                break
            phis.append(phi)
        if len(phis) < len(all_rows):
            continue
        for pdigits in PHI_DIGITS:
            Phi, U = {}, {}
            for rows, frows, phi in zip(all_rows, full, phis, strict=True):
                Phi[rows.q] = _rounded(phi, pdigits)
                W = PsiInt @ np.array(Phi[rows.q], dtype=object)
                if min(W) < 1:
                    break
                mu, u = readout_step(frows, W.astype(float))
                if u is None or mu <= 0:
                    break
                U[rows.q] = u / W.astype(float)
            if len(U) < len(all_rows):
                continue
            for fden in FDENS:
                Fnum = {q: [int(v) for v in np.rint(F * fden)] for q, F in U.items()}
                found = exact_worst(a, n, G, H, Phi, Fnum, fden)
                if found is not None and found[0] < HALF:
                    return Found(a, n, 1, G, H, Phi, fden, Fnum, *found)
    return None


def search(a: Ansatz, n: int, seconds: float = 900.0, seed: int = 0, nonnegative: bool = True, iterations: int = 400,
           state=None, report=None, settle: int = 3, clock=time.monotonic) -> CentralResult:
    """Alternate the central phi steps and psi steps from a random start (or the given
    (g, h)) until the least margin is positive and stays so for `settle` more iterations
    (room for rounding), then rationalise and decide exactly; stop when the time (wall
    clock) is up or the margin stops growing.  report(Progress) after every iteration.
    A heuristic: a head found is certified; a failure proves nothing."""
    from .symmetric import show_cycles

    start = clock()
    until = start + seconds
    rng = np.random.default_rng(seed)
    shown = show_cycles(a.pi)
    init = [sorted({q} | set(rng.choice(1 << a.m, size=min(8, 1 << a.m), replace=False).tolist())) for q in a.reps]
    all_rows = [QueryRows(q, a.m, n, act) for q, act in zip(a.reps, init, strict=True)]
    lift = Lift(a)
    if state is not None:
        g, h = state
    elif nonnegative:
        g, h = 0.2 + rng.random(1 << a.m), 0.2 + rng.random((a.t, a.orbits))
    else:
        g, h = rng.standard_normal(1 << a.m), rng.standard_normal((a.t, a.orbits))
    mu, Phi = margins(a, all_rows, g, h, until, clock)
    best, positive, stale = mu, 0, 0
    it = 0
    timed_out = clock() > until
    if report and Phi is not None:
        report(Progress(shown, 0, mu, best, sum(len(r.active) for r in all_rows), max(0.0, until - clock())))
    while it < iterations:
        if Phi is None:
            break
        if clock() > until:
            timed_out = True
            break
        it += 1
        _, g2, h2 = psi_step(a, lift, all_rows, Phi, nonnegative)
        if g2 is None:
            break
        mu2, Phi2 = margins(a, all_rows, g2, h2, until, clock)
        if Phi2 is None and clock() > until:
            timed_out = True
            break
        if Phi2 is not None and mu2 > mu:
            stale = 0 if mu2 > mu + STALL * max(1.0, abs(mu)) else stale + 1
            mu, g, h, Phi = mu2, g2, h2, Phi2
        else:
            stale += 1
        best = max(best, mu)
        if report:
            report(Progress(shown, it, mu, best, sum(len(r.active) for r in all_rows), max(0.0, until - clock())))
        positive = positive + 1 if mu > 0 else 0
        if mu >= CAP * (1 - 1e-6) or positive > settle or (positive and stale >= 2):
            break
        if stale >= 5:
            break
    found = rationalise(a, n, all_rows, g, h) if mu > 0 else None
    return CentralResult(a, n, float(best), found, it, clock() - start, timed_out and found is None, g, h)


def exact(found: Found) -> bool:
    """The found head's tables decide exactly (a guard for callers that rebuild them)."""
    a = found.ansatz
    out = exact_worst(a, found.n, found.G, found.H, found.Phi, found.Fnum, found.fden)
    return out is not None and out[0] < HALF
