"""General heads with key features equivariant under a coordinate permutation (THEORY U5,
"Symmetry ansatz").

Let pi be a permutation of the m coordinates, acting on tokens by moving bit i to bit pi(i)
(:func:`act`), of order k.  The key features are

    psi(z)_i = g(pi^(-i) z)   (0 <= i < k),      psi(z)_(k+j) = h_j(orbit of z)   (0 <= j < t),

for a table g on all tokens and t tables h_j on the pi-orbits of tokens; rank r = k + t.  Then
psi(pi z) is psi(z) with its first k coordinates shifted cyclically by one
(psi(pi z)_i = g(pi^(-(i-1)) z) = psi(z)_(i-1)) and the last t unchanged.  Since
<pi q, pi z> = <q, z>, a query q's problem transports along its orbit: with
phi(pi^j q) = phi(q) shifted by j (the same shift) and F(pi^j q, z) = F(q, pi^(-j) z),
w_(pi^j q)(z) = w_q(pi^(-j) z) and every input scored at pi^j q is the image of one scored
at q with the same target and output.  So one LP per pi-orbit of queries (phi, u for fixed
psi) and one LP in (g, h, u) for fixed phi alternate (each never lowers the least margin).
Kernel positivity is normalised as w >= 1 (the constraints are homogeneous; a mean weight
fixes the scale of the margin, as in generalheads).

Floats only propose.  The head is rationalised (g, h, phi over one fixed denominator, F per
query row over another, so the tables' heights stay small), expanded to full tables
(:func:`expand`: phi, psi, F for every token) and decided exactly: the exact worst error over
every input is computed on the orbit representatives (the rest follow by transport) by the
level-min reduction of THEORY U5 (generalheads, "Extremal inputs").  The certificate is an
ordinary explicit-head certificate; it never mentions the ansatz.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from pathlib import Path

import numpy as np

from . import generalheads as gh

HALF = Fraction(1, 2)
MEAN = 10.0  # LP scale: w_q(z) >= 1 and the mean weight of each representative query is MEAN
PSI_METHOD = "highs-ipm"  # the joint LP: interior point (with crossover) is much faster than simplex here
LP_OPTIONS: dict = {}  # HiGHS defaults: tighter feasibility tolerances made it report false infeasibility


# ------------------------------------------------------------------ permutations of bits

def act(pi: tuple[int, ...], z: int) -> int:
    """The token pi z: bit i of z moves to bit pi[i]."""
    out = 0
    for i, target in enumerate(pi):
        if (z >> i) & 1:
            out |= 1 << target
    return out


def compose(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation a after b (act(compose(a, b), z) = act(a, act(b, z)))."""
    return tuple(a[b[i]] for i in range(len(b)))


