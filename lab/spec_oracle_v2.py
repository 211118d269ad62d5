"""An oracle for the certificate-format-v2 kinds, written from the specification alone
(docs/certificate-format-v2.md, docs/certificate-format-v1.md, THEORY §2 U4-U5, §3 L3-L4).

Independence is the point: this module imports nothing from kernelbounds (neither the
checker nor the generators, whose code was not read while writing it); only the standard
library, and python-flint for exact ranks of explicit matrices.  ``judge(doc)`` has the
interface of ``lab.spec_oracle.judge``: True when every field is well formed
and every claim is a true statement as the spec defines it, False when a claim or a premise
is false or the file breaks a rule of the spec, None when the instance is too large for the
oracle's routes (about 10 s).  Version-1 files are passed to the v1 oracle.

Routes, chosen to be obviously correct rather than fast, and different from the checker's
where the spec names the checker's method:
- level-family (U4): the worst error over the level classes by the oracle's own extreme-class
  reduction (below, `extreme_class_worst`: classes (p; t, u, ..., u), O(m^3) of them, for
  either basis and either readout), and every level class literally (C(m+n, n) of them,
  exact Fractions) as a second route where that is small, the two required to agree; for
  m <= 6 the explicit features phi_T, psi_T, values and readout on every input (query and
  multiset of the other n-1 tokens); exact ranks of the explicit 2^m x 2^m kernel (m <= 8);
  the Motzkin combinations of LF7 re-derived row by row from their definition, and the
  coverage of the cheaper supports by brute force over all subsets.
- explicit-head (U5): the readout from either layout (rows of rationals, or the packed base64
  numerators over one denominator, decoded with the standard library); the exact worst error
  over every input, literally when there are few inputs, else by Dinkelbach's method over
  the extreme-class inputs (q, f, z, ..., z): for a fixed ratio lam the objective
  sum(num - lam den) is additive over the n tokens, so its maximum puts the n-2 free tokens
  on one best token; iterating lam to a fixed point gives the exact maximum of the ratio
  (not the checker's three-sums test of a claimed bound).
- rank-one-infeasible (U5): the Farkas combination summed coefficient by coefficient.
- multi-block-level-family (U8): H on the box by its definition, then every class pair (X, U)
  with |U| <= |X| one by one at n = 3 (not the checker's extremes per total), Dinkelbach's
  ratio_max over the box for n > 3; for m <= 6 the explicit features on every input, and the
  exact rank of the explicit kernel for m <= 8.
- lower-bound orbit form (L3, L4): the code's words enumerated, each permutation applied
  to every word, the orbits as connected components, every representative's gap
  histogram by popcounts; for small codes also every row's histogram and the witness
  family built literally as a set of n-tuples.
"""

from __future__ import annotations

import base64
import re
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, pairwise
from collections import Counter
from math import comb, lcm

from lab.spec_oracle import least_r  # O5's least r, by the v1 oracle's scan r = 1, 2, ... from the definition

RATIONAL = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")  # RFC 4648 §4 text; its length is checked apart
MAX_CLASS_TERMS = 3_000_000  # extreme level classes (level-family)
MAX_LITERAL_CLASS_TERMS = 12_000  # level classes x n terms: the literal second route
MAX_LITERAL_INPUTS = 250_000  # inputs evaluated one by one
MAX_TABLE_CELLS = 1 << 18  # explicit-head: 2^m x 2^m cells (m <= 9; the m = 9 head takes about 6 s)
MAX_RANK_SIDE = 512  # exact ranks of explicit matrices up to this side
MAX_WORDS = 700_000  # orbit form: listed code words
NUMPY_SPAN = 1 << 16  # linear codes with a larger span: numpy arrays of uint64 words (m <= 64)
MAX_WORD_STEPS = 12_000_000  # orbit form: words x (permutations + representatives)
MAX_SUPPORT_WALK = 1 << 16  # LF7 coverage: subsets of the cheap elements
MAX_ROW_TERMS = 2_000_000  # LF7 / rank-one: multiplier rows x terms
V2_KINDS = ("level-family", "explicit-head", "rank-one-infeasible", "direct-sum", "multi-block-level-family")
MAX_BOX_PAIRS = 2_500_000  # multi-block-level-family: class pairs (X, U) evaluated one by one


class Bad(Exception):
    """The document is not a true, well-formed certificate."""


class TooBig(Exception):
    """The instance is beyond the oracle's routes."""


def ok(cond) -> None:
    if not cond:
        raise Bad


def small(cond) -> None:
    if not cond:
        raise TooBig


def is_int(x, lo=None, hi=None) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and (lo is None or x >= lo) and (hi is None or x <= hi)


def integer(x, lo=None, hi=None) -> int:
    ok(is_int(x, lo, hi))
    return x


def rational(x) -> Fraction:
    ok(isinstance(x, str) and RATIONAL.fullmatch(x) is not None)
    return Fraction(x)


def token(x, m: int) -> int:
    """A token string (character i = bit i) as an int bitmask."""
    ok(isinstance(x, str) and len(x) == m and set(x) <= {"0", "1"})
    return sum(1 << i for i, c in enumerate(x) if c == "1")


def keys(obj, required: set, optional: set = frozenset()) -> dict:
    ok(isinstance(obj, dict) and set(required) <= obj.keys() <= set(required) | set(optional))
    return obj


def a_list(x, length=None, nonempty=False) -> list:
    ok(isinstance(x, list) and (length is None or len(x) == length) and (not nonempty or x))
    return x


def ip(x: int, z: int) -> int:
    return (x & z).bit_count()


def judge(doc) -> bool | None:
    try:
        ok(isinstance(doc, dict) and doc.get("format") == "kernelbounds-certificate")
        version, kind = doc.get("version"), doc.get("kind")
        ok(is_int(version) and version in (1, 2))
        if version == 1:
            ok(kind not in V2_KINDS and "symmetry" not in doc and "kernel" not in doc)  # v2 features in a v1 file
            from lab.spec_oracle import judge as judge_v1

            return judge_v1(doc)
        ok(kind in JUDGES)  # version 2 adds no other kind; v1-only files must declare 1
        return JUDGES[kind](doc)
    except Bad:
        return False
    except TooBig:
        return None
    except (KeyError, TypeError, ValueError, ZeroDivisionError, IndexError, AttributeError):
        return False


def header(doc, required: set, optional: set = frozenset()) -> dict:
    return keys(doc, {"format", "version", "kind"} | set(required), optional)


