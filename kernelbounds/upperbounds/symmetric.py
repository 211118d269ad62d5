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
psi) and one LP in (g, h, u) for fixed phi alternate (centralsearch.py).  Kernel
positivity is normalised as w >= 1 (the constraints are homogeneous).

Floats only propose.  The head is rationalised (centralsearch.rationalise: integer g, h and
phi of a few digits, F over one prime denominator, so the tables' heights stay small), expanded to full tables
(:func:`expand`: phi, psi, F for every token) and decided exactly: the exact worst error over
every input is computed on the orbit representatives (the rest follow by transport) by the
level-min reduction of THEORY U5 (generalheads, "Extreme-class inputs").  The certificate is an
ordinary explicit-head certificate; it never mentions the ansatz.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from pathlib import Path

import numpy as np

from .. import levelmin
from ..errors import InvalidArgument
from . import generalheads as gh

HALF = Fraction(1, 2)


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
        for a, b in zip(c, c[1:] + c[:1], strict=True):
            pi[a] = b
    return tuple(pi)


def show_cycles(pi: tuple[int, ...]) -> str:
    """Cycle notation, e.g. "(0,1,2)(3,4,5)"; "()" for the identity."""
    seen, out = set(), []
    for i in range(len(pi)):
        if i in seen or pi[i] == i:
            continue
        c, x = [], i
        while x not in seen:
            seen.add(x), c.append(x)
            x = pi[x]
        out.append("(" + ",".join(map(str, c)) + ")")
    return "".join(out) or "()"


def cycle_type(parts: tuple[int, ...], m: int) -> tuple[int, ...]:
    """One permutation of the cycle type `parts` (cycle lengths >= 2; the rest fixed):
    consecutive coordinates per cycle, longest first."""
    cycles, start = [], 0
    for length in sorted(parts, reverse=True):
        cycles.append(tuple(range(start, start + length)))
        start += length
    if start > m:
        raise InvalidArgument("the cycles need more than m coordinates")
    return from_cycles(m, cycles)


def parse_cycles(text: str, m: int) -> tuple[int, ...]:
    """A permutation of range(m) from cycle notation: "(0 1 2)(3 4 5)", "(0,1,2)(3,4,5)" or,
    with one-digit coordinates, "(012)(345)"; "()" is the identity.  ValueError (one line)
    on anything else."""
    import re

    body = text.replace(" ", ",")
    if not re.fullmatch(r"(\([0-9,]*\))+", body):
        raise InvalidArgument(f"expected cycles like (012)(345) or (0,1,2)(3,4,5), got {text!r}")
    cycles = []
    for inner in re.findall(r"\(([0-9,]*)\)", body):
        parts = [x for x in inner.split(",") if x] if "," in inner else list(inner)
        cycles.append(tuple(int(x) for x in parts))
    seen = [x for c in cycles for x in c]
    if any(x >= m for x in seen) or len(seen) != len(set(seen)):
        raise InvalidArgument(f"the cycles {text!r} must use distinct coordinates 0..{m - 1}")
    return from_cycles(m, [c for c in cycles if len(c) > 1])


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


# ---------------------------------------------------------------- rationals, exact decision

def exact_worst(a: Ansatz, n: int, G: list[int], H: list[list[int]], Phi: dict[int, list[int]], Fnum: dict[int, list[int]], fden: int):
    """The exact worst error over every input and position of the expanded head whose tables
    are g = G/D, h = H/D, phi(q) = Phi[q]/D (q a representative; D cancels per query) and
    F(q, z) = Fnum[q][z]/fden; with an input attaining it.  None when some kernel value is
    < 0 or some denominator is not > 0.  By transport only the representatives are evaluated,
    each by the level-min reduction (per least level t, the worst input is (q, a, b^(n-2)))."""
    T = 1 << a.m
    Psi = a.features(G, H)

    def rows():
        for q in a.reps:
            W = [sum(x * y for x, y in zip(Phi[q], Psi[z], strict=True)) for z in range(T)]
            yield q, [w * fden for w in W], [w * f for w, f in zip(W, Fnum[q], strict=True)]

    out = levelmin.worst_error(rows(), n)
    return None if out is None else (out[0], (out[1].q, out[1].others))


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


def write_data(found: Found, folder: Path = DATA_DIR) -> Path:
    """Store a found head as generator data (compact JSON, one line) under its name
    mMM-nN-rR.json; the catalog then regenerates its certificate from it."""
    import json

    path = Path(folder) / filename(found.ansatz.m, found.n, found.ansatz.rank)
    path.write_text(json.dumps(to_data(found), separators=(",", ":")) + "\n")
    return path


def from_data(doc: dict) -> Found:
    """Inverse of to_data; the worst error is recomputed exactly (ValueError if >= 1/2)."""
    a = Ansatz(doc["m"], tuple(doc["pi"]), doc["t"])
    Phi = dict(zip(a.reps, doc["phi"], strict=True))
    Fnum = dict(zip(a.reps, doc["readout"], strict=True))
    found = exact_worst(a, doc["n"], doc["g"], doc["h"], Phi, Fnum, doc["fden"])
    if found is None or found[0] >= HALF:
        raise InvalidArgument("the stored head does not solve length n")
    return Found(a, doc["n"], doc["den"], doc["g"], doc["h"], Phi, doc["fden"], Fnum, *found)


filename = gh.filename


def stored() -> list[tuple[int, int, int, Path]]:
    """(m, n, rank, path) of every stored head of the ansatz, sorted."""
    return gh.stored_in(DATA_DIR)


def certificate_from_file(path: Path) -> dict:
    """The explicit-head certificate of a stored head (fully expanded tables)."""
    import json

    return from_data(json.loads(Path(path).read_text())).certificate()
