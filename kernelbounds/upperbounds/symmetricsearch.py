"""The search for heads of the symmetry ansatz (THEORY U5, "Symmetry ansatz"; the ansatz,
its expansion and the exact decision are in symmetric.py).

For fixed key features psi = (g, h), each orbit representative q gets one LP in
(phi(q), u_q = w_q F(q, .)) over the extreme-class inputs (q, a, b^(n-2)) of generalheads
(w_q(z) >= 1, mean weight MEAN, maximise the least margin); for fixed phi, one joint LP in
(g, h, every u_q).  Alternating the two never lowers the least margin.  Floats only
propose: :func:`rationalise` rounds to rationals over fixed prime denominators and
symmetric.exact_worst decides.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .symmetric import HALF, Ansatz, Found, _ints, exact_worst

MEAN: float | None = None  # None: the only normalisation is w_q(z) >= 1, margins capped at CAP
# (homogeneous rows: a positive margin scales up to the cap); a number: also the mean weight
# of each representative query is MEAN (as in generalheads; with phi fixed in the joint LP
# that is one equality per query, which slows the alternation down)
CAP = 1.0
PHI_BOX = 1e3  # |phi_i| <= PHI_BOX: with w >= 1 alone, free phi ran off to 10^12 along directions
# where Psi phi nearly cancels, and the joint LP then stalled on those coefficients
PSI_METHOD = "highs-ipm"  # the joint LP: interior point (with crossover) is much faster than simplex here
LP_OPTIONS: dict = {}  # HiGHS defaults: tighter feasibility tolerances made it report false infeasibility


# ------------------------------------------------------------------------ the two LP steps

def _linprog(c, a_ub, b_ub, a_eq, b_eq, bounds, method: str = "highs"):
    from scipy.optimize import linprog

    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method=method, options=LP_OPTIONS)
    return res.x if res.status == 0 else None


def _phi_step(tpl, Psi: np.ndarray):
    """max mu over (phi, u, s) for one query, Psi fixed: (mu, phi, u) or (-inf, None, None)."""
    from scipy.sparse import csr_matrix, hstack, vstack

    T, r = Psi.shape
    rest = tpl.cols - T
    a_ub = vstack([hstack([csr_matrix(tpl.M[:, :T] @ Psi), tpl.M[:, T:]]), hstack([csr_matrix(-Psi), csr_matrix((T, rest))])]).tocsr()
    b_ub = np.concatenate([np.zeros(tpl.M.shape[0]), -np.ones(T)])
    a_eq = np.concatenate([Psi.sum(axis=0), np.zeros(rest)])[None, :]
    c = np.zeros(r + rest)
    c[-1] = -1.0
    bounds = [(-PHI_BOX, PHI_BOX)] * r + [(-1e6, 1e6)] * (rest - 1) + [(None, CAP if MEAN is None else 100.0)]
    x = _linprog(c, a_ub, b_ub, None if MEAN is None else a_eq, None if MEAN is None else [MEAN * T], bounds)
    return (-np.inf, None, None, None) if x is None else (x[-1], x[:r], x[r : r + T], x)


def _u_step(tpl, w: np.ndarray):
    """max mu over (u, s) for one query with its weights w fixed: (mu, u)."""
    T = len(w)
    b_ub = -(tpl.M[:, :T] @ w)
    c = np.zeros(tpl.cols - T)
    c[-1] = -1.0
    bounds = [(-1e7, 1e7)] * (tpl.cols - T - 1) + [(None, 100.0)]
    x = _linprog(c, tpl.M[:, T:], b_ub, None, None, bounds)
    return (-np.inf, None) if x is None else (x[-1], x[:T])


def _psi_step(a: Ansatz, tpls, Phi: np.ndarray, nonnegative: bool, box: float = 100.0):
    """max mu over (g, h, u_q, s_q) for every representative q, phi fixed: (mu, g, h).
    (Row generation from the current point was tried: slower, the active set moves a lot.)"""
    from scipy.sparse import csr_matrix, hstack, vstack

    T, O = 1 << a.m, a.orbits
    nfeat = T + a.t * O
    extra = [tpl.cols - T - 1 for tpl in tpls]
    offs = np.concatenate([[0], np.cumsum(extra)]).astype(int)
    nvar = nfeat + int(offs[-1]) + 1
    ub, pos, eq = [], [], []
    for q, tpl in enumerate(tpls):
        L = a.lift(Phi[q])
        rows = tpl.M.shape[0]
        ub.append(hstack([tpl.M[:, :T] @ L, csr_matrix((rows, int(offs[q]))), tpl.M[:, T : tpl.cols - 1], csr_matrix((rows, int(offs[-1] - offs[q + 1]))), tpl.M[:, tpl.cols - 1 :]]))
        pos.append(hstack([-L, csr_matrix((T, nvar - nfeat))]))
        eq.append(hstack([csr_matrix(np.ones((1, T))) @ L, csr_matrix((1, nvar - nfeat))]))
    A, P, E = vstack(ub).tocsr(), vstack(pos).tocsr(), vstack(eq).tocsr()
    c = np.zeros(nvar)
    c[-1] = -1.0
    low = 0.0 if nonnegative else -box
    bounds = [(low, box)] * nfeat + [(-1e6, 1e6)] * int(offs[-1]) + [(None, 100.0)]
    bounds[-1] = (None, CAP if MEAN is None else 100.0)
    eqs = (None, None) if MEAN is None else (E, np.full(len(tpls), MEAN * T))
    x = _linprog(c, vstack([A, P]).tocsr(), np.concatenate([np.zeros(A.shape[0]), -np.ones(P.shape[0])]), *eqs, bounds, PSI_METHOD)
    if x is None:
        return -np.inf, None, None
    return x[-1], x[:T], x[T:nfeat].reshape(a.t, O)


def margins(a: Ansatz, tpls, g: np.ndarray, h: np.ndarray):
    """(least margin over the representatives, Phi per representative, None)."""
    Psi = a.features(g, h)
    Phi, least = [], np.inf
    for tpl in tpls:
        mu, phi, _, x = _phi_step(tpl, Psi)
        if phi is None:
            return -np.inf, None, None
        least = min(least, mu)
        Phi.append(phi)
    return least, np.array(Phi), None


def improve(a: Ansatz, tpls, g, h, rounds: int, nonnegative: bool, say=None, target: float = np.inf, until: float = np.inf):
    """Alternate the phi step and the psi step while the least margin grows, until it
    reaches target or the CPU clock (time.process_time) passes until: (mu, g, h)."""
    mu, Phi, _ = margins(a, tpls, g, h)
    for _ in range(rounds):
        if Phi is None or mu >= target or time.process_time() > until:
            break
        _, g2, h2 = _psi_step(a, tpls, Phi, nonnegative)
        if g2 is None:
            break
        mu2, Phi2, _ = margins(a, tpls, g2, h2)
        if say:
            say(f"margin {mu:.3e} -> {mu2:.3e}")
        if Phi2 is None or mu2 <= mu + 1e-9 * max(1.0, abs(mu)):
            if Phi2 is not None and mu2 > mu:
                mu, g, h = mu2, g2, h2
            break
        mu, g, h, Phi = mu2, g2, h2, Phi2
    return mu, g, h


DEN = 2**31 - 1  # a prime: every rounded entry k/DEN is an integer or has denominator DEN,
FDENS = (1_000_003, 10**9 + 7, 10**12 + 39)  # primes too, so the tables' heights stay small


def rationalise(a: Ansatz, n: int, tpls, g: np.ndarray, h: np.ndarray, den: int = DEN, fdens=FDENS) -> Found | None:
    """Round g, h to multiples of 1/den; re-solve phi for the rounded psi and round it to
    1/den; with the weights now exact, re-solve u and round F = u/w to 1/fden (each fden in
    turn); the exact worst error decides.  None if no rounding passes.  The denominators are
    primes, so the certificate's rows have (almost) one distinct denominator each and the
    checker's work estimate (the product of a row's distinct denominators) stays small."""
    G = _ints(g, den)
    H = [_ints(row, den) for row in h]
    Psi = a.features(np.array(G, dtype=float) / den, np.array(H, dtype=float).reshape(a.t, a.orbits) / den)
    PsiInt = a.features(G, H)
    Phi, W = {}, {}
    for q, tpl in zip(a.reps, tpls, strict=True):
        mu, phi, _, _ = _phi_step(tpl, Psi)
        if phi is None or mu <= 0:
            return None
        Phi[q] = _ints(phi / max(1.0, float(np.abs(phi).max())) * 1.0, den)
        W[q] = [sum(x * y for x, y in zip(Phi[q], row, strict=True)) for row in PsiInt]
    U = {}
    for q, tpl in zip(a.reps, tpls, strict=True):
        w = np.array(W[q], dtype=float)
        w *= (MEAN or 1.0) * len(w) / w.sum() if MEAN else 1.0 / w.min()
        mu, u = _u_step(tpl, w)
        if u is None or mu <= 0:
            return None
        U[q] = u / w  # the readout F(q, .)
    for fden in fdens:
        Fnum = {q: _ints(U[q], fden) for q in a.reps}
        found = exact_worst(a, n, G, H, Phi, Fnum, fden)
        if found is not None and found[0] < HALF:
            return Found(a, n, den, G, H, Phi, fden, Fnum, *found)
    return None


@dataclass
class SearchResult:
    ansatz: Ansatz
    n: int
    margin: float  # the best least LP margin (floats; positive is necessary, not sufficient)
    found: Found | None
    starts: int
    seconds: float
    g: np.ndarray | None = None  # the best float state, to continue from
    h: np.ndarray | None = None


def search(a: Ansatz, n: int, starts: int = 4, seed: int = 0, rounds: int = 60, seconds: float = 300.0,
           nonnegative: bool = True, state=None, say=None) -> SearchResult:
    """Random starts of (g, h) (or the given state first), each improved by alternating
    LPs until the least margin is positive, then rationalised and decided exactly; stops at
    the first head that passes or when the time is up.  A heuristic: a head found is a
    certified upper bound; a failure proves nothing."""
    from .headsearch import _Template

    clock = time.perf_counter()
    until = time.process_time() + seconds  # CPU seconds (the machine is shared)
    rng = np.random.default_rng(seed)
    tpls = [_Template(q, a.m, n) for q in a.reps]
    best = (-np.inf, None, None)
    done = 0
    for s in range(starts):
        if time.process_time() > until:
            break
        done = s + 1
        if state is not None and s == 0:
            g, h = state
        elif nonnegative:
            g, h = 0.2 + rng.random(1 << a.m), 0.2 + rng.random((a.t, a.orbits))
        else:
            g, h = rng.standard_normal(1 << a.m), rng.standard_normal((a.t, a.orbits))
        tell = (lambda text, s=s: say(f"start {s}: {text}")) if say else None
        mu, g, h = improve(a, tpls, g, h, rounds, nonnegative, tell, target=0.0, until=until)
        if mu > best[0]:
            best = (mu, g, h)
        if mu > 0:
            found = rationalise(a, n, tpls, g, h)
            if found is not None:
                return SearchResult(a, n, float(mu), found, done, time.perf_counter() - clock, g, h)
    return SearchResult(a, n, float(best[0]), None, done, time.perf_counter() - clock, best[1], best[2])

