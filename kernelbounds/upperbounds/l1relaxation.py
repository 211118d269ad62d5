"""Heads by the L1 relaxation (THEORY U5, "Heads by the L1 relaxation (fast, independent of
symmetry)"), at n = 3.

Every lower-bound argument uses only L1's inequalities on the kernel, so the search starts
there and lets the exact check decide the rest:

1. **Kernel** (:func:`kernel_search`): a gradient search (Adam, numpy, deterministic per seed)
   over phi, psi in R^(2^m x r) for a kernel K = phi psi^T > 0 meeting L1 at n = 3 in the
   D-form, with D_q(z) = K(q,q) + 2 K(q,z):

       D_q(a) > (d - 1) D_q(b)   whenever <q,b> - <q,a> = d >= 2,

   with a margin: log D_q(a) - log D_q(b) - log(d - 1) >= gamma, by a hinge loss on each
   row's soft per-level minima and maxima of log D, plus a hinge keeping every K(q,z) above
   a fraction of its row's largest value.
2. **Integers** (:func:`integer_features`): phi and psi scaled and rounded to integers
   (at most :data:`INT_TOP` in absolute value); the kernel is then an integer matrix.
3. **Readout** (:func:`readout`): per query one LP over the readout numerators u = K F
   (free readout; the extreme-class rows of :class:`.centralsearch.QueryRows`, lazy token
   rows), maximising the least margin, at a central point (HiGHS interior point, no
   crossover); F = u / K rounded to multiples of 1/fden.
4. **Exact decision**: the integer tables become an :class:`.generalheads.ExplicitHead` and
   the level-min engine (:func:`.generalheads.worst_error`) computes the exact worst error
   over every input; the head counts only if it is < 1/2 (the checker decides again).

Floats propose, exact arithmetic decides: a search that finds nothing proves nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..errors import InvalidArgument
from .generalheads import pack, unpack

HALF = Fraction(1, 2)
INT_TOP = 30_000  # |phi|, |psi| entries after rounding (THEORY: 30,000 suffices)
FDENS = (1009, 100_003, 1_048_573, 10**9 + 7)  # the readout over one prime denominator, the first that passes


def levels_matrix(m: int) -> np.ndarray:
    """L[q, z] = <q, z> for every pair of m-bit tokens (int8)."""
    T = 1 << m
    z = np.arange(T, dtype=np.int64)
    x = z[:, None] & z[None, :]
    out = np.zeros((T, T), dtype=np.int8)
    for i in range(m):
        out += ((x >> i) & 1).astype(np.int8)
    return out


# --------------------------------------------------------------------------- 1. the kernel

@dataclass
class KernelState:
    """A float kernel search's state and its outcome."""

    m: int
    rank: int
    seed: int
    phi: np.ndarray
    psi: np.ndarray
    steps: int = 0
    slack: float = -np.inf  # least log-margin of L1 over every row (>= gamma: met with margin)
    history: list[tuple[int, float, float]] = field(default_factory=list)  # (step, loss, slack)


class _Layout:
    """The rows' tokens permuted so that each level is one contiguous segment of the
    flattened (rows x T) array: each per-level reduction is then one ufunc.reduceat pass."""

    def __init__(self, L: np.ndarray, rows: np.ndarray):
        R, T = L.shape
        self.rows, self.R = rows, R
        self.perm = np.argsort(L, axis=1, kind="stable")
        flat = np.take_along_axis(L, self.perm, 1).ravel()
        new = np.ones(R * T, dtype=bool)
        new[1:] = (flat[1:] != flat[:-1]) | (np.arange(1, R * T) % T == 0)
        self.starts = np.flatnonzero(new)
        self.seg_of = np.cumsum(new) - 1  # element -> segment
        self.seg_q = self.starts // T  # segment -> row (local index)
        self.seg_l = flat[self.starts]  # segment -> level


