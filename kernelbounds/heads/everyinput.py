"""Every input of length n over {0,1}^m, every position, decided exactly without listing
the 2^(m n) inputs (THEORY §1; the argument of the checker's explicit-head rule E2 and of
:func:`kernelbounds.upperbounds.generalheads.worst_error`).

**Why the extreme-class inputs decide everything** (docs/api.md, "Every input").  A table
head is per-token and bidirectional, so the output at position i of X depends only on the
query q = x_i and the multiset M of the n - 1 other tokens (THEORY §1, per-query
reduction), and every pair (q, M) is some position of some input.  Put W(z) = K(q, z)
and U(z) = K(q, z) F(q, z); on (q, M) the denominator is D = W(q) + sum_{z in M} W(z), the
output y = (U(q) + sum_M U) / D and the target t = min_{z in M} <q, z> (the query's own
level |q| is the largest).  Group the pairs by **class** (q, t): M has one token at level
t and n - 2 at levels >= t.  For any constant c, c D - N is a sum of one term per token,
so its least value over the class is the term of q, plus the least term at level t, plus
n - 2 times the least term at levels >= t: it is attained at an extreme multiset
(a, b^(n-2)), the n - 2 free tokens all equal, i.e. at an *extreme-class input*
(q, a, b^(n-2)).  Hence

* every denominator of the class is > 0 iff W(q) + min_{<q,a>=t} W(a) + (n-2) min_{<q,b>>=t} W(b) > 0;
* y <= t + e on the whole class iff the least value of (t + e) D - N is >= 0 (D > 0), and
  y >= t - e iff the least value of N - (t - e) D is >= 0: again least values over the
  extreme-class inputs;
* the largest y - t (or t - y) of the class is attained at an extreme-class input: at the
  optimum lambda* of Dinkelbach's parametrisation, N - lambda* D <= 0 on the class with
  equality at the optimum, and N - lambda* D is separable, so it has a maximiser of that
  form.

So the exact worst error over all inputs and positions is the largest, over the
2^m (m+1) classes, of the class maximum over its extreme-class inputs; each claim is
O(2^m) per class: O(4^m m) in all, with memory O(2^m r) (one block of queries at a time).

**Float pass where it pays.** For each block of queries the kernel table, readouts and the
rigorous bounds rho_K, rho_F of docs/api.md are computed in float64; Dinkelbach's
iteration in floats proposes each class's worst extreme-class input; the best few
proposals are evaluated exactly and the largest exact error e0 is a lower bound on the
worst error.  A second pass certifies every class at e0 (and, if the head fails,
classifies every class at 1/2) with interval bounds on every per-token term; a class the
floats cannot decide is decided with exact integers (python-flint products, then the
least values over the extreme-class inputs), and a class found above e0 gets its exact
maximum by exact Dinkelbach.  Floats never decide: a class is settled by the floats only
when the enclosure is wholly on one side.

The exact integers live in :mod:`.exactrows`, the float enclosures in :mod:`.enclosures`;
this module runs the route and writes its certificate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
import numpy as np

from .enclosures import FLOOR, U, block, certify, denominators, gamma, propose
from ..levelmin import Found, QueryClasses
from .exactrows import ExactRows, lcm, scaled
from .timelimit import check
from .tables import HeadError, TableHead

HALF = Fraction(1, 2)
MAX_M = 16  # 4^m (m + 1) class terms: m = 16 is already ~ 7e10
BLOCK_ELEMENTS = 1 << 21  # queries per block: block * (m + 1) * 2^m <= this many entries
TOP = 8  # float proposals evaluated exactly


@dataclass
class Outcome:
    """What the extreme-class route decided (exact): the worst error (None when some
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
        check()
        f = Found(q, ())
        e = exact_error(head, f)
        if e is None:
            undef = undef or f
        elif where is None or e > worst:
            worst, where = e, f
        if e is None or e >= HALF:
            fails += 1
            first = first or f
    return Outcome(m, 1, None if undef else worst, where, fails, first, len(tokens), "extreme-classes-exact", len(tokens), undef)


def _all_exact(rows: ExactRows, m: int, n: int) -> Outcome:
    """Every class with integers: denominators, then exact Dinkelbach on both sides."""
    worst, where, fails, first, undef = Fraction(-1), None, 0, None, None
    classes = 0
    from ..progress import track

    starts = range(0, rows.T, 64)
    for start in track(starts, len(starts), "evaluate --all (exact, query batches)", "batch"):
        batch = list(range(start, min(rows.T, start + 64)))
        for q, (W, Uq) in rows.rows(batch).items():
            eq = QueryClasses(q, W, Uq, n)
            for t in range(q.bit_count() + 1):
                check()
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
    return Outcome(m, n, None if undef else worst, where, fails, first, classes, "extreme-classes-exact", classes, undef)


def _blocks(h, m: int, label: str):
    from ..progress import track

    T = 1 << m
    step = _queries_per_block(m)
    starts = range(0, T, step)
    for start in track(starts, len(starts), f"evaluate --all, {label} (query blocks)", "block"):
        check()
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
        check()
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
            check()
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
    return Outcome(m, n, None if undefined else e0, worst, len(failing), first, rechecked, "extreme-classes", classes, undef)


class _QueryCache:
    """QueryClasses objects, built on demand (a few hundred kept)."""

    def __init__(self, rows: ExactRows, m: int, n: int):
        self.rows, self.m, self.n, self.kept = rows, m, n, {}

    def get(self, q: int) -> QueryClasses:
        if q not in self.kept:
            if len(self.kept) >= 256:
                self.kept.clear()
            W, Uq = self.rows.rows([q])[q]
            self.kept[q] = QueryClasses(q, W, Uq, self.n)
        return self.kept[q]


def _first_pass(h, m: int, k: int, cache: _QueryCache):
    """Denominators of every class (float, then exact where undecided) and the float
    proposals: (undefined classes [(q, t, input)], proposals [(E, q, t, a, b)], rechecked)."""
    proposals, todo, undefined, rechecked = [], [], [], 0
    for bl in _blocks(h, m, "pass 1: denominators and float proposals"):
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
        check()
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
    for bl in _blocks(h, m, "pass 3: the classes not certified at 1/2" if only_half else "pass 2: the classes the floats do not certify"):
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


# ------------------------------------------------------------------ the least denominator


def least_denominator(head: TableHead, h, m: int, n: int, exact: bool = False) -> tuple[Fraction, Found]:
    """The least denominator over every position of every input, exactly, and an input
    attaining it.  The n - 1 other tokens of a position are free, so it is
    min_q K(q, q) + (n - 1) min_z K(q, z) (K(q, q) alone at n = 1).  Its sign says whether
    the extreme-class reduction holds: the level-minimum argument (module docstring) decides a
    head only when every denominator is > 0, whatever the kernel's sign (THEORY L8 (a)).
    Floats (with the bound rho_K) only select the candidate queries and keys; the values
    compared are exact."""
    from ..model import dot

    tokens = check_tokens(head, m)
    k = max(n - 1, 0)
    if exact or not h.floatable:
        candidates = {q: None for q in tokens}  # every query, every key, with integers
    else:
        candidates = {}
        r = h.phi_q.shape[1]
        step = max(1, BLOCK_ELEMENTS >> m)
        best_hi = np.inf
        rows = []
        for start in range(0, len(tokens), step):
            check()
            qs = np.arange(start, min(len(tokens), start + step))
            K = h.phi_q[qs] @ h.phi_k.T
            rK = 2 * gamma(r + 2) * (np.abs(h.phi_q[qs]) @ np.abs(h.phi_k).T) + FLOOR
            lo, hi = K - rK, K + rK
            own_lo, own_hi = lo[np.arange(len(qs)), qs], hi[np.arange(len(qs)), qs]
            kmin_lo, kmin_hi = lo.min(axis=1), hi.min(axis=1)
            d_lo = own_lo + k * kmin_lo - 4 * U * (np.abs(own_lo) + k * np.abs(kmin_lo)) - FLOOR
            d_hi = own_hi + k * kmin_hi + 4 * U * (np.abs(own_hi) + k * np.abs(kmin_hi)) + FLOOR
            best_hi = min(best_hi, float(np.min(d_hi)))
            for b in range(len(qs)):
                rows.append((float(d_lo[b]), int(qs[b]), np.flatnonzero(lo[b] <= kmin_hi[b])))
        for d_lo, q, keys in rows:
            if d_lo <= best_hi or not np.isfinite(d_lo):
                candidates[q] = keys.tolist()
    best: tuple[Fraction, Found] | None = None
    exact_rows = ExactRows(head, tokens) if any(v is None for v in candidates.values()) else None
    for q, keys in candidates.items():
        check()
        if keys is None:  # integers: W is K(q, .) times a positive scale, so its argmin is K's
            W, _ = exact_rows.rows([q])[q]
            keys = [min(range(len(W)), key=W.__getitem__)]
        z, kz = min(((z, dot(head.phi_q[q], head.phi_k[z])) for z in keys), key=lambda t: t[1])
        value = dot(head.phi_q[q], head.phi_k[q]) + k * kz
        if best is None or value < best[0]:
            best = (Fraction(value), Found(q, (z,) * k))
    return best


# ------------------------------------------------------------------ the certificate


def readout_table(head: TableHead, m: int) -> tuple[tuple[Fraction, ...], ...]:
    """F(q, z) = <w_q, v(z)> + b_q for all 2^m x 2^m pairs, exactly (integer products)."""
    import flint

    tokens = range(1 << m)
    dv = lcm(*(x.denominator for z in tokens for x in head.value[z]))
    val = flint.fmpz_mat([scaled(head.value[z], dv) for z in tokens]).transpose()
    table = []
    for q in tokens:
        w, b = head.readout[q]
        e = lcm(b.denominator, *(x.denominator for x in w))
        row = (flint.fmpz_mat([scaled(w, e)]) * val).tolist()[0]
        be = scaled([b], e)[0] * dv
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