def inverse(pi: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * len(pi)
    for i, target in enumerate(pi):
        out[target] = i
    return tuple(out)


def order(pi: tuple[int, ...]) -> int:
    k, p, ident = 1, tuple(pi), tuple(range(len(pi)))
    while p != ident:
        p, k = compose(pi, p), k + 1
    return k


def from_cycles(m: int, cycles: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The permutation of range(m) with the given cycles (c[0] -> c[1] -> ... -> c[0])."""
    pi = list(range(m))
    for c in cycles:
        for a, b in zip(c, c[1:] + c[:1]):
            pi[a] = b
    return tuple(pi)


def cycle_type(parts: tuple[int, ...], m: int) -> tuple[int, ...]:
    """One permutation of the cycle type `parts` (cycle lengths >= 2; the rest fixed):
    consecutive coordinates per cycle, longest first."""
    cycles, start = [], 0
    for length in sorted(parts, reverse=True):
        cycles.append(tuple(range(start, start + length)))
        start += length
    if start > m:
        raise ValueError("the cycles need more than m coordinates")
    return from_cycles(m, cycles)


def cycle_types(m: int, max_order: int) -> list[tuple[int, ...]]:
    """Every cycle type of S_m (its cycle lengths >= 2, non-increasing) whose order (the lcm)
    is at most max_order, the identity () included."""
    out = []

    def grow(parts: tuple[int, ...], left: int, largest: int) -> None:
        k = 1
        for p in parts:
            k = k * p // gcd(k, p)
        if k > max_order:
            return
        out.append(parts)
        for p in range(min(largest, left), 1, -1):
            grow(parts + (p,), left - p, p)

    grow((), m, m)
    return sorted(out, key=lambda p: (len(p) and max(p), p))


# ---------------------------------------------------------------------------- the ansatz

@dataclass
class Ansatz:
    """pi (a tuple: coordinate i -> pi[i]) and t orbit-invariant coordinates on m bits."""

    m: int
    pi: tuple[int, ...]
    t: int
    k: int = field(init=False)
    orbit_of: list[int] = field(init=False)  # token -> index of its pi-orbit
    reps: list[int] = field(init=False)  # least token of each orbit (the orbit's index order)
    place: list[tuple[int, int]] = field(init=False)  # token x -> (rep, j) with x = pi^j rep
    back: list[list[int]] = field(init=False)  # back[j][z] = pi^(-j) z, j < k

    def __post_init__(self):
        T = 1 << self.m
        self.pi = tuple(self.pi)
        self.k = order(self.pi)
        self.orbit_of, self.reps, self.place = [-1] * T, [], [(0, 0)] * T
        for z in range(T):
            if self.orbit_of[z] >= 0:
                continue
            x, j = z, 0
            while self.orbit_of[x] < 0:
                self.orbit_of[x], self.place[x] = len(self.reps), (z, j)
                x, j = act(self.pi, x), j + 1
            self.reps.append(z)
        inv = inverse(self.pi)
        self.back = [list(range(T))]
        for _ in range(1, self.k):
            self.back.append([act(inv, z) for z in self.back[-1]])

    @property
    def rank(self) -> int:
        return self.k + self.t

    @property
    def orbits(self) -> int:
        return len(self.reps)

    def features(self, g, h):
        """psi(z) for every token (rows), from g (a value per token) and h (t rows of a value
        per orbit); numpy arrays in, numpy out, or sequences of Fractions in, tuples out."""
        T, k = 1 << self.m, self.k
        rows = [[g[self.back[i][z]] for i in range(k)] + [h[j][self.orbit_of[z]] for j in range(self.t)] for z in range(T)]
        if isinstance(g, np.ndarray):
            return np.array(rows, dtype=float).reshape(T, self.rank)
        return tuple(tuple(row) for row in rows)

    def shifted(self, vec, j: int):
        """vec with its first k coordinates moved cyclically by j (index i <- i - j)."""
        k = self.k
        return tuple(vec[(i - j) % k] for i in range(k)) + tuple(vec[k:])

    def lift(self, phi_q: np.ndarray):
        """The sparse matrix L with w_q = L @ [g; vec(h)] for a query with features phi_q."""
        from scipy.sparse import csr_matrix

        T, k, O = 1 << self.m, self.k, self.orbits
        data, rows, cols = [], [], []
        for z in range(T):
            for i in range(k):
                data.append(phi_q[i]), rows.append(z), cols.append(self.back[i][z])
            for j in range(self.t):
                data.append(phi_q[k + j]), rows.append(z), cols.append(T + j * O + self.orbit_of[z])
        return csr_matrix((data, (rows, cols)), shape=(T, T + self.t * O))


def expand(a: Ansatz, n: int, g, h, phi_rep: dict[int, tuple], F_rep: dict[int, tuple]) -> gh.ExplicitHead:
    """The full tables: psi from (g, h); phi(pi^j q) = phi(q) shifted by j and
    F(pi^j q, z) = F(q, pi^(-j) z) for each orbit representative q."""
    T = 1 << a.m
    phi, F = [], []
    for x in range(T):
        rep, j = a.place[x]
        phi.append(a.shifted(phi_rep[rep], j))
        row, back = F_rep[rep], a.back[j]
        F.append(tuple(row[back[z]] for z in range(T)))
    return gh.ExplicitHead(a.m, n, tuple(phi), a.features(g, h), tuple(F))


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
    bounds = [(None, None)] * r + [(-1e6, 1e6)] * (rest - 1) + [(None, 100.0)]
    x = _linprog(c, a_ub, b_ub, a_eq, [MEAN * T], bounds)
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
    x = _linprog(c, vstack([A, P]).tocsr(), np.concatenate([np.zeros(A.shape[0]), -np.ones(P.shape[0])]), E, np.full(len(tpls), MEAN * T), bounds, PSI_METHOD)
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


# ---------------------------------------------------------------- rationals, exact decision

def _ints(values, den: int) -> list[int]:
    return [int(round(float(x) * den)) for x in values]


def exact_worst(a: Ansatz, n: int, G: list[int], H: list[list[int]], Phi: dict[int, list[int]], Fnum: dict[int, list[int]], fden: int):
    """The exact worst error over every input and position of the expanded head whose tables
    are g = G/D, h = H/D, phi(q) = Phi[q]/D (q a representative; D cancels per query) and
    F(q, z) = Fnum[q][z]/fden; with an input attaining it.  None when some kernel value is
    < 0 or some denominator is not > 0.  By transport only the representatives are evaluated,
    each by the level-min reduction (per least level t, the worst input is (q, a, b^(n-2)))."""
    T, k = 1 << a.m, n - 2
    Psi = a.features(G, H)
    worst, witness = Fraction(-1), None
    for q in a.reps:
        W = [sum(x * y for x, y in zip(Phi[q], Psi[z])) for z in range(T)]
        if min(W) < 0:
            return None
        U = [w * f for w, f in zip(W, Fnum[q])]
        W = [w * fden for w in W]
        levels = [(q & z).bit_count() for z in range(T)]
        for t in range(q.bit_count() + 1):
            at = [z for z in range(T) if levels[z] == t]
            above = [z for z in range(T) if levels[z] >= t]
            if W[q] + min(W[z] for z in at) + k * min(W[z] for z in above) <= 0:
                return None
            first, rest = [(U[z], W[z]) for z in at], [(U[z], W[z]) for z in above]
            for sign in (1, -1):
                lam, i, j = gh._dinkelbach(U[q], W[q], first, rest, k, sign)
                err = sign * (lam - t)
                if err > worst:
                    worst, witness = err, (q, tuple(sorted((at[i],) + (above[j],) * k)))
    return worst, witness


@dataclass
class Found:
    """A head of the ansatz with rational tables (over the fixed denominators) and its exact
    worst error over every input (computed, not claimed)."""

    ansatz: Ansatz
    n: int
    den: int
    G: list[int]
    H: list[list[int]]
    Phi: dict[int, list[int]]
    fden: int
    Fnum: dict[int, list[int]]
    worst_error: Fraction
    witness: tuple[int, tuple[int, ...]]

    def head(self) -> gh.ExplicitHead:
        D, a = self.den, self.ansatz
        g = [Fraction(x, D) for x in self.G]
        h = [[Fraction(x, D) for x in row] for row in self.H]
        phi = {q: tuple(Fraction(x, D) for x in row) for q, row in self.Phi.items()}
        F = {q: tuple(Fraction(x, self.fden) for x in row) for q, row in self.Fnum.items()}
        return expand(a, self.n, g, h, phi, F)

    def certificate(self) -> dict:
        return gh.document(self.head(), self.worst_error, self.witness)


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
    for q, tpl in zip(a.reps, tpls):
        mu, phi, _, _ = _phi_step(tpl, Psi)
        if phi is None or mu <= 0:
            return None
        Phi[q] = _ints(phi / max(1.0, float(np.abs(phi).max())) * 1.0, den)
        W[q] = [sum(x * y for x, y in zip(Phi[q], row)) for row in PsiInt]
    U = {}
    for q, tpl in zip(a.reps, tpls):
        w = np.array(W[q], dtype=float)
        w *= MEAN * len(w) / w.sum()
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
    from .generalheads import _Template

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


# ------------------------------------------------------------ stored heads (generator data)

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "heads" / "symmetric"


def to_data(found: Found) -> dict:
    """The found head as generator data: pi, t, and the integer numerators of g, h, phi (one
    row per orbit representative, in the order of Ansatz.reps) over den and F over fden."""
    a = found.ansatz
    return {
        "m": a.m, "n": found.n, "pi": list(a.pi), "t": a.t, "den": found.den, "fden": found.fden,
        "g": found.G, "h": found.H,
        "phi": [found.Phi[q] for q in a.reps], "readout": [found.Fnum[q] for q in a.reps],
    }


def from_data(doc: dict) -> Found:
    """Inverse of to_data; the worst error is recomputed exactly (ValueError if >= 1/2)."""
    a = Ansatz(doc["m"], tuple(doc["pi"]), doc["t"])
    Phi = dict(zip(a.reps, doc["phi"]))
    Fnum = dict(zip(a.reps, doc["readout"]))
    found = exact_worst(a, doc["n"], doc["g"], doc["h"], Phi, Fnum, doc["fden"])
    if found is None or found[0] >= HALF:
        raise ValueError("the stored head does not solve length n")
    return Found(a, doc["n"], doc["den"], doc["g"], doc["h"], Phi, doc["fden"], Fnum, *found)


def filename(m: int, n: int, r: int) -> str:
    return f"m{m:02d}-n{n}-r{r}.json"


def stored() -> list[tuple[int, int, int, Path]]:
    """(m, n, rank, path) of every stored head of the ansatz, sorted."""
    import re

    out = []
    for path in DATA_DIR.glob("m*-n*-r*.json"):
        hit = re.fullmatch(r"m(\d+)-n(\d+)-r(\d+)\.json", path.name)
        if hit:
            out.append((*map(int, hit.groups()), path))
    return sorted(out)


def certificate_from_file(path: Path) -> dict:
    """The explicit-head certificate of a stored head (fully expanded tables)."""
    import json

    return from_data(json.loads(Path(path).read_text())).certificate()