class L1Loss:
    """The hinge loss of L1 (D-form, n = 3) and kernel positivity, with its gradient in
    (phi, psi).  Per row q and level l, soft minima and maxima (temperature tau, in log
    units) of log D_q over the tokens at level l stand for the per-level extremes; the loss
    is sum_q sum_(l' >= l + 2) max(0, gamma + log(l' - l - 1) + softmax_(l') - softmin_l)
    plus weight * sum max(0, delta - K(q, z) / max_z |K(q, z)|).  D is floored at the
    positivity threshold delta * max_z |K(q, z)| before its logarithm, and the floored
    entries carry no gradient of the L1 terms (their derivative is zero): a floor far below
    it (formerly 10^-12) made a D <= 0 give a hinge of about 27 per level pair and a gradient
    of 10^12 / max |K| that swamped Adam's second moments of psi, so starts with some
    K <= 0 stalled or diverged (docs/exact-small.md section 3c).  Called with a subset of
    the rows, it is the same sum over those rows (the gradient in phi is zero elsewhere)."""

    def __init__(self, m: int, gamma: float, tau: float, delta: float, weight: float = 100.0):
        self.m, self.T, self.weight = m, 1 << m, weight
        self.gamma, self.tau, self.delta = gamma, tau, delta
        self.L = levels_matrix(m).astype(np.int64)
        self.full = _Layout(self.L, np.arange(self.T))
        self._last = self.full
        lv = np.arange(m + 1)
        gap = lv[None, :] - lv[:, None]  # gap[a, b] = b - a
        self.pair = gap >= 2
        self.logc = np.where(self.pair, np.log(np.maximum(gap - 1, 1)), 0.0)

    def layout(self, rows: np.ndarray | None) -> _Layout:
        if rows is None:
            return self.full
        if not np.array_equal(self._last.rows, rows):
            self._last = _Layout(self.L[rows], rows)
        return self._last

    def _grid(self, lay: _Layout, seg_values: np.ndarray, fill: float) -> np.ndarray:
        out = np.full((lay.R, self.m + 1), fill)
        out[lay.seg_q, lay.seg_l] = seg_values
        return out

    def _soft(self, lay: _Layout, Xs: np.ndarray, sign: float):
        """Per segment the soft max (sign = +1) or min (sign = -1) of the flattened Xs, and
        each element's softmax weight within its segment."""
        red = np.maximum if sign > 0 else np.minimum
        top = red.reduceat(Xs, lay.starts)
        E = np.exp(sign * (Xs - top[lay.seg_of]) / self.tau)
        tot = np.add.reduceat(E, lay.starts)
        return top + sign * self.tau * np.log(tot), E / tot[lay.seg_of]

    def slack(self, K: np.ndarray) -> float:
        """The least L1 log-margin min log D(a) - log D(b) - log(d-1) over all rows and level
        pairs (hard extremes, floats); -inf if some K <= 0."""
        if (K <= 0).any():
            return -np.inf
        lay, diag = self.full, np.arange(self.T)
        X = np.log(K[diag, diag][:, None] + 2 * K)
        Xs = np.take_along_axis(X, lay.perm, 1).ravel()
        lo = self._grid(lay, np.minimum.reduceat(Xs, lay.starts), np.inf)
        hi = self._grid(lay, np.maximum.reduceat(Xs, lay.starts), -np.inf)
        H = lo[:, :, None] - hi[:, None, :] - self.logc[None]
        H = np.where(self.pair[None] & np.isfinite(H), H, np.inf)
        return float(H.min())

    def __call__(self, P: np.ndarray, S: np.ndarray, rows: np.ndarray | None = None):
        """(loss, d/dphi, d/dpsi, the kernel rows, the loss per row) over the given rows
        (every row by default)."""
        lay = self.layout(rows)
        Pr = P if rows is None else P[rows]
        K = Pr @ S.T
        R, T = K.shape
        own = np.arange(R), lay.rows
        kq = K[own]
        scale = np.abs(K).max(axis=1, keepdims=True) + 1e-300
        pos = self.delta - K / scale
        gK = np.where(pos > 0, -self.weight / scale, 0.0)
        per_row = self.weight * np.clip(pos, 0, None).sum(axis=1)
        D = kq[:, None] + 2 * K
        floor = self.delta * scale  # below it the positivity hinge alone moves an entry
        Dpos = np.maximum(D, floor)
        Xs = np.take_along_axis(np.log(Dpos), lay.perm, 1).ravel()
        vmin, wmin = self._soft(lay, Xs, -1.0)
        vmax, wmax = self._soft(lay, Xs, 1.0)
        lo, hi = self._grid(lay, vmin, np.inf), self._grid(lay, vmax, -np.inf)
        H = self.gamma + self.logc[None] + hi[:, None, :] - lo[:, :, None]  # H[q, a, b]
        act = self.pair[None] & np.isfinite(H) & (H > 0)
        per_row = per_row + np.where(act, H, 0.0).sum(axis=(1, 2))
        cnt_min = -act.sum(axis=2)  # d loss / d softmin_a
        cnt_max = act.sum(axis=1)  # d loss / d softmax_b
        gs = cnt_min[lay.seg_q, lay.seg_l][lay.seg_of] * wmin + cnt_max[lay.seg_q, lay.seg_l][lay.seg_of] * wmax
        gX = np.empty((R, T))
        np.put_along_axis(gX, lay.perm, gs.reshape(R, T), 1)
        gD = np.where(D > floor, gX / Dpos, 0.0)  # log max(D, floor) is flat below the floor
        gK += 2 * gD
        gK[own] += gD.sum(axis=1)
        gPr = gK @ S
        if rows is None:
            gP = gPr
        else:
            gP = np.zeros_like(P)
            gP[rows] = gPr
        return float(per_row.sum()), gP, gK.T @ Pr, K, per_row