# ------------------------------------------------------------- exact worst errors


def scaled_rows(weights: list[list[Fraction]], readout: list[list[Fraction]]):
    """Per query q, integers (b_z, a_z) with b_z / a_z proportional to w_q(z), w_q(z) F(q,z)
    by one positive factor per query (it cancels in y = sum a / sum b)."""
    rows = []
    for wq, fq in zip(weights, readout, strict=True):
        s = lcm(*(x.denominator for x in wq), *(x.denominator for x in fq))
        b = [int(w * s) for w in wq]
        sf = lcm(*(x.denominator for x in fq))
        a = [int(w * s) * int(f * sf) for w, f in zip(wq, fq, strict=True)]
        rows.append(([x * sf for x in b], a))
    return rows


def literal_worst(weights, readout, m: int, n: int) -> Fraction:
    """max |y - t| over every query q and every multiset of n-1 other tokens, one input at a
    time; Bad if a weight is negative or a denominator is not positive (THEORY §1)."""
    tokens = range(1 << m)
    worst = Fraction(0)
    for q, (b, a) in zip(tokens, scaled_rows(weights, readout), strict=True):
        ok(min(b) >= 0)
        for others in combinations_with_replacement(tokens, n - 1):
            den = b[q] + sum(b[z] for z in others)
            ok(den > 0)
            t = min(ip(q, z) for z in others)
            err = Fraction(abs(a[q] + sum(a[z] for z in others) - t * den), den)
            worst = max(worst, err)
    return worst


def ratio_max(self_term, forced, free, n: int) -> Fraction:
    """Dinkelbach: max over f in forced and n-2 tokens of free (a multiset) of
    (N_q + N_f + sum N) / (D_q + D_f + sum D), every denominator positive."""
    f, z = forced[0], forced[0]
    lam = Fraction(self_term[0] + f[0] + (n - 2) * z[0], self_term[1] + f[1] + (n - 2) * z[1])
    while True:
        p, s = lam.numerator, lam.denominator
        f = max(forced, key=lambda e: s * e[0] - p * e[1])
        z = max(free, key=lambda e: s * e[0] - p * e[1]) if n > 2 else f
        num = self_term[0] + f[0] + (n - 2) * z[0]
        den = self_term[1] + f[1] + (n - 2) * z[1]
        if s * num - p * den <= 0:  # every input has sum (N - lam D) <= 0: lam is the max
            return lam
        lam = Fraction(num, den)


def extreme_class_input_worst(weights, readout, m: int, n: int) -> Fraction:
    """The same maximum as literal_worst, by ratio_max for each query, least level t and
    side (y - t, t - y); denominators: the least one is w(q) + (n-1) min_z w(z)."""
    worst = Fraction(0)
    for q, (b, a) in enumerate(scaled_rows(weights, readout)):
        ok(min(b) >= 0 and b[q] + (n - 1) * min(b) > 0)
        lev = [ip(q, z) for z in range(1 << m)]
        for t in range(q.bit_count() + 1):
            for side in (1, -1):
                term = [(side * (a[z] - t * b[z]), b[z]) for z in range(1 << m)]
                forced = [term[z] for z in range(1 << m) if lev[z] == t]
                free = [term[z] for z in range(1 << m) if lev[z] >= t]
                worst = max(worst, ratio_max(term[q], forced, free, n))
    return worst


def exact_rank(rows: list[list[Fraction]]) -> int:
    """Rank over Q (FLINT on the row-scaled integer matrix)."""
    import flint

    ints = []
    for row in rows:
        s = lcm(*(x.denominator for x in row))
        ints.append([int(x * s) for x in row])
    return flint.fmpz_mat(ints).rank() if ints and ints[0] else 0


# ------------------------------------------------------------------ level-family


