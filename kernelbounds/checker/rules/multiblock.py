"""Rule `multi-block-level-family` (format v2): a multi-block level family solves Min-IP at
every position of every length-n input (THEORY §2 U8; docs/certificate-format-v2.md).

The m coordinates are split into blocks of sizes h_1..h_b (block i is the next h_i bits).
For a query q and a key z put x_i = |q_i minus z_i| inside block i; the kernel is
H(x) = sum_{J in S} g_J prod_i C(x_i, J_i), the readout F = <q, z> - 1/2 + eps.  Checked facts:
  MB1 blocks: every h_i >= 1, sum h_i = m;
  MB2 terms: 0 <= J_i <= h_i (the box), listed in increasing order, g_J != 0;
  MB3 H(x) > 0 at every point x of the box prod_i [0, h_i] (every point occurs: q = all
      ones), so the kernel is positive and every denominator is > 0;
  MB4 nonnegative_features = (every g_J >= 0): phi_T(q) = g_J [T inside q] >= 0 iff so;
  MB5 the worst error over every input, from the class pairs (X, U) of the box with
      |U| <= |X|: for a fixed X and total s = |U| the error is monotone in H(U), so the
      largest and least H(U) of each total stand for every U of that total;
  MB6 0 < eps < 1;
  MB7 feature_rank = kernel_rank = sum_{J in S} prod_i C(h_i, J_i) (the kernel matrix is
      A diag(g) B^T with A = [T inside q], B = [T inside comp(z)]: columns of invertible
      zeta matrices);
  MB8 (m <= LITERAL_M, few inputs) the literal head: explicit features on every input give
      the same worst error, and FLINT's exact rank of the 2^m x 2^m kernel is the rank.
Trusted base: imports nothing outside the checker.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import comb, prod

from .. import claims as claim_of
from ..common import Outcome, expect_equal, rat, require_version
from ..errors import Invalid, Malformed
from ..jsonread import Node
from ..limits import Limits, exhaustive_inputs, require
from ..rational import scale_to_ints
from ..text import show

HALF = Fraction(1, 2)
KIND = "multi-block-level-family"
MAX_BLOCKS = 64
LITERAL_M = 6  # MB8 up to this m (and exhaustive_inputs)


class Family:
    """The family a file describes, read strictly (MB1, MB2, MB6)."""

    def __init__(self, doc: Node, limits: Limits):
        self.m = m = doc["m"].int(1, limit=limits.max_m)
        self.n = doc["n"].int(2, limit=limits.max_n)
        bnode = doc["blocks"]
        self.blocks = [x.int(1, m) for x in bnode.list(MAX_BLOCKS)]
        if not self.blocks:
            raise Malformed(bnode.pointer, "at least one block")
        if sum(self.blocks) != m:
            raise Invalid(bnode.pointer, f"the block sizes sum to {sum(self.blocks)}, not m = {m}")
        self.points = prod(h + 1 for h in self.blocks)
        require(self.points * (m + 1) <= limits.max_level_classes, bnode.pointer, "the class pairs checked, points x (m + 1)", self.points * (m + 1), limits.max_level_classes)
        tnode = doc["terms"]
        self.degrees: list[tuple[int, ...]] = []
        self.g: list[Fraction] = []
        self.nodes = tnode.list(min(self.points, limits.max_list))
        for node in self.nodes:
            node.obj({"degrees", "g"})
            items = node["degrees"].list(len(self.blocks), length=len(self.blocks))
            J = tuple(x.int(0) for x in items)
            for i, (a, h) in enumerate(zip(J, self.blocks, strict=True)):
                if a > h:
                    raise Invalid(items[i].pointer, f"degree {a} > h_{i} = {h}: C(x_i, {a}) = 0 on the whole box, so the term is no feature")
            if self.degrees and J <= self.degrees[-1]:
                raise Malformed(node["degrees"].pointer, "the terms must be listed in strictly increasing order of their degrees (lexicographic)")
            g = node["g"].rational()
            if g == 0:
                raise Malformed(node["g"].pointer, "list only the terms with g_J != 0")
            self.degrees.append(J)
            self.g.append(g)
        ro = doc["readout"].obj({"type", "eps"})
        ro["type"].str(("affine",))
        self.eps = ro["eps"].rational()
        if not 0 < self.eps < 1:
            raise Invalid(ro["eps"].pointer, f"eps = {rat(self.eps)} must lie in (0, 1)")

    def box(self) -> list[tuple[int, ...]]:
        """Every point x of prod_i [0, h_i], in lexicographic order."""
        return list(product(*(range(h + 1) for h in self.blocks)))

    def kernel(self) -> tuple[list[int], dict[tuple[int, ...], int]]:
        """(G, {x: L H(x)}) with G = L g integers, L > 0 the lcm of g's denominators."""
        G, _ = scale_to_ints(self.g)
        binoms = [[[comb(x, a) for a in range(h + 1)] for x in range(h + 1)] for h in self.blocks]
        values = {}
        for x in self.box():
            total = 0
            for J, c in zip(self.degrees, G, strict=True):
                f = 1
                for i, a in enumerate(J):
                    f *= binoms[i][x[i]][a]
                    if not f:
                        break
                if f:
                    total += c * f
            values[x] = total
        return G, values

    def rank(self) -> int:
        return sum(prod(comb(h, a) for h, a in zip(self.blocks, J, strict=True)) for J in self.degrees)


