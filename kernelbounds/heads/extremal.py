"""Every input of length n over {0,1}^m, every position, decided exactly without listing
the 2^(m n) inputs (THEORY §1; the argument of the checker's explicit-head rule E2 and of
:func:`kernelbounds.upperbounds.generalheads.worst_error`).

**Why the extremal inputs decide everything** (docs/api.md, "Every input"). A table head
is per-token and bidirectional, so the output at position i of X depends only on the
query q = x_i and the multiset M of the n - 1 other tokens (THEORY §1, per-query
reduction), and every pair (q, M) is some position of some input.  Put W(z) = K(q, z)
and U(z) = K(q, z) F(q, z); on (q, M) the denominator is D = W(q) + sum_{z in M} W(z), the
output y = (U(q) + sum_M U) / D and the target t = min_{z in M} <q, z> (the query's own
level |q| is the largest).  Group the pairs by **class** (q, t): M has one token at level
t and n - 2 at levels >= t.  For any constant c, c D - N is a sum of one term per token,
so its least value over the class is the term of q, plus the least term at level t, plus
n - 2 times the least term at levels >= t: the extremal multiset (a, b^(n-2)).  Hence

* every denominator of the class is > 0 iff W(q) + min_{<q,a>=t} W(a) + (n-2) min_{<q,b>>=t} W(b) > 0;
* y <= t + e on the whole class iff the least value of (t + e) D - N is >= 0 (D > 0), and
  y >= t - e iff the least value of N - (t - e) D is >= 0: again extremal minima;
* the largest y - t (or t - y) of the class is attained at an extremal multiset: at the
  optimum lambda* of Dinkelbach's parametrisation, N - lambda* D <= 0 on the class with
  equality at the optimum, and N - lambda* D is separable, so its maximiser is extremal.

So the exact worst error over all inputs and positions is the maximum over the
2^m (m+1) classes of extremal maxima, and each claim is O(2^m) per class: O(4^m m) in all,
with memory O(2^m r) (one block of queries at a time).

**Float pass where it pays.** For each block of queries the kernel table, readouts and the
rigorous bounds rho_K, rho_F of docs/api.md are computed in float64; Dinkelbach's
iteration in floats proposes each class's worst extremal input; the best few proposals are
evaluated exactly and the largest exact error e0 is a lower bound on the worst error.
A second pass certifies every class at e0 (and, if the head fails, classifies every class
at 1/2) with interval bounds on every per-token term; a class the floats cannot decide is
decided with exact integers (python-flint products, then the extremal minima), and a class
found above e0 gets its exact maximum by exact Dinkelbach.  Floats never decide: a class is
settled by the floats only when the enclosure is wholly on one side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

import numpy as np

from .tables import HeadError, TableHead

HALF = Fraction(1, 2)
U = 2.0**-53
MAX_M = 16  # 4^m (m + 1) class terms: m = 16 is already ~ 7e10
BLOCK_ELEMENTS = 1 << 21  # queries per block: block * (m + 1) * 2^m <= this many entries
TOP = 8  # float proposals evaluated exactly
FLOOR = 2.0**-500  # float margins below this are left to the exact route


def gamma(k: int) -> float:
    """gamma_k = k u / (1 - k u) (Higham §3.1)."""
    return k * U / (1 - k * U)


@dataclass(frozen=True)
class Found:
    """An input of the all-inputs family, scored at position 1: (q, a, b, ..., b)."""

    q: int
    others: tuple[int, ...]

    @property
    def input(self) -> tuple[int, ...]:
        return (self.q, *self.others)


@dataclass
class Outcome:
    """What the extremal route decided (exact): the worst error (None when some
    denominator is <= 0) and an input attaining it, the failing classes and the first of
    them (least q, then least t) with a failing input, the classes decided exactly."""

    m: int
    n: int
    worst_error: Fraction | None
    worst: Found | None
    failures: int
    first_failure: Found | None
    rechecked: int
    method: str
    classes: int
    undefined: Found | None = None
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ exact integers


class ExactRows:
    """Integer rows of a head over all 2^m tokens, per query q: lists W, U with
    y = sum U / sum W on every multiset (one positive scale per query), from
    python-flint products of integer-scaled tables."""

    def __init__(self, head: TableHead, tokens: list[int]):
        import flint

        self.T = len(tokens)
        self.head = head
        self.tokens = tokens
        psi = [head.phi_k[z] for z in tokens]
        val = [head.value[z] for z in tokens]
        self.dk = lcm(*(x.denominator for row in psi for x in row))
        self.dv = lcm(*(x.denominator for row in val for x in row))
        self.psi = flint.fmpz_mat([[int(x * self.dk) for x in row] for row in psi]).transpose()
        self.val = flint.fmpz_mat([[int(x * self.dv) for x in row] for row in val]).transpose()

    def rows(self, queries: list[int]) -> dict[int, tuple[list[int], list[int]]]:
        """{q: (W, U)} for the queries (one flint product per table for all of them)."""
        import flint

        if not queries:
            return {}
        phis, reads, scales = [], [], []
        for q in queries:
            p = self.head.phi_q[q]
            d = lcm(*(x.denominator for x in p))
            phis.append([int(x * d) for x in p])
            w, b = self.head.readout[q]
            e = lcm(b.denominator, *(x.denominator for x in w))
            reads.append([int(x * e) for x in w])
            scales.append((e, int(b * e)))
        K = (flint.fmpz_mat(phis) * self.psi).tolist()
        F = (flint.fmpz_mat(reads) * self.val).tolist()
        out = {}
        for k, q in enumerate(queries):
            e, be = scales[k]
            s = e * self.dv  # F(q, z) = (F_int(z) + be dv) / s
            W = [int(x) for x in K[k]]
            Fz = [int(f) + be * self.dv for f in F[k]]
            out[q] = ([w * s for w in W], [w * f for w, f in zip(W, Fz)])
        return out


class ExactQuery:
    """The classes of one query, decided with integers (THEORY §1, module docstring)."""

    def __init__(self, q: int, W: list[int], U: list[int], m: int, n: int):
        self.q, self.W, self.U, self.k = q, W, U, n - 2
        levels = [(q & z).bit_count() for z in range(len(W))]
        self.at = [[] for _ in range(m + 1)]
        for z, lv in enumerate(levels):
            self.at[lv].append(z)

    def above(self, t: int) -> list[int]:
        return [z for lv in range(t, len(self.at)) for z in self.at[lv]]

    def _least(self, term, t: int) -> tuple[int, int, int]:
        """(least value of sum_{q+M} term over the class, a, b) at the minimisers."""
        a = min(self.at[t], key=term)
        b = min(self.above(t), key=term) if self.k > 0 else a
        return term(self.q) + term(a) + self.k * term(b) * (self.k > 0), a, b

    def found(self, a: int, b: int) -> Found:
        return Found(self.q, tuple(sorted((a,) + (b,) * self.k)))

    def denominator(self, t: int) -> Found | None:
        """An input of the class with denominator <= 0, or None if every one is > 0."""
        W = self.W
        least, a, b = self._least(lambda z: W[z], t)
        return self.found(a, b) if least <= 0 else None

    def violation(self, t: int, e: Fraction, side: int, strict: bool) -> Found | None:
        """An input of the class with s (y - t) > e (>= e when strict), or None: side s = +1
        tests y <= t + e (< when strict), s = -1 tests y >= t - e; the denominators > 0."""
        en, ed = e.numerator, e.denominator
        c = side * t * ed + en
        W, U = self.W, self.U
        least, a, b = self._least(lambda z: c * W[z] - side * ed * U[z], t)
        bad = least <= 0 if strict else least < 0
        return self.found(a, b) if bad else None

    def class_max(self, t: int, side: int) -> tuple[Fraction, Found]:
        """max s (y - t) over the class, exactly (Dinkelbach; every denominator > 0)."""
        from ..upperbounds.generalheads import _dinkelbach

        first = self.at[t]
        rest = self.above(t) if self.k > 0 else first[:1]
        W, U = self.W, self.U
        lam, ia, ib = _dinkelbach(U[self.q], W[self.q], [(U[z], W[z]) for z in first], [(U[z], W[z]) for z in rest], max(self.k, 0), side)
        b = rest[ib] if self.k > 0 else first[ia]
        return side * (lam - t), self.found(first[ia], b)


# ------------------------------------------------------------------ the float pass


@dataclass
class Block:
    """Float64 tables of one block of queries over every token, with the bounds rho of
    docs/api.md: K (kernel), U = K F and their enclosure radii, the levels."""

    qs: np.ndarray
    K: np.ndarray
    U: np.ndarray
    rK: np.ndarray
    rU: np.ndarray
    A: np.ndarray  # A[b, t, z]: <q_b, z> == t
    B: np.ndarray  # B[b, t, z]: <q_b, z> >= t
    valid: np.ndarray  # valid[b, t]: t <= |q_b|


def block(h, qs: np.ndarray, m: int) -> Block:
    """The float tables of queries qs (h: HeadArrays over all 2^m tokens, row = token)."""
    r, dv = h.phi_q.shape[1], h.value.shape[1]
    pq = h.phi_q[qs]
    K = pq @ h.phi_k.T
    rK = 2 * gamma(r + 2) * (np.abs(pq) @ np.abs(h.phi_k).T)
    F = h.w[qs] @ h.value.T + h.b[qs][:, None]
    rF = 2 * gamma(dv + 3) * (np.abs(h.w[qs]) @ np.abs(h.value).T + np.abs(h.b[qs])[:, None])
    Uf = K * F
    rU = rK * (np.abs(F) + rF) + (np.abs(K) + rK) * rF + U * np.abs(Uf)
    levels = h.bits[qs] @ h.bits.T  # (B, T) <q, z>
    ts = np.arange(m + 1)
    A = levels[:, None, :] == ts[None, :, None]
    Bm = levels[:, None, :] >= ts[None, :, None]
    valid = ts[None, :] <= levels[np.arange(len(qs)), qs][:, None]
    return Block(qs, K, Uf, rK, rU, A, Bm, valid)


def _masked_min(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.min(x, axis=2, where=mask, initial=np.inf)


def _least(bl: Block, lo_t: np.ndarray, hi_t: np.ndarray, k: int):
    """Enclosure (lo, hi) of the least sum over each class of a per-token term that lies in
    [lo_t, hi_t] (shape (B, m+1, T)): lo <= true least <= hi."""
    with np.errstate(invalid="ignore", over="ignore"):
        return _least_unchecked(bl, lo_t, hi_t, k)


def _least_unchecked(bl: Block, lo_t: np.ndarray, hi_t: np.ndarray, k: int):
    idx = np.arange(len(bl.qs))
    lo_q, hi_q = lo_t[idx, :, bl.qs], hi_t[idx, :, bl.qs]  # the query's own term, (B, m+1)
    lo_a, hi_a = _masked_min(lo_t, bl.A), _masked_min(hi_t, bl.A)
    lo_b, hi_b = (_masked_min(lo_t, bl.B), _masked_min(hi_t, bl.B)) if k > 0 else (0.0, 0.0)
    lo, hi = lo_q + lo_a + k * lo_b, hi_q + hi_a + k * hi_b
    # each per-token value and the sum of three are rounded: at most 4u of the parts' sizes
    parts = np.abs(lo_q) + np.abs(hi_q) + np.abs(lo_a) + np.abs(hi_a) + k * (np.abs(lo_b) + np.abs(hi_b))
    slack = 8 * U * parts + FLOOR
    return lo - slack, hi + slack


def _status(lo: np.ndarray, hi: np.ndarray, strict: bool) -> np.ndarray:
    """0: the least value is certainly > 0 (so >= 0 too); 1: certainly <= 0 (strict) or
    < 0 (not strict), the test fails; 2: undecided.  (lo, hi) enclose the least value."""
    st = np.full(lo.shape, 2, dtype=np.int8)
    with np.errstate(invalid="ignore"):
        st[lo > 0] = 0
        st[(hi <= 0) if strict else (hi < 0)] = 1
    return st


def denominators(bl: Block, k: int) -> np.ndarray:
    """Status per class of "every denominator > 0" (0 yes, 1 no, 2 undecided)."""
    shape = (len(bl.qs), bl.A.shape[1], bl.K.shape[1])
    lo_t = np.broadcast_to((bl.K - 2 * bl.rK)[:, None, :], shape)  # the term and its radius do not depend on t
    hi_t = np.broadcast_to((bl.K + 2 * bl.rK)[:, None, :], shape)
    lo, hi = _least(bl, lo_t, hi_t, k)
    return np.where(bl.valid, _status(lo, hi, strict=True), 0)


def certify(bl: Block, e: Fraction, side: int, k: int, strict: bool) -> np.ndarray:
    """Status per class of "s (y - t) <= e (< e when strict) on the class": the least of
    (s t + e) D - s N over the class, enclosed (module docstring)."""
    ts = np.arange(bl.A.shape[1], dtype=np.float64)
    c = side * ts + float(e)  # |c - (s t + e)| <= 2u (t + |e|): the rounding of e, then of the sum
    mag = (ts + abs(float(e)))[None, :, None]  # >= |c| and >= |s t + e|
    # radius of term = c K - s U: 2 (mag (2u|K| + rK) + rU + 3u (mag |K| + |U|)) = mag X + Y
    X = (2 * (5 * U * np.abs(bl.K) + bl.rK))[:, None, :]
    Y = (2 * (bl.rU + 3 * U * np.abs(bl.U)))[:, None, :]
    sU = (side * bl.U)[:, None, :]
    ck = c[None, :, None] * bl.K[:, None, :]
    mx = mag * X
    lo, hi = _least(bl, ck - mx - sU - Y, ck + mx - sU + Y, k)
    return np.where(bl.valid, _status(lo, hi, strict), 0)


def propose(bl: Block, k: int, den_ok: np.ndarray, rounds: int = 30):
    """Float Dinkelbach per class and side: (E, a, b) of shape (2, B, m+1), E the float
    error s (y - t) at the proposed extremal input (a, b^(n-2)); nan where undecided.
    Starts from the keys of largest s F at each level set; a class stops when its ratio
    no longer grows (so float ties cannot make it cycle)."""
    nb, levels, T = bl.A.shape
    idx = np.arange(nb)[:, None]
    c, d = bl.U[np.arange(nb), bl.qs][:, None], bl.K[np.arange(nb), bl.qs][:, None]
    ts = np.arange(levels)[None, :]
    out_e = np.full((2, nb, levels), np.nan)
    out_a = np.zeros((2, nb, levels), dtype=np.int64)
    out_b = np.zeros((2, nb, levels), dtype=np.int64)
    live = bl.valid & den_ok
    with np.errstate(all="ignore"):
        F = np.where(bl.K != 0, bl.U / bl.K, 0.0)[:, None, :]
        for si, s in enumerate((1.0, -1.0)):
            a = np.argmax(np.where(bl.A, s * F, -np.inf), axis=2)
            b = np.argmax(np.where(bl.B, s * F, -np.inf), axis=2) if k > 0 else a
            lam = (c + bl.U[idx, a] + k * bl.U[idx, b]) / (d + bl.K[idx, a] + k * bl.K[idx, b])
            active = live.copy()
            for _ in range(rounds):
                rows_, ts_ = np.nonzero(active)
                if not len(rows_):
                    break
                G = s * (bl.U[rows_] - lam[rows_, ts_][:, None] * bl.K[rows_])
                a2 = np.argmax(np.where(bl.A[rows_, ts_], G, -np.inf), axis=1)
                b2 = np.argmax(np.where(bl.B[rows_, ts_], G, -np.inf), axis=1) if k > 0 else a2
                lam2 = (c[rows_, 0] + bl.U[rows_, a2] + k * bl.U[rows_, b2]) / (d[rows_, 0] + bl.K[rows_, a2] + k * bl.K[rows_, b2])
                better = s * (lam2 - lam[rows_, ts_]) > 1e-13 * np.maximum(1.0, np.abs(lam2))
                r_, t_ = rows_[better], ts_[better]
                a[r_, t_], b[r_, t_], lam[r_, t_] = a2[better], b2[better], lam2[better]
                active[:] = False
                active[r_, t_] = True
            out_e[si] = np.where(live, s * (lam - ts), np.nan)
            out_a[si], out_b[si] = a, b
    return out_e, out_a, out_b


# ------------------------------------------------------------------ the route


def _queries_per_block(m: int) -> int:
    return max(1, min(1 << m, BLOCK_ELEMENTS // ((m + 1) << m)))


def exact_error(head: TableHead, found: Found) -> Fraction | None:
    """|y - t| at position 1 of the input, with Fractions (None: denominator <= 0)."""
    from ..model import min_ip_target

    inp = found.input
    y = head.kernel_head().output(inp, 0)
    return None if y is None else abs(y - min_ip_target(inp, 0))


def check_tokens(head: TableHead, m: int) -> list[int]:
    tokens = list(range(1 << m))
    missing = next((x for x in tokens if x not in head.phi_q), None)
    if missing is not None:
        from ..bits import to_str

        raise HeadError(f"every input over {{0,1}}^{m} needs all 2^{m} tokens; the head defines no maps for {to_str(missing, m)} (build it with tokens=range(2**m))")
    return tokens


def evaluate_all(head: TableHead, h, m: int, n: int, exact: bool = False) -> Outcome:
    """Decide every position of every input of length n over {0,1}^m (module docstring).

    h: the head's HeadArrays (rows = tokens 0 .. 2^m - 1).  exact=True (or a head
    outside the float range) decides every class with integers."""
    if n < 2:
        return _length_one(head, m)
    tokens = check_tokens(head, m)
    rows = ExactRows(head, tokens)
    if exact or not h.floatable:
        return _all_exact(rows, m, n)
    return _float_route(head, h, rows, m, n)


def _length_one(head: TableHead, m: int) -> Outcome:
    """n = 1: the input (q) alone, t = |q|: T outputs, each exact."""
    tokens = check_tokens(head, m)
    worst, where, fails, first, undef = Fraction(0), None, 0, None, None
    for q in tokens:
        f = Found(q, ())
        e = exact_error(head, f)
        if e is None:
            undef = undef or f
        elif where is None or e > worst:
            worst, where = e, f
        if e is None or e >= HALF:
            fails += 1
            first = first or f
    return Outcome(m, 1, None if undef else worst, where, fails, first, len(tokens), "extremal-exact", len(tokens), undef)


def _all_exact(rows: ExactRows, m: int, n: int) -> Outcome:
    """Every class with integers: denominators, then exact Dinkelbach on both sides."""
    worst, where, fails, first, undef = Fraction(-1), None, 0, None, None
    classes = 0
    from ..progress import track

    starts = range(0, rows.T, 64)
    for start in track(starts, len(starts), "evaluate --all (exact, query batches)", "batch"):
        batch = list(range(start, min(rows.T, start + 64)))
        for q, (W, Uq) in rows.rows(batch).items():
            eq = ExactQuery(q, W, Uq, m, n)
            for t in range(q.bit_count() + 1):
                classes += 1
                bad = eq.denominator(t)
                if bad is not None:
                    undef = undef or bad
                    fails += 1
                    first = first or bad
                    continue
                failed = False
                for side in (1, -1):
                    err, f = eq.class_max(t, side)
                    if err > worst:
                        worst, where = err, f
                    failed |= err >= HALF
                if failed:
                    fails += 1
                    first = first or eq.violation(t, HALF, 1, True) or eq.violation(t, HALF, -1, True)
    return Outcome(m, n, None if undef else worst, where, fails, first, classes, "extremal-exact", classes, undef)


def _blocks(h, m: int):
    from ..progress import track

    T = 1 << m
    step = _queries_per_block(m)
    starts = range(0, T, step)
    for start in track(starts, len(starts), "evaluate --all (query blocks)", "block"):
        yield block(h, np.arange(start, min(T, start + step)), m)


def _float_route(head: TableHead, h, rows: ExactRows, m: int, n: int) -> Outcome:
    k = n - 2
    cache = _QueryCache(rows, m, n)
    undefined, proposals, rechecked = _first_pass(h, m, k, cache)
    bad = {(q, t) for q, t, _ in undefined}
    e0, worst = Fraction(-1), None  # the best proposals, exactly: e0 is attained, a lower bound
    for _, q, t, a, b in sorted(proposals, reverse=True)[:TOP]:
        f = cache.get(q).found(a, b)
        e = None if (q, t) in bad else exact_error(head, f)
        if e is not None and e > e0:
            e0, worst = e, f
    if worst is None:  # every proposal undefined: decide every class exactly
        return _all_exact(rows, m, n)
    above, half = _second_pass(h, m, k, e0, e0 >= HALF)
    for q, t in sorted(above - bad):  # not certified at e0 by the floats: exact maximum if above
        eq = cache.get(q)
        rechecked += 1
        for side in (1, -1):
            if eq.violation(t, e0, side, strict=False) is not None:
                err, f = eq.class_max(t, side)
                if err > e0:
                    e0, worst = err, f
    failing = set(bad)
    if e0 >= HALF:
        if half is None:
            _, half = _second_pass(h, m, k, HALF, True, only_half=True)
        for (q, t), st in sorted(half.items()):
            if (q, t) in failing:
                continue
            if st != 1:
                rechecked += 1
                eq = cache.get(q)
                if not (eq.violation(t, HALF, 1, True) or eq.violation(t, HALF, -1, True)):
                    continue
            failing.add((q, t))
    first = None
    if failing:
        q, t = min(failing)
        eq = cache.get(q)
        first = eq.denominator(t) or eq.violation(t, HALF, 1, True) or eq.violation(t, HALF, -1, True)
        if first is None:  # never happens if the bound is sound
            raise ArithmeticError(f"the float bound misjudged the class of query {q}, level {t}: report this")
    classes = sum(q.bit_count() + 1 for q in range(1 << m))
    undef = min(undefined, key=lambda x: x[:2])[2] if undefined else None
    return Outcome(m, n, None if undefined else e0, worst, len(failing), first, rechecked, "extremal", classes, undef)


class _QueryCache:
    """ExactQuery objects, built on demand (a few hundred kept)."""

    def __init__(self, rows: ExactRows, m: int, n: int):
        self.rows, self.m, self.n, self.kept = rows, m, n, {}

    def get(self, q: int) -> ExactQuery:
        if q not in self.kept:
            if len(self.kept) >= 256:
                self.kept.clear()
            W, Uq = self.rows.rows([q])[q]
            self.kept[q] = ExactQuery(q, W, Uq, self.m, self.n)
        return self.kept[q]


def _first_pass(h, m: int, k: int, cache: _QueryCache):
    """Denominators of every class (float, then exact where undecided) and the float
    proposals: (undefined classes [(q, t, input)], proposals [(E, q, t, a, b)], rechecked)."""
    proposals, todo, undefined, rechecked = [], [], [], 0
    for bl in _blocks(h, m):
        dst = denominators(bl, k)
        todo += [(int(bl.qs[b]), t, int(dst[b, t])) for b, t in np.argwhere(dst != 0).tolist()]
        E, A, B = propose(bl, k, dst == 0)
        flat = np.where(np.isnan(E), -np.inf, E).reshape(-1)
        for j in np.argsort(flat)[::-1][:TOP]:
            if not np.isfinite(flat[j]):
                break
            s, b, t = np.unravel_index(j, E.shape)
            proposals.append((float(flat[j]), int(bl.qs[b]), int(t), int(A[s, b, t]), int(B[s, b, t])))
    for q, t, st in todo:
        rechecked += st == 2
        found = cache.get(q).denominator(t)
        if found is None and st == 1:  # never happens if the bound is sound
            raise ArithmeticError(f"the float bound misjudged a denominator at query {q}, level {t}: report this")
        if found is not None:
            undefined.append((q, t, found))
    return undefined, proposals, rechecked


def _second_pass(h, m: int, k: int, e: Fraction, with_half: bool, only_half: bool = False):
    """Classes the floats do not certify at e (a set of (q, t)) and, with_half, the
    classes not certified at 1/2 ({(q, t): 1 certainly failing or 2 undecided})."""
    above: set[tuple[int, int]] = set()
    half: dict[tuple[int, int], int] | None = {} if with_half else None
    for bl in _blocks(h, m):
        for side in (1, -1):
            if not only_half:
                st = certify(bl, e, side, k, strict=False)
                above.update((int(bl.qs[b]), t) for b, t in np.argwhere(st != 0).tolist())
            if with_half:
                st = certify(bl, HALF, side, k, strict=True)
                for b, t in np.argwhere(st != 0).tolist():
                    key = (int(bl.qs[b]), t)
                    half[key] = min(half.get(key, 2), int(st[b, t]))
    return above, half


# ------------------------------------------------------------------ the certificate


def readout_table(head: TableHead, m: int) -> tuple[tuple[Fraction, ...], ...]:
    """F(q, z) = <w_q, v(z)> + b_q for all 2^m x 2^m pairs, exactly (integer products)."""
    import flint

    tokens = range(1 << m)
    dv = lcm(*(x.denominator for z in tokens for x in head.value[z]))
    val = flint.fmpz_mat([[int(x * dv) for x in head.value[z]] for z in tokens]).transpose()
    table = []
    for q in tokens:
        w, b = head.readout[q]
        e = lcm(b.denominator, *(x.denominator for x in w))
        row = (flint.fmpz_mat([[int(x * e) for x in w]]) * val).tolist()[0]
        be = int(b * e) * dv
        table.append(tuple(Fraction(int(f) + be, e * dv) for f in row))
    return tuple(table)


def certificate(head: TableHead, m: int, n: int, worst_error: Fraction, q: int, others: tuple[int, ...]) -> dict:
    """The explicit-head certificate (docs/certificate-format-v2.md) of a head that solves
    every input: its tables phi_Q, phi_K over all 2^m tokens, the readout table F, the
    exact worst error and an input attaining it (kernelbounds check re-derives all)."""
    from ..upperbounds.generalheads import ExplicitHead, document

    tokens = range(1 << m)
    explicit = ExplicitHead(m, n, tuple(head.phi_q[x] for x in tokens), tuple(head.phi_k[x] for x in tokens), readout_table(head, m))
    return document(explicit, worst_error, (q, tuple(sorted(others))))