def level_family(doc) -> bool | None:
    header(doc, {"m", "n", "positions", "basis", "differences", "readout", "claims"}, {"minimality"})
    m, n = integer(doc["m"], 1), integer(doc["n"], 2)
    ok(doc["positions"] == "all" and doc["basis"] in ("subset", "complement"))
    small((m + 1) * (m + 2) * (m + 3) // 6 <= MAX_CLASS_TERMS)
    g = [rational(x) for x in a_list(doc["differences"], m + 1)]
    w = [sum(g[j] * comb(d, j) for j in range(m + 1)) for d in range(m + 1)]  # w(d)
    ok(all(x > 0 for x in w))  # LF1
    degree = lambda p, l: l if doc["basis"] == "subset" else p - l  # noqa: E731
    readout, fam = family_readout(doc["readout"], m)
    claims = keys(doc["claims"], {"worst_error", "feature_rank", "kernel_rank", "nonnegative_features", "support"})
    worst = extreme_class_worst(m, n, lambda p, l: w[degree(p, l)], readout)
    if comb(m + n, n) * n <= MAX_LITERAL_CLASS_TERMS:
        assert class_worst(m, n, lambda p, l: w[degree(p, l)], readout) == worst, "the oracle's two class routes disagree"
    ok(rational(claims["worst_error"]) == worst and worst < Fraction(1, 2))  # LF3
    ok(claims["nonnegative_features"] is all(x >= 0 for x in g))  # LF2
    support = [j for j in range(m + 1) if g[j] != 0]
    cost = sum(comb(m, j) for j in support)
    ok(claims["support"] == support)  # a list of ints equals only the same list of ints
    ok(all(is_int(x) for x in claims["support"]))
    ok(is_int(claims["feature_rank"]) and claims["feature_rank"] == cost)  # LF5
    ok(is_int(claims["kernel_rank"]) and claims["kernel_rank"] == cost)
    if m <= 8:
        kernel = [[w[degree(q.bit_count(), ip(q, z))] for z in range(1 << m)] for q in range(1 << m)]
        if m <= 6:
            kernel = explicit_kernel(m, g, doc["basis"])  # the features themselves
            ok(kernel == [[w[degree(q.bit_count(), ip(q, z))] for z in range(1 << m)] for q in range(1 << m)])
        ok(exact_rank(kernel) == cost)
        if m <= 6 and (1 << m) * comb((1 << m) + n - 2, n - 1) <= MAX_LITERAL_INPUTS:  # LF6
            values = explicit_readout(m, doc["readout"], readout)
            ok(literal_worst(kernel, values, m, n) == worst)
    if "minimality" in doc:
        minimality(doc["minimality"], m, n, g, doc["basis"], fam, cost)
    return True


def family_readout(r, m: int):
    """F(p, l) as a function, and the family's readout type (LF4)."""
    ok(isinstance(r, dict) and r.get("type") in ("affine", "free"))
    if r["type"] == "affine":
        keys(r, {"type", "eps"})
        eps = rational(r["eps"])
        ok(0 < eps < 1)
        return (lambda p, l: l - Fraction(1, 2) + eps), "affine"
    keys(r, {"type", "table", "value_dim"})
    table = a_list(r["table"], m + 1)
    f = [[rational(x) for x in a_list(table[p], p + 1)] for p in range(m + 1)]
    diffs = [forward_differences(row) for row in f]  # a_(p,i)
    top = max((i for row in diffs for i, x in enumerate(row) if x != 0), default=-1)  # D
    ok(is_int(r["value_dim"]) and r["value_dim"] == sum(comb(m, i) for i in range(top + 1)))
    return (lambda p, l: f[p][l]), "free"


def forward_differences(values: list[Fraction]) -> list[Fraction]:
    """a_i = (Delta^i f)(0), so f(l) = sum_i a_i C(l, i)."""
    out, row = [], list(values)
    while row:
        out.append(row[0])
        row = [y - x for x, y in pairwise(row)]
    return out


def class_worst(m: int, n: int, weight, readout) -> Fraction:
    """LF3: max over p and multisets {l_2..l_n} in [0, p] of |y - min l| (the query's own
    level p is in the average)."""
    worst = Fraction(0)
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            entries = (p,) + levels
            den = sum(weight(p, l) for l in entries)
            num = sum(weight(p, l) * readout(p, l) for l in entries)
            worst = max(worst, abs(num / den - min(levels)))
    return worst


def extreme_class_worst(m: int, n: int, weight, readout) -> Fraction:
    """LF3's maximum over every level class, from the extreme classes (p; t, u, ..., u):
    the query's own level p, one other key at the least level t and the n - 2 others at one
    level u in [t, p] (for n = 2 the classes (p; t)).

    Why this is the maximum over all classes.  Fix p and the least level t; the classes with
    these are (p; t, l_3..l_n) with l_k in [t, p] free.  For the side y - t put
    A = a_0 + sum_k a(l_k), B = b_0 + sum_k b(l_k) with b(l) = w_p(l) > 0,
    a(l) = w_p(l) (F(p, l) - t) and a_0, b_0 the terms of the query and of the key at t, so
    y - t = A / B.  Let R be the largest A / B over these classes, attained at a class C.
    Then A - R B <= 0 on every class, = 0 at C, and A - R B = (a_0 - R b_0) +
    sum_k (a(l_k) - R b(l_k)) is largest with every free key at one u maximising
    a(u) - R b(u): that class has A - R B >= 0, so its A / B = R.  The side t - y is the
    same with a replaced by -a.  Nothing here uses the basis or the readout: only that the
    weights are positive (LF1) and that a key's terms depend on its level alone."""
    best_num, best_den = 0, 1  # the worst error so far, as the fraction best_num / best_den
    k = n - 2 if n > 2 else 0
    for p in range(m + 1):
        w = [weight(p, l) for l in range(p + 1)]
        wf = [w[l] * readout(p, l) for l in range(p + 1)]
        scale = lcm(*(x.denominator for x in w + wf))  # one positive factor: it cancels in y
        W, U = [int(x * scale) for x in w], [int(x * scale) for x in wf]
        for t in range(p + 1):
            for u in (range(t, p + 1) if k else (t,)):
                den = W[p] + W[t] + k * W[u]
                num = abs(U[p] + U[t] + k * U[u] - t * den)
                if num * best_den > best_num * den:
                    best_num, best_den = num, den
    return Fraction(best_num, best_den)


def subsets(mask: int):
    """Every submask of mask."""
    sub = mask
    while True:
        yield sub
        if sub == 0:
            return
        sub = (sub - 1) & mask


def explicit_kernel(m: int, g: list[Fraction], basis: str) -> list[list[Fraction]]:
    """a(q, z) = sum_T phi_T(q) psi_T(z) over the sets T with g_|T| != 0 (U4)."""
    full = (1 << m) - 1
    sets = [T for T in range(1 << m) if g[T.bit_count()] != 0]
    psi = (lambda T, z: T & z == T) if basis == "subset" else (lambda T, z: T & z == 0)
    return [[sum((g[T.bit_count()] for T in sets if T & q == T and psi(T, z)), Fraction(0))
             for z in range(full + 1)] for q in range(full + 1)]


def explicit_readout(m: int, r: dict, readout) -> list[list[Fraction]]:
    """F(q, z) = L_q(v(z)) with the spec's values and readout: affine v(z) = z,
    L_q(y) = <q, y> - 1/2 + eps; free v(z)_S = [S in z] (|S| <= D),
    L_q(v) = sum_(S in q, |S| <= D) a_(|q|,|S|) v_S."""
    size = 1 << m
    if r["type"] == "affine":
        eps = rational(r["eps"])
        return [[ip(q, z) - Fraction(1, 2) + eps for z in range(size)] for q in range(size)]
    f = [[rational(x) for x in row] for row in r["table"]]
    a = [forward_differences(row) for row in f]
    return [[sum((a[q.bit_count()][S.bit_count()] for S in subsets(q & z)), Fraction(0))
             for z in range(size)] for q in range(size)]


# --------------------------------------------------------------- LF7 minimality


def minimality(mini, m, n, g, basis, fam, rank) -> None:
    keys(mini, {"signs", "refuted"})
    ok(mini["signs"] in ("any", "nonnegative"))
    nonneg = mini["signs"] == "nonnegative"
    ok(not nonneg or all(x >= 0 for x in g))
    refuted = a_list(mini["refuted"])
    small(sum(len(a_list(e.get("multipliers"))) for e in refuted) * (m + 2) * n <= MAX_ROW_TERMS)
    supports = []
    for e in refuted:
        keys(e, {"support", "multipliers"})
        s = a_list(e["support"])
        ok(all(is_int(j, 0, m) for j in s) and all(a < b for a, b in pairwise(s)))
        ok(sum(comb(m, j) for j in s) < rank)
        motzkin(a_list(e["multipliers"], nonempty=True), s, m, n, basis, fam, nonneg)
        supports.append(sum(1 << j for j in s))
    for top in maximal_cheaper_supports(m, rank):
        ok(any(top & s == top for s in supports))


def motzkin(rows, support, m, n, basis, fam, nonneg) -> None:
    """sum_i y_i r_i over the rows named (each r_i x < 0 on the family's system in
    x = (g_S, u)) vanishes on u and on g_S (signs any), or vanishes on u and is >= 0 on g_S
    (signs nonnegative): then no x satisfies the rows (Motzkin)."""
    cg = {j: Fraction(0) for j in support}  # coefficient on g_j
    cu: dict[tuple[int, int], Fraction] = {}  # coefficient on u_p(l)
    for row in rows:
        ok(isinstance(row, dict))
        y = rational(row.get("y"))
        ok(y > 0)
        if "weight" in row:  # -w(d) < 0, w(d) = sum_j g_j C(d, j)
            keys(row, {"weight", "y"})
            d = integer(row["weight"], 0, m)
            for j in support:
                cg[j] -= y * comb(d, j)
            continue
        keys(row, {"class", "side", "y"})
        cls = a_list(row["class"], n)
        p = integer(cls[0], 0, m)
        levels = [integer(x, 0, p) for x in cls[1:]]
        ok(all(a <= b for a, b in pairwise(levels)))
        ok(row["side"] in ("upper", "lower") and (fam == "free" or row["side"] == "upper"))
        t = min(levels)
        for l in [p] + levels:
            d = l if basis == "subset" else p - l
            if fam == "affine":  # sum w_p(l) (l - t - 1) < 0
                cw = l - t - 1
            else:  # upper: 2 sum u - (2t+1) sum w < 0; lower: (2t-1) sum w - 2 sum u < 0
                sign = 1 if row["side"] == "upper" else -1
                cu[(p, l)] = cu.get((p, l), Fraction(0)) + sign * 2 * y
                cw = -(2 * t + 1) if sign == 1 else 2 * t - 1
            for j in support:
                cg[j] += y * cw * comb(d, j)
    ok(all(c == 0 for c in cu.values()))
    ok(all(c >= 0 if nonneg else c == 0 for c in cg.values()))


def maximal_cheaper_supports(m: int, rank: int):
    """Every inclusion-maximal S with 0 in S and sum_(j in S) C(m, j) < rank, as bitmasks
    (brute force over the subsets of the elements j >= 1 cheap enough to fit)."""
    if rank <= 1:
        return []
    cheap = [j for j in range(1, m + 1) if 1 + comb(m, j) < rank]
    small(1 << len(cheap) <= MAX_SUPPORT_WALK)
    out = []
    for size in range(len(cheap) + 1):
        for chosen in combinations(cheap, size):
            cost = 1 + sum(comb(m, j) for j in chosen)
            if cost < rank and all(cost + comb(m, j) >= rank for j in cheap if j not in chosen):
                out.append(1 | sum(1 << j for j in chosen))
    return out


# ----------------------------------------------------------------- explicit-head


def explicit_head(doc) -> bool | None:
    header(doc, {"m", "n", "positions", "head", "claims"})
    m, n = integer(doc["m"], 1, 12), integer(doc["n"], 2)
    ok(doc["positions"] == "all")
    small(4**m <= MAX_TABLE_CELLS)
    size = 1 << m
    head = keys(doc["head"], {"phi", "psi", "readout"})
    phi = [[rational(x) for x in a_list(row, nonempty=True)] for row in a_list(head["phi"], size)]
    r = len(phi[0])
    ok(all(len(row) == r for row in phi))
    psi = [[rational(x) for x in a_list(row, r)] for row in a_list(head["psi"], size)]
    readout = readout_table(head["readout"], size)
    claims = keys(doc["claims"], {"worst_error", "worst_input", "feature_rank", "value_dim", "nonnegative_features"})
    weights = kernel_table(phi, psi)
    ok(all(x >= 0 for row in weights for x in row))  # E1: a nonnegative kernel
    worst = extreme_class_input_worst(weights, readout, m, n)
    if size * comb(size + n - 2, n - 1) <= MAX_LITERAL_INPUTS:
        assert literal_worst(weights, readout, m, n) == worst, "the oracle's two routes disagree"
    e = rational(claims["worst_error"])
    ok(e == worst and e < Fraction(1, 2))  # E2, E4
    ok(input_error(claims["worst_input"], m, n, weights, readout) == e)  # E3
    ok(is_int(claims["feature_rank"]) and claims["feature_rank"] == r)
    ok(claims["nonnegative_features"] is all(x >= 0 for row in phi + psi for x in row))
    small(size <= MAX_RANK_SIDE)
    ok(is_int(claims["value_dim"]) and claims["value_dim"] == exact_rank(readout + [[Fraction(1)] * size]) - 1)
    return True


def readout_table(value, size: int) -> list[list[Fraction]]:
    """F(q, z) for the 2^m x 2^m readout: 2^m lists of 2^m rationals, or the packed layout
    {"denominator": D, "encoding": E, "numerators": S} (docs/certificate-format-v2.md, "The
    packed layout of `head/readout`"): D an integer >= 1, E int16-le-base64 or
    int32-le-base64 (b = 2 or 4 bytes an entry), S the standard base64 text (RFC 4648 §4:
    the 64 characters A-Z a-z 0-9 + /, padded with = to a multiple of 4, no line breaks) of
    exactly 4 ceil(b 4^m / 3) characters, decoding to exactly b 4^m bytes: the signed
    little-endian numerators N(q, z) row-major (entry q 2^m + z), F = N / D."""
    if isinstance(value, list):
        return [[rational(x) for x in a_list(row, size)] for row in a_list(value, size)]
    keys(value, {"denominator", "encoding", "numerators"})
    d = integer(value["denominator"], 1)
    b = {"int16-le-base64": 2, "int32-le-base64": 4}.get(value["encoding"]) if isinstance(value["encoding"], str) else None
    ok(b is not None)
    text, count = value["numerators"], b * size * size  # bytes
    ok(isinstance(text, str) and len(text) == 4 * -(-count // 3))
    ok(BASE64.fullmatch(text) is not None)  # the alphabet; padding only at the end
    data = base64.b64decode(text, validate=True)
    ok(len(data) == count)
    ok(base64.b64encode(data).decode("ascii") == text)  # *the* base64 text of the bytes: pad bits 0
    nums = [int.from_bytes(data[i : i + b], "little", signed=True) for i in range(0, count, b)]
    return [[Fraction(x, d) for x in nums[q * size : (q + 1) * size]] for q in range(size)]


def kernel_table(phi: list[list[Fraction]], psi: list[list[Fraction]]) -> list[list[Fraction]]:
    """w_q(z) = <phi_Q(q), psi_K(z)> exactly: integer dot products of the rows scaled by
    their denominators' lcm (one lcm per phi row, one for all of psi), divided back."""
    big = lcm(*(x.denominator for row in psi for x in row))
    psi_int = [[int(x * big) for x in row] for row in psi]
    table = []
    for row in phi:
        s = lcm(*(x.denominator for x in row))
        ints = [int(x * s) for x in row]
        table.append([Fraction(sum(a * b for a, b in zip(ints, pz, strict=True)), s * big) for pz in psi_int])
    return table


def input_error(x, m: int, n: int, weights, readout) -> Fraction:
    """|y - t| at one input: query q, the other n-1 tokens (any order)."""
    keys(x, {"query", "others"})
    q = token(x["query"], m)
    others = [token(z, m) for z in a_list(x["others"], n - 1)]
    den = sum(weights[q][z] for z in [q] + others)
    ok(den > 0)
    y = sum(weights[q][z] * readout[q][z] for z in [q] + others) / den
    return abs(y - min(ip(q, z) for z in others))


# ---------------------------------------------------------- rank-one-infeasible


def rank_one_infeasible(doc) -> bool:
    header(doc, {"m", "n", "positions", "inequalities", "claims"})
    m, n = integer(doc["m"], 1, 64), integer(doc["n"], 2)
    ok(doc["positions"] == "all")
    ok(keys(doc["claims"], {"lower_bound"})["lower_bound"] == 2 and is_int(doc["claims"]["lower_bound"]))
    entries = a_list(doc["inequalities"], nonempty=True)  # an empty sum is 0, not > 0
    small(len(entries) * n <= MAX_ROW_TERMS)
    seen = set()
    cu: dict[tuple[int, int], int] = {}  # coefficient on u(q, z)
    cpsi: dict[int, int] = {}  # coefficient on psi(z)
    for e in entries:
        keys(e, {"query", "others", "side", "multiplier"})
        q = token(e["query"], m)
        others = [token(z, m) for z in a_list(e["others"], n - 1)]
        ok(e["side"] in ("lower", "upper"))
        y = integer(e["multiplier"], 1)
        ident = (q, tuple(sorted(others)), e["side"])  # an input: q and a multiset (F1)
        ok(ident not in seen)
        seen.add(ident)
        t = min(ip(q, z) for z in others)
        if e["side"] == "lower":  # 2 sum u - (2t-1) sum psi > 0
            cu_z, cpsi_z = 2 * y, -(2 * t - 1) * y
        else:  # (2t+1) sum psi - 2 sum u > 0
            cu_z, cpsi_z = -2 * y, (2 * t + 1) * y
        for z in [q] + others:  # the query attends to itself and the n-1 others
            cu[(q, z)] = cu.get((q, z), 0) + cu_z
            cpsi[z] = cpsi.get(z, 0) + cpsi_z
    ok(all(c == 0 for c in cu.values()))  # F2
    ok(all(c <= 0 for c in cpsi.values()))  # F3
    return True


# ------------------------------------------------------- lower-bound, orbit form


KERNELS = ("nonnegative", "signed", "signed-any-denominator")


def nonnegative_restatement(doc) -> dict:
    """A file with the field `kernel` (THEORY L8) as the nonnegative file it restates: the
    kernel must suit the variant; a signed class's claimed bound + 1, no `kernel`."""
    kernel = doc["kernel"]
    ok(kernel in KERNELS and not (kernel == "signed-any-denominator" and doc.get("variant") == "position-dependent"))
    plain = {key: v for key, v in doc.items() if key != "kernel"}
    if kernel != "nonnegative":
        ok(is_int(doc["claims"]["bound"]))
        plain["claims"] = dict(doc["claims"], bound=doc["claims"]["bound"] + 1)
    return plain


def lower_bound(doc) -> bool | None:
    """The v2 form (with `symmetry`), or any form with the field `kernel` ("Signed
    kernels", THEORY L8): a signed file is valid iff the kernel suits the variant and the
    same file stating the nonnegative bound (claimed bound + 1, no `kernel`) is valid.  A
    lower-bound file with neither uses only v1 fields and must declare version 1."""
    if "kernel" in doc:
        plain = nonnegative_restatement(doc)
        if "symmetry" in plain:
            return lower_bound(plain)
        from lab.spec_oracle import judge as judge_v1

        return judge_v1(dict(plain, version=1))
    header(doc, {"m", "n", "variant", "code", "queries", "schedules", "witness", "claims", "symmetry"})
    m, n = integer(doc["m"], 1), integer(doc["n"], 3)
    ok(doc["variant"] in ("position-independent", "position-dependent", "causal"))
    ok(doc["queries"] == "complement")
    ok(keys(doc["witness"], {"rule"})["rule"] == "chains-v1")
    claims = keys(doc["claims"], {"bound", "k", "min_product", "witness_inputs", "code_size", "orbits"})
    perms = [permutation(p, m) for p in a_list(keys(doc["symmetry"], {"permutations"})["permutations"], nonempty=True)]
    ok(len(perms) <= 64)
    words, generator = code_words(doc["code"], m)
    N = len(words)
    ok(N >= 2 and is_int(claims["code_size"]) and claims["code_size"] == N)  # O5: code_size
    small(N * (len(perms) + len(a_list(claims["orbits"], nonempty=True))) <= MAX_WORD_STEPS)
    if generator is not None:  # O1, linear: every permuted generator row in the row space
        basis = echelon(generator)
        ok(all(reduce(apply(p, row), basis) == 0 for p in perms for row in generator))
    code = (ArrayCode if isinstance(words, ArrayCode.array_type()) else ListCode)(words, perms, m)  # O1: words to words
    orbits = claimed_orbits(claims["orbits"], code, m)  # O2, O3
    schedules = schedule_products(doc["schedules"], n)
    gaps = {g for _, _, hist in orbits for g in hist}
    ok(set(schedules) == gaps and min(gaps) >= 2)  # O4: one schedule per occurring gap
    if N * N <= MAX_WORD_STEPS and isinstance(code, ListCode):  # every row's histogram
        by_label = {code.label[i]: hist for i, _, hist in orbits}
        ok(all(code.histogram(c) == by_label[code.label[i]] for i, c in enumerate(words)))
    k = integer(claims["k"], 1)
    s_k = sum(size * cnt * Fraction(1, schedules[g][0] ** (2 * k)) for _, size, hist in orbits for g, cnt in hist.items())
    ok(is_int(claims["bound"]) and claims["bound"] == least_r(k, Fraction(N * N) / (N + s_k)))  # O5
    ok(is_int(claims["min_product"]) and claims["min_product"] == min(schedules[g][0] for g in gaps))
    count = witness_count(orbits, N, words if isinstance(code, ListCode) else None, schedules, doc["variant"], n, m)  # O6
    ok(is_int(claims["witness_inputs"]) and claims["witness_inputs"] == count)
    return True


def permutation(p, m: int) -> list[int]:
    a_list(p, m)
    ok(all(is_int(i) for i in p) and sorted(p) == list(range(m)))
    return p


def apply(p: list[int], c: int) -> int:
    """Bit t of c goes to bit p[t] (the spec's convention), bit by bit."""
    return sum(1 << p[t] for t in range(len(p)) if c >> t & 1)


def permuter(p: list[int]):
    """apply(p, .) through one table per byte: a permutation of bits maps an OR of
    disjoint pieces to the OR of their images."""
    tables = [[apply(p, v << (8 * b)) if 8 * b < len(p) else 0 for v in range(256)] for b in range((len(p) + 7) // 8)]

    def image(c: int) -> int:
        out = 0
        for b, table in enumerate(tables):
            out |= table[(c >> (8 * b)) & 255]
        return out

    return image


def code_words(code, m: int):
    """The code's words (distinct ints, one weight) and the generator rows (linear) or None."""
    ok(isinstance(code, dict) and ("words" in code) != ("linear" in code))
    ok("name" not in code or isinstance(code["name"], str))
    if "words" in code:
        keys(code, {"words"}, {"name"})
        words = [token(c, m) for c in a_list(code["words"])]
        small(len(words) <= MAX_WORDS)
        ok(len(set(words)) == len(words) and len({c.bit_count() for c in words}) == 1)
        return words, None
    keys(code, {"linear"}, {"name"})
    lin = keys(code["linear"], {"generator", "weight"})
    rows = [token(c, m) for c in a_list(lin["generator"], nonempty=True)]
    weight = integer(lin["weight"], 0, m)
    basis = echelon(rows)  # the span, whether or not the rows are independent
    if m <= 64 and 1 << len(basis) > NUMPY_SPAN:
        small(len(basis) <= 24)
        return ArrayCode.span_words(basis, weight), rows
    small(len(basis) <= 21)  # 2^21 words of the span at most
    span = [0]
    for row in basis:
        span += [c ^ row for c in span]
    return sorted(c for c in span if c.bit_count() == weight), rows


def echelon(rows: list[int]) -> list[int]:
    """A basis of the F_2 span, each with a distinct leading bit, reduced in turn."""
    basis: list[int] = []
    for r in rows:
        r = reduce(r, basis)
        if r:
            basis.append(r)
            basis.sort(reverse=True)
    return basis


def reduce(x: int, basis: list[int]) -> int:
    for b in sorted(basis, reverse=True):
        x = min(x, x ^ b)
    return x


class ListCode:
    """The words as Python ints; orbits by union-find over the edges i -- p(i)."""

    def __init__(self, words: list[int], perms, m: int):
        self.words = words
        self.where = {c: i for i, c in enumerate(words)}
        images = [[self.where.get(c) for c in map(permuter(p), words)] for p in perms]
        ok(all(i is not None for img in images for i in img))  # every permuted word is a word
        self.label = components(len(words), images)
        self.sizes = Counter(self.label)

    def index(self, c: int):
        return self.where.get(c)

    def histogram(self, c: int) -> dict[int, int]:
        """count of j != i by gap |c_j minus c_i| = popcount(c_j & ~c)."""
        hist: dict[int, int] = {}
        for d in self.words:
            if d != c:
                g = (d & ~c).bit_count()
                hist[g] = hist.get(g, 0) + 1
        return hist


class ArrayCode:
    """The same for m <= 64 with numpy arrays of uint64 words (exact integer operations):
    permuted words located by binary search in the sorted words, orbits as the connected
    components of the same graph (scipy), histograms by popcount and bincount."""

    @staticmethod
    def array_type():
        import numpy as np

        return np.ndarray

    @staticmethod
    def span_words(basis: list[int], weight: int):
        import numpy as np

        span = np.zeros(1, dtype=np.uint64)
        for row in basis:
            span = np.concatenate([span, span ^ np.uint64(row)])
        return np.sort(span[np.bitwise_count(span) == weight])

    def __init__(self, words, perms, m: int):
        import numpy as np
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        self.words, self.m, N = words, m, len(words)
        rows, cols = [], []
        for p in perms:
            image = np.zeros_like(words)
            for b in range((m + 7) // 8):
                table = np.array([apply(p, v << (8 * b)) for v in range(256)], dtype=np.uint64)
                image |= table[((words >> np.uint64(8 * b)) & np.uint64(255)).astype(np.intp)]
            at = np.minimum(np.searchsorted(words, image), N - 1)
            ok(bool(np.all(words[at] == image)))  # every permuted word is a word
            rows.append(np.arange(N))
            cols.append(at)
        graph = coo_matrix((np.ones(N * len(perms), dtype=np.int8), (np.concatenate(rows), np.concatenate(cols))), shape=(N, N))
        _, self.label = connected_components(graph.tocsr(), directed=False)
        self.sizes = dict(enumerate(np.bincount(self.label).tolist()))

    def index(self, c: int):
        import numpy as np

        if c >= 1 << self.m:
            return None
        i = int(np.searchsorted(self.words, np.uint64(c)))
        return i if i < len(self.words) and int(self.words[i]) == c else None

    def histogram(self, c: int) -> dict[int, int]:
        import numpy as np

        others = self.words[self.words != np.uint64(c)]
        counts = np.bincount(np.bitwise_count(others & np.uint64(~c & ((1 << self.m) - 1))))
        return {g: int(x) for g, x in enumerate(counts.tolist()) if x}


def components(N: int, images: list[list[int]]) -> list[int]:
    """Orbit label of every word: connected components of the graph i -- p(i)."""
    parent = list(range(N))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for img in images:
        for i, j in enumerate(img):
            a, b = root(i), root(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return [root(i) for i in range(N)]


def claimed_orbits(entries, code, m):
    """O2, O3: each representative opens a new orbit of the claimed size; together they
    cover the code; each gap list is the representative's histogram in increasing order.
    Returns (word index, orbit size, histogram) per orbit."""
    out, used = [], set()
    for e in entries:
        keys(e, {"representative", "size", "gaps"})
        c = token(e["representative"], m)
        i = code.index(c)
        ok(i is not None and int(code.label[i]) not in used)
        used.add(int(code.label[i]))
        ok(is_int(e["size"]) and e["size"] == code.sizes[int(code.label[i])])
        hist = code.histogram(c)
        listed = [keys(x, {"gap", "count"}) for x in a_list(e["gaps"])]
        ok(all(is_int(x["gap"]) and is_int(x["count"]) for x in listed))
        ok([(x["gap"], x["count"]) for x in listed] == sorted(hist.items()))
        out.append((i, e["size"], hist))
    ok(len(used) == len(code.sizes))
    return out


def schedule_products(entries, n: int) -> dict[int, tuple[int, list[int]]]:
    """gap -> (P(gap), levels): levels 0 = l_0 < ... < l_k = gap, links >= 2, one per gap."""
    out = {}
    for s in a_list(entries, nonempty=True):
        keys(s, {"gap", "levels"})
        gap = integer(s["gap"])
        levels = a_list(s["levels"])
        ok(all(is_int(x) for x in levels) and len(levels) >= 2 and levels[0] == 0 and levels[-1] == gap)
        links = [b - a for a, b in pairwise(levels)]
        ok(all(d >= 2 for d in links) and gap not in out)
        product = 1
        for d in links:
            product *= (n - 2) * (d - 1)
        out[gap] = (product, levels)
    return out


def witness_count(orbits, N, words, schedules, variant, n, m) -> int:
    """|W| (rule chains-v1, v1 B5) row by row from each row's distinct keys (the N words and
    the interior levels' intermediates) and distinct links (prefix level pairs and N-1 final
    links); for small families also literally, as a set of n-tuples."""
    placements = n - 1 if variant == "position-dependent" else 1
    total = 0
    for _, size, hist in orbits:
        chains = [schedules[g][1] for g in hist]
        interior = {l for levels in chains for l in levels[1:-1]}
        prefix = {pair for levels in chains for pair in zip(levels[:-2], levels[1:-1], strict=True)}
        total += size * (N + len(interior) + placements * (len(prefix) + N - 1))
    if total <= MAX_LITERAL_INPUTS and words is not None:
        ok(total == len(literal_family(words, schedules, variant, n, m)))
    return total


def literal_family(words, schedules, variant, n, m):
    """Every input of W for every row and pair, as n-tuples of ints."""
    full = (1 << m) - 1
    family = set()
    for c in words:
        q = full & ~c
        bits = [b for b in range(m) if q >> b & 1]
        for d in words:
            if d == c:
                continue
            levels = schedules[(d & q).bit_count()][1]
            chain = [c] + [sum(1 << b for b in bits[:l]) for l in levels[1:-1]] + [d]
            for z in chain:
                family.add(arrange(q, [z] * (n - 1), variant))
            for a, b in pairwise(chain):
                for pos in range(n - 1 if variant == "position-dependent" else 1):
                    keys_ = [b] * (n - 1)
                    keys_[pos] = a
                    family.add(arrange(q, keys_, variant))
    return family


def arrange(q, keys_, variant):
    return tuple(keys_) + (q,) if variant == "causal" else (q,) + tuple(keys_)


def direct_sum(doc) -> bool | None:
    """Kind direct-sum (docs/certificate-format-v2.md, DS1-DS5), from the spec: each component
    judged as an orbit form (O1-O3) with every gap >= 2; the sum's pair counts by convolving
    the components' whole pair histograms (sum over orbits of |O| times the row, plus N at gap
    0); the witness family row by row, grouping rows by their gap set with a dynamic program
    over the copies (sumsets), not by orbits.  A signed file is judged by its nonnegative
    restatement (claimed bound + 1), as for lower-bound."""
    if "kernel" in doc:
        return direct_sum(nonnegative_restatement(doc))
    header(doc, {"m", "n", "variant", "queries", "components", "schedules", "witness", "claims"})
    m, n = integer(doc["m"], 1), integer(doc["n"], 3)
    ok(doc["variant"] in ("position-independent", "position-dependent", "causal") and doc["queries"] == "complement")
    ok(keys(doc["witness"], {"rule"})["rule"] == "chains-v1")
    claims = keys(doc["claims"], {"bound", "k", "min_product", "witness_inputs", "code_size"})
    comps = a_list(doc["components"], nonempty=True)
    ok(len(comps) <= 16)
    seen, parts = [], []  # parts: (copies, N_c, [(size, hist)])
    for comp in comps:
        keys(comp, {"m", "copies", "code", "symmetry", "claims"})
        ok((comp["m"], comp["code"], comp["symmetry"]) not in seen)
        seen.append((comp["m"], comp["code"], comp["symmetry"]))
        mc, copies = integer(comp["m"], 1), integer(comp["copies"], 1, 64)
        cc = keys(comp["claims"], {"code_size", "orbits"})
        perms = [permutation(p, mc) for p in a_list(keys(comp["symmetry"], {"permutations"})["permutations"], nonempty=True)]
        ok(len(perms) <= 64)
        words, generator = code_words(comp["code"], mc)
        ok(len(words) >= 2 and is_int(cc["code_size"]) and cc["code_size"] == len(words))
        small(len(words) * (len(perms) + len(a_list(cc["orbits"], nonempty=True))) <= MAX_WORD_STEPS)
        if generator is not None:
            basis = echelon(generator)
            ok(all(reduce(apply(p, row), basis) == 0 for p in perms for row in generator))
        code = (ArrayCode if isinstance(words, ArrayCode.array_type()) else ListCode)(words, perms, mc)
        orbits = claimed_orbits(cc["orbits"], code, mc)
        ok(all(min(hist) >= 2 for _, _, hist in orbits))  # DS1: a code of gap >= 2
        parts.append((mc, copies, len(words), [(size, hist) for _, size, hist in orbits]))
    ok(sum(mc * copies for mc, copies, _, _ in parts) == m)
    N = 1
    whole: dict[int, int] = {0: 1}  # the sum's ordered pairs by gap, the diagonal included
    states: dict[frozenset, int] = {frozenset({0}): 1}  # a row's gap set (with 0) -> rows
    for _, copies, size, orbits in parts:
        pairs = Counter({0: size})
        for o_size, hist in orbits:
            for g, c in hist.items():
                pairs[g] += o_size * c
        for _ in range(copies):
            N *= size
            nxt: Counter = Counter()
            for a, x in whole.items():
                for b, y in pairs.items():
                    nxt[a + b] += x * y
            whole = dict(nxt)
            grown: Counter = Counter()
            for gaps, rows in states.items():
                for o_size, hist in orbits:
                    grown[frozenset(a + b for a in gaps for b in (0, *hist))] += rows * o_size
            states = dict(grown)
            small(len(states) <= 100_000)
    ok(whole.pop(0) == N and is_int(claims["code_size"]) and claims["code_size"] == N)
    schedules = schedule_products(doc["schedules"], n)
    ok(set(schedules) == set(whole) and min(whole) >= 2)  # DS3
    k = integer(claims["k"], 1)
    s_k = sum(Fraction(c, schedules[g][0] ** (2 * k)) for g, c in whole.items())
    x = Fraction(N * N) / (N + s_k)
    lo, hi = 1, 1  # DS4: the least r with C(r+k-1, k) > x, by doubling and bisection
    while comb(hi + k - 1, k) <= x:
        lo, hi = hi + 1, 2 * hi
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if comb(mid + k - 1, k) > x else (mid + 1, hi)
    ok(is_int(claims["bound"]) and claims["bound"] == lo)
    ok(is_int(claims["min_product"]) and claims["min_product"] == min(schedules[g][0] for g in whole))
    placements = n - 1 if doc["variant"] == "position-dependent" else 1
    total = 0
    for gaps, rows in states.items():  # DS5: the constant-weight row count of each row
        chains = [schedules[g][1] for g in gaps if g]
        interior = {l for levels in chains for l in levels[1:-1]}
        prefix = {pair for levels in chains for pair in zip(levels[:-2], levels[1:-1], strict=True)}
        total += rows * (N + len(interior) + placements * (len(prefix) + N - 1))
    ok(is_int(claims["witness_inputs"]) and claims["witness_inputs"] == total)
    return True


# ------------------------------------------------------- multi-block-level-family


def multi_block_level_family(doc) -> bool | None:
    """Kind multi-block-level-family (docs/certificate-format-v2.md, MB1-MB8), from the spec."""
    header(doc, {"m", "n", "positions", "blocks", "terms", "readout", "claims"})
    m, n = integer(doc["m"], 1), integer(doc["n"], 2)
    ok(doc["positions"] == "all")
    blocks = [integer(h, 1) for h in a_list(doc["blocks"], nonempty=True)]
    ok(len(blocks) <= 64 and sum(blocks) == m)  # MB1
    terms = {}
    for t in a_list(doc["terms"]):
        keys(t, {"degrees", "g"})
        J = tuple(integer(a, 0) for a in a_list(t["degrees"], len(blocks)))
        ok(all(a <= h for a, h in zip(J, blocks, strict=True)) and (not terms or J > max(terms)))  # MB2
        terms[J] = rational(t["g"])
        ok(terms[J] != 0)
    r = keys(doc["readout"], {"type", "eps"})
    ok(r["type"] == "affine")
    eps = rational(r["eps"])
    ok(0 < eps < 1)  # MB6
    claims = keys(doc["claims"], {"worst_error", "feature_rank", "kernel_rank", "nonnegative_features"})
    points = [()]
    for h in blocks:
        points = [x + (v,) for x in points for v in range(h + 1)]
    small(len(points) * len(terms) <= 4_000_000)
    H = {x: sum((g * _prod(comb(a, b) for a, b in zip(x, J, strict=True)) for J, g in terms.items()), Fraction(0)) for x in points}
    ok(all(v > 0 for v in H.values()))  # MB3
    ok(claims["nonnegative_features"] is all(g > 0 for g in terms.values()))  # MB4
    rank = sum(_prod(comb(h, a) for h, a in zip(blocks, J, strict=True)) for J in terms)
    ok(is_int(claims["feature_rank"]) and claims["feature_rank"] == rank and is_int(claims["kernel_rank"]) and claims["kernel_rank"] == rank)  # MB7
    g0 = H[tuple(0 for _ in blocks)]
    hi = lo = None
    for X in points:
        S = sum(X)
        free = [(H[U] * (S - sum(U)), H[U]) for U in points if sum(U) <= S]
        if n == 3:  # every pair, one by one
            small(len(points) * len(points) <= MAX_BOX_PAIRS)
            ratios = [(g0 * S + a) / (g0 + H[X] + b) for a, b in free]
            hi = max([hi] + ratios) if hi is not None else max(ratios)
            lo = min([lo] + ratios) if lo is not None else min(ratios)
        else:
            top = ratio_max((g0 * S, g0), [(0, H[X])], free, n)
            bottom = -ratio_max((-g0 * S, g0), [(0, H[X])], [(-a, b) for a, b in free], n)
            hi = top if hi is None else max(hi, top)
            lo = bottom if lo is None else min(lo, bottom)
    worst = max(abs(hi - Fraction(1, 2) + eps), abs(lo - Fraction(1, 2) + eps))  # MB5
    ok(rational(claims["worst_error"]) == worst and worst < Fraction(1, 2))
    if m <= 8:
        starts = [sum(blocks[:i]) for i in range(len(blocks))]
        counts = lambda t: tuple(((t >> s) & ((1 << h) - 1)).bit_count() for s, h in zip(starts, blocks, strict=True))  # noqa: E731
        sets = [(t, terms[counts(t)]) for t in range(1 << m) if counts(t) in terms]
        kernel = [[sum((g for t, g in sets if t & ~q == 0 and t & z == 0), Fraction(0)) for z in range(1 << m)] for q in range(1 << m)]
        ok(exact_rank(kernel) == rank)
        if m <= 6 and (1 << m) * comb((1 << m) + n - 2, n - 1) <= MAX_LITERAL_INPUTS:  # MB8
            values = [[ip(q, z) - Fraction(1, 2) + eps for z in range(1 << m)] for q in range(1 << m)]
            ok(literal_worst(kernel, values, m, n) == worst)
    return True


def _prod(items) -> int:
    out = 1
    for x in items:
        out *= x
    return out


JUDGES = {
    "direct-sum": direct_sum,
    "level-family": level_family,
    "explicit-head": explicit_head,
    "rank-one-infeasible": rank_one_infeasible,
    "lower-bound": lower_bound,
    "multi-block-level-family": multi_block_level_family,
}