def _stalled(history: list[tuple[int, float, float]], tests: int = 3, gain: float = 0.01, below: float = -0.1) -> bool:
    """The L1 slack is still < `below` and rose by less than `gain` over the last `tests`
    tests (a row stuck in a local minimum: the loss keeps shrinking elsewhere, the slack does
    not).  A slack oscillating between `below` and 0 is left alone: such starts converge
    (m = 10, rank 11, seed 1; m = 9, rank 8, seed 2: docs/exact-small.md section 3c)."""
    if len(history) <= tests:
        return False
    now, then = history[-1][2], history[-1 - tests][2]
    return now < below and np.isfinite(then) and now - then < gain


def kernel_search(m: int, rank: int, seed: int = 0, steps: int = 5000, gamma: float = 0.03, tau: float = 0.02,
                  delta: float = 1e-3, lr: float = 0.01, decay: float = 0.05, report=None, every: int = 250, deadline: float = np.inf,
                  active: int = 0, abandon: tuple[int, float] | None = None, clock=time.monotonic) -> KernelState:
    """Adam on the L1 hinge loss from a seeded random start, the step size decaying
    geometrically from lr to decay * lr over `steps`; stops once the hard L1 slack is >= gamma
    and every K > 0 (or after `steps`, or at the deadline).  With active = k > 0, every k-th
    step is taken over every row and the k - 1 steps after it only over the rows whose loss
    was positive then (the others' terms are zero; psi moves them, the next full step sees
    it).  abandon = (s, x): stop at a slack test from step s on when the loss per row (the
    loss over 2^m: it sums over the rows, so one x serves every m) is still above x or the
    slack has stalled (:func:`_stalled`; a start that has not converged by then rarely
    does).  Floats only: the state's slack is the least log-margin reached (a float)."""
    rng = np.random.default_rng(seed)
    T = 1 << m
    P = rng.standard_normal((T, rank)) / np.sqrt(rank)
    S = rng.standard_normal((T, rank)) / np.sqrt(rank)
    P[:, 0], S[:, 0] = 1.0 + np.abs(P[:, 0]), 1.0 + np.abs(S[:, 0])  # start from a positive kernel
    f = L1Loss(m, gamma, tau, delta)
    state = KernelState(m, rank, seed, P, S)
    mom = [np.zeros_like(P), np.zeros_like(S)]
    var = [np.zeros_like(P), np.zeros_like(S)]
    b1, b2, eps = 0.9, 0.999, 1e-12
    rows = None
    for it in range(1, steps + 1):
        full = rows is None or not active or (it - 1) % active == 0 or it % every == 0 or it == 1
        loss, gP, gS, K, per_row = f(P, S, None if full else rows)
        if full and active:
            rows = np.flatnonzero(per_row > 0)
            rows = rows if rows.size else None
        if it % every == 0 or it == 1:
            sl = f.slack(K)
            state.history.append((it, loss, sl))
            state.slack = sl
            if report:
                report(it, loss, sl)
            stuck = abandon is not None and it >= abandon[0] and (loss / T > abandon[1] or _stalled(state.history))
            if sl >= gamma or stuck:
                state.steps = it
                break
        if clock() > deadline:
            state.steps = it
            break
        for i, (x, g) in enumerate(((P, gP), (S, gS))):
            mom[i] = b1 * mom[i] + (1 - b1) * g
            var[i] = b2 * var[i] + (1 - b2) * g * g
            mh = mom[i] / (1 - b1**it)
            vh = var[i] / (1 - b2**it)
            x -= lr * decay ** (it / steps) * mh / (np.sqrt(vh) + eps)
        # keep the scale fixed: rows of phi normalised (L1 and the readout are invariant under
        # a positive scaling of one row of phi)
        P /= np.linalg.norm(P, axis=1, keepdims=True)
        state.steps = it
    state.phi, state.psi = P, S
    if not state.history or state.history[-1][0] != state.steps:
        K = P @ S.T
        state.slack = f.slack(K)
    return state