def worst(fam: Family, H: dict[tuple[int, ...], int]) -> tuple[Fraction, tuple[tuple[int, ...], tuple[int, ...]]]:
    """(the worst |y - t| over every input, a class pair (X, U) attaining it), MB5.

    For a query q, its own key (x = 0, weight g_0 = H(0)), the key X of largest total |X|
    (the least level t = |q| - |X|) and n - 2 free keys U_k with |U_k| <= |X|:
    y - t = (g_0 |X| + sum_k H(U_k)(|X| - |U_k|)) / (g_0 + H(X) + sum_k H(U_k)) - 1/2 + eps.
    The largest and least ratio over the free keys are attained with all free keys at one
    U (LF3x's argument: a sum of one term per key), and for fixed X and s = |U| the ratio
    (a + b h)/(c + d h), h = H(U) > 0, c > 0, is monotone in h: its extremes are at the
    largest and least H of total s.  Every pair (X, U) occurs (q = all ones)."""
    n, m = fam.n, fam.m
    free = n - 2
    top: dict[int, tuple[int, tuple[int, ...]]] = {}
    low: dict[int, tuple[int, tuple[int, ...]]] = {}
    for x, h in H.items():
        s = sum(x)
        if s not in top or h > top[s][0]:
            top[s] = (h, x)
        if s not in low or h < low[s][0]:
            low[s] = (h, x)
    g0 = H[tuple(0 for _ in fam.blocks)]
    zero = tuple(0 for _ in fam.blocks)
    hi_num, hi_den, hi_at = 0, 1, (zero, zero)
    lo_num, lo_den, lo_at = 0, 1, (zero, zero)
    for X, hx in H.items():
        S = sum(X)
        for s in range(min(S, m) + 1 if free else 1):
            for hu, U in (top[s], low[s]) if free else ((0, zero),):
                num = g0 * S + free * (S - s) * hu
                den = g0 + hx + free * hu
                if num * hi_den > hi_num * den:
                    hi_num, hi_den, hi_at = num, den, (X, U)
                if num * lo_den < lo_num * den:
                    lo_num, lo_den, lo_at = num, den, (X, U)
    shift = fam.eps - HALF
    upper, lower = Fraction(hi_num, hi_den) + shift, Fraction(lo_num, lo_den) + shift
    return (abs(upper), hi_at) if abs(upper) >= abs(lower) else (abs(lower), lo_at)


# ---------------------------------------------------------------- MB8: the literal head


def literal_applies(m: int, n: int, limits: Limits) -> bool:
    return m <= LITERAL_M and exhaustive_inputs(m, n) <= limits.exhaustive_inputs


def literal_kernel(fam: Family, G: list[int]) -> list[list[int]]:
    """[L a(q, z)] from the explicit features phi_T(q) = G_J(T) [T inside q],
    psi_T(z) = [T disjoint from z], T over the subsets whose block counts J(T) are a term."""
    masks, start = [], 0
    for h in fam.blocks:
        masks.append(((1 << h) - 1) << start)
        start += h
    coef = dict(zip(fam.degrees, G, strict=True))
    sets = [(t, coef[J]) for t in range(2**fam.m) if (J := tuple((t & b).bit_count() for b in masks)) in coef]
    return [[sum(c for t, c in sets if t & ~q == 0 and t & z == 0) for z in range(2**fam.m)] for q in range(2**fam.m)]