# -------------------------------------------------------------------------- 2. integers

def integer_features(phi: np.ndarray, psi: np.ndarray, top: int = INT_TOP) -> tuple[list[list[int]], list[list[int]]]:
    """psi scaled as a whole and every row of phi on its own (its scale cancels per query)
    to integers of absolute value <= top, by rounding."""
    def rows(x: np.ndarray, per_row: bool) -> list[list[int]]:
        big = np.abs(x).max(axis=1, keepdims=True) if per_row else np.abs(x).max()
        scaled = np.rint(x * (top / np.where(big > 0, big, 1.0)))
        return [[int(v) for v in row] for row in scaled]

    return rows(phi, True), rows(psi, False)


def kernel_rows(Phi: list[list[int]], Psi: list[list[int]]) -> np.ndarray:
    """The integer kernel K = Phi Psi^T as an int64 array (entries stay far below 2^63 for
    |entries| <= INT_TOP and rank <= 64)."""
    return np.array(Phi, dtype=np.int64) @ np.array(Psi, dtype=np.int64).T


def l1_exact(K: np.ndarray, m: int) -> bool:
    """K > 0 and L1 at n = 3 in the D-form, decided with integers: for every q and levels
    l < l' = l + d, d >= 2, min_{<q,a>=l} D_q(a) > (d - 1) max_{<q,b>=l'} D_q(b)."""
    if (K <= 0).any():
        return False
    T = 1 << m
    L = levels_matrix(m)
    D = K[np.arange(T), np.arange(T)][:, None] + 2 * K
    big = np.iinfo(np.int64).max
    lo = np.stack([np.where(L == lv, D, big).min(axis=1) for lv in range(m + 1)])
    hi = np.stack([np.where(L == lv, D, -1).max(axis=1) for lv in range(m + 1)])
    for a in range(m + 1):
        for b in range(a + 2, m + 1):
            on = hi[b] >= 0
            if any(int(x) <= (b - a - 1) * int(y) for x, y in zip(lo[a][on], hi[b][on], strict=True)):
                return False
    return True


# --------------------------------------------------------------------------- 3. readout

def readout(q: int, m: int, w: np.ndarray, rounds: int = 40):
    """The readout numerators u(z) = K(q,z) F(q,z) of query q for fixed weights w > 0 (n = 3,
    free readout): max the least margin of the extreme-class rows (uncapped) by lazy token
    rows, at a central point.  (margin, u for every token), or (-inf, None)."""
    from .centralsearch import QueryRows, central_lp

    levels = np.array([(q & z).bit_count() for z in range(1 << m)])
    start = {q}
    for lv in range(q.bit_count() + 1):
        at = np.flatnonzero(levels == lv)
        start |= {int(at[np.argmin(w[at])]), int(at[np.argmax(w[at])])}
    rows = QueryRows(q, m, 3, start)
    top = float(np.abs(w).max())
    for _ in range(rounds):
        Mw, Mo = rows.split()
        nu = len(rows.active)
        bounds = [(-(m + 2) * top, (m + 2) * top)] * nu + [(None, None)] * rows.slacks + [(None, 10 * top)]
        c = np.zeros(Mo.shape[1])
        c[-1] = -1.0
        x = central_lp(c, Mo.tocsr(), -(Mw @ w), bounds)
        if x is None:
            return -np.inf, None
        mu, u_act, s = x[-1], x[:nu], x[nu : nu + rows.slacks]
        new, u = rows.violated(w, u_act[rows.active.index(q)], s, mu)
        u[rows.active] = u_act
        if not new:
            return mu, u
        rows.active = sorted(set(rows.active) | set(new))
        rows.build()
    return -np.inf, None


# ---------------------------------------------------------------------- 4. exact decision

def exact_worst(m: int, K: np.ndarray, Fnum: list[list[int]], fden: int, n: int = 3):
    """The exact worst error over every input and position of the head with integer kernel
    K (any positive scale per query) and readout F(q, z) = Fnum[q][z] / fden, by the level-min
    engine, and an input attaining it; None if some K < 0 or some denominator is not > 0."""
    from .. import levelmin

    def rows():
        for q in range(1 << m):
            W = [int(x) for x in K[q]]
            yield q, [x * fden for x in W], [x * f for x, f in zip(W, Fnum[q], strict=True)]

    out = levelmin.worst_error(rows(), n)
    return None if out is None else (out[0], (out[1].q, out[1].others))


# ------------------------------------------------------------------------- the search

@dataclass
class Found:
    """A head found by the L1 relaxation: integer features Phi, Psi (the kernel is
    Phi Psi^T), the readout F(q, z) = Fnum[q][z] / fden, and its exact worst error over
    every input (computed, never claimed)."""

    m: int
    n: int
    Phi: list[list[int]]
    Psi: list[list[int]]
    fden: int
    Fnum: list[list[int]]
    worst_error: Fraction
    witness: tuple[int, tuple[int, ...]]

    @property
    def rank(self) -> int:
        return len(self.Psi[0])

    def head(self):
        from .generalheads import ExplicitHead

        def table(rows, den=1):
            return tuple(tuple(Fraction(x, den) for x in row) for row in rows)

        return ExplicitHead(self.m, self.n, table(self.Phi), table(self.Psi), table(self.Fnum, self.fden))

    def certificate(self) -> dict:
        from .generalheads import document

        return document(self.head(), self.worst_error, self.witness)


@dataclass
class Result:
    """The outcome of :func:`search`: the head (or None) and what it took."""

    m: int
    rank: int
    seed: int
    found: Found | None
    kernel_steps: int
    kernel_slack: float  # the float kernel's least L1 log-margin
    l1_met: bool  # the integer kernel meets L1 exactly (necessary, not sufficient)
    readout_margin: float  # the least readout LP margin over the queries, relative to K(q, q)
    kernel_seconds: float
    readout_seconds: float
    exact_seconds: float

    @property
    def seconds(self) -> float:
        return self.kernel_seconds + self.readout_seconds + self.exact_seconds

    def line(self) -> str:
        """One line: how far the search got and where the time went."""
        got = f"worst error {float(self.found.worst_error):.6f} (exact)" if self.found else "no head"
        return (f"{got}; kernel: {self.kernel_steps} steps, L1 slack {self.kernel_slack:.4g}, L1 exact {'met' if self.l1_met else 'not met'}; "
                f"readout margin {self.readout_margin:.4g}; {self.kernel_seconds:.1f} + {self.readout_seconds:.1f} + {self.exact_seconds:.1f} s")


def readouts(m: int, K: np.ndarray, deadline: float = np.inf, clock=time.monotonic):
    """Every query's readout F = u / K by :func:`readout`: (least margin relative to K(q,q),
    the float rows F) or (-inf, None) when some query has no positive margin or time is up."""
    F, least = [], np.inf
    for q in range(1 << m):
        if clock() > deadline:
            return -np.inf, None
        w = K[q].astype(float)
        mu, u = readout(q, m, w)
        if u is None or mu <= 0:
            return (mu if u is not None else -np.inf), None
        least = min(least, mu / w[q])
        F.append(u / w)
    return least, F