def literal_worst(fam: Family, K: list[list[int]]) -> Fraction:
    """The worst |y - t| of the literal head (readout <q, z> - 1/2 + eps) over every query
    and every multiset of n - 1 other tokens."""
    tokens = range(2**fam.m)
    worst_err = Fraction(-1)
    for q in tokens:
        row = K[q]
        lev = [(q & z).bit_count() for z in tokens]
        for others in combinations_with_replacement(tokens, fam.n - 1):
            keys = (q, *others)
            den = sum(row[z] for z in keys)
            if den <= 0:
                raise Invalid("/terms", f"the literal kernel's denominator is {show(den)} at query {q} with keys {others}")
            t = min(lev[z] for z in keys)
            err = abs(Fraction(sum(row[z] * lev[z] for z in keys), den) - HALF + fam.eps - t)
            if err > worst_err:
                worst_err = err
    return worst_err


# ---------------------------------------------------------------- work and check


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj({"format", "version", "kind", "m", "n", "positions", "blocks", "terms", "readout", "claims"})
    require_version(doc, doc["kind"], 2, f"the kind {KIND}")
    doc["positions"].str(("all",))
    fam = Family(doc, limits)
    claims = doc["claims"].obj({"worst_error", "feature_rank", "kernel_rank", "nonnegative_features"})
    routes: list[str] = []
    G, H = fam.kernel()
    for x, hx in H.items():  # MB3
        if hx <= 0:
            raise Invalid("/terms", f"H{x} = {rat(Fraction(hx, scale_to_ints(fam.g)[1]))} is not > 0, and the point x = {x} occurs (q all ones)")
    nonneg = all(g > 0 for g in fam.g)  # MB4 (every listed g is != 0)
    claimed = claims["nonnegative_features"].bool()
    if claimed and not nonneg:
        k = next(k for k, g in enumerate(fam.g) if g < 0)
        raise Invalid(fam.nodes[k]["g"].pointer, f"claims nonnegative features, but g_{fam.degrees[k]} = {rat(fam.g[k])} < 0 makes phi_T(q) negative")
    expect_equal(claims["nonnegative_features"], claimed, nonneg, "nonnegative_features (every g_J >= 0)")
    err, (X, U) = worst(fam, H)  # MB5
    expect_equal(claims["worst_error"], claims["worst_error"].rational(), err, "the worst error")
    if err >= HALF:
        raise Invalid("/claims/worst_error", f"worst error {rat(err)} >= 1/2 at the class pair X = {X}, U = {U}: the head does not solve length {fam.n}")
    routes.append(f"class pairs: {fam.points} points of the box {' x '.join(f'[0, {h}]' for h in fam.blocks)}, every (X, U) with |U| <= |X| by the extremes of H per total; worst error {rat(err)} at X = {X}, U = {U}")
    rank = fam.rank()  # MB7
    expect_equal(claims["feature_rank"], claims["feature_rank"].int(0), rank, "the feature rank sum_J prod_i C(h_i, J_i)")
    expect_equal(claims["kernel_rank"], claims["kernel_rank"].int(0), rank, "the kernel rank sum_J prod_i C(h_i, J_i)")
    if literal_applies(fam.m, fam.n, limits):  # MB8
        import flint

        K = literal_kernel(fam, G)
        literal = literal_worst(fam, K)
        if literal != err:
            raise Invalid("/claims/worst_error", f"the literal head's worst error over every input is {rat(literal)}, not {rat(err)}")
        r = flint.fmpz_mat(K).rank()
        expect_equal(claims["kernel_rank"], rank, r, "the kernel rank (FLINT exact rank of the explicit kernel)")
        routes.append(f"literal: explicit features on all {exhaustive_inputs(fam.m, fam.n)} inputs agree; FLINT rank of the {2**fam.m} x {2**fam.m} kernel is {r}")
    else:
        routes.append("literal: skipped (m > 6 or over the exhaustive_inputs limit)")
    shape = "+".join(map(str, fam.blocks))
    summary = (f"multi-block level family (m={fam.m}, n={fam.n}): blocks {shape}, {len(fam.g)} terms, affine readout (eps = {rat(fam.eps)}), "
               f"{rank} {'nonnegative' if nonneg else 'signed'} features solve Min-IP at every position of every length-{fam.n} input, worst error {rat(err)} < 1/2")
    return Outcome(summary, routes, version=2, claim=claim_of.upper(rank, fam.m, fam.n, nonneg, None, family={"basis": "complement", "readout": "affine", "blocks": shape}))