def decide(m: int, Phi, Psi, F: list[np.ndarray], n: int = 3) -> Found | None:
    """F rounded to multiples of 1/fden for the primes of :data:`FDENS` in turn; the first
    whose exact worst error (level-min engine) is < 1/2 gives the head; None if none does."""
    K = kernel_rows(Phi, Psi)
    for fden in FDENS:
        Fnum = [[int(v) for v in np.rint(row * fden)] for row in F]
        out = exact_worst(m, K, Fnum, fden, n)
        if out is not None and out[0] < HALF:
            return Found(m, n, Phi, Psi, fden, Fnum, *out)
    return None


def search(m: int, rank: int, seed: int = 0, n: int = 3, steps: int = 5000, seconds: float = 3600.0, report=None,
           clock=time.monotonic, **kernel_options) -> Result:
    """THEORY U5 "Heads by the L1 relaxation" at n = 3: the kernel by :func:`kernel_search`
    (seeded), rounded to integers (:func:`integer_features`), one readout LP per query
    (:func:`readouts`), and the exact decision (:func:`decide`).  Deterministic for a given
    seed (and solver); a head found is decided exactly, a failure proves nothing."""
    if n != 3:
        raise InvalidArgument("the L1 relaxation is written for n = 3 (THEORY U5)")
    start = clock()
    until = start + seconds
    st = kernel_search(m, rank, seed=seed, steps=steps, report=report, deadline=until, clock=clock, **kernel_options)
    t1 = clock()
    Phi, Psi = integer_features(st.phi, st.psi)
    K = kernel_rows(Phi, Psi)
    met = l1_exact(K, m)
    margin, F, found = -np.inf, None, None
    if met:
        margin, F = readouts(m, K, until, clock)
    t2 = clock()
    if F is not None:
        found = decide(m, Phi, Psi, F, n)
    t3 = clock()
    return Result(m, rank, seed, found, st.steps, st.slack, met, float(margin), t1 - start, t2 - t1, t3 - t2)


# ------------------------------------------------------------ stored heads (generator data)

def to_data(found: Found) -> dict:
    """The head as generator data: m, n, the integer features and the readout numerators
    over fden in the certificate's packed layout (``generalheads.pack``; rows of integers
    when they do not fit 32 bits)."""
    packed = pack([x for row in found.Fnum for x in row], found.fden)
    return {"m": found.m, "n": found.n, "fden": found.fden, "phi": found.Phi, "psi": found.Psi, "readout": packed or found.Fnum}


def from_data(doc: dict) -> Found:
    """Inverse of :func:`to_data`; the worst error is recomputed exactly (InvalidArgument if
    some kernel value is negative, some denominator is not > 0 or the error is >= 1/2)."""
    m, n, fden = doc["m"], doc["n"], doc["fden"]
    Fnum, d = (doc["readout"], fden) if isinstance(doc["readout"], list) else unpack(doc["readout"], 1 << m)
    if d != fden:
        raise InvalidArgument(f"the stored readout's denominator {d} is not fden = {fden}")
    K = kernel_rows(doc["phi"], doc["psi"])
    out = exact_worst(m, K, Fnum, fden, n)
    if out is None or out[0] >= HALF:
        raise InvalidArgument("the stored head does not solve length n")
    return Found(m, n, doc["phi"], doc["psi"], fden, Fnum, *out)


DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "heads" / "l1"


def write_data(found: Found, folder: Path = DATA_DIR) -> Path:
    """Store a found head as generator data (compact JSON, one line, written atomically) under
    mMM-nN-rR.json; the explicit-heads source (sources/explicitheads.py) regenerates its
    explicit-head certificate from it."""
    import json

    from ..certificate import write_atomic

    from .generalheads import filename

    path = Path(folder) / filename(found.m, found.n, found.rank)
    write_atomic(path, json.dumps(to_data(found), separators=(",", ":")) + "\n")
    return path


def stored() -> list[tuple[int, int, int, Path]]:
    """(m, n, rank, path) of every stored head of the L1 relaxation, sorted."""
    from .generalheads import stored_in

    return stored_in(DATA_DIR)


def certificate_from_file(path: Path) -> dict:
    """The explicit-head certificate of a stored head (its exact worst error recomputed)."""
    import json

    return from_data(json.loads(Path(path).read_text())).certificate()
