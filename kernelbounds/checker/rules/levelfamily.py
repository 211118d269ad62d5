"""Rule `level-family` (format v2): a U4 level construction solves Min-IP at length n,
and optionally it is the least rank of its family (THEORY §2 U4).

The weight of a key at level l for a query of weight p is w(d) = sum_j g_j C(d, j) with
d = l (subset basis) or d = p - l (complement basis); the readout is F = l - 1/2 + eps
(affine) or a table f_p(l) (free).  Checked facts (docs/certificate-format-v2.md):
  LF1 w(d) > 0 for d = 0..m (every (p, l) occurs, and d takes every value 0..m);
  LF2 nonnegative_features = (every g_j >= 0): the features g_|T| [T ⊆ q] and
      [T ⊆ z] or [T ∩ z = ∅] are then >= 0, and a negative g_j gives a negative entry;
  LF3 every level class: |y - t| <= worst_error, attained, and worst_error < 1/2;
  LF3x the same numbers from the O(m^2) extreme classes (complement basis, affine readout;
      the reduction is proved in rules/extremeclasses.py and the spec), with LF3 as a
      second route when there are at most CROSS_CLASSES level classes;
  LF4 readout: 0 < eps < 1, or the table's shape and value_dim = sum_{i<=D} C(m, i);
  LF5 support = {j : g_j != 0}; feature_rank = kernel_rank = sum_{j in support} C(m, j)
      (A diag(g) B^T with unitriangular inclusion matrices); FLINT's exact rank of the
      2^m x 2^m kernel built from the explicit features when m <= rank_m;
  LF6 the literal head (explicit features, literal readout) on every input, when small;
  LF7 (optional) minimality: exact Motzkin multipliers refute every listed cheaper
      support, and every support of smaller cost is contained in a listed one.
"""

from __future__ import annotations


from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, isqrt

from ..common import Outcome, expect_equal, rat, require_version
from ..rational import differences, scale_to_ints
from ..sizes import row_height
from .. import claims as claim_of
from ..errors import Invalid, Malformed
from ..jsonread import Node
from ..limits import Limits, exhaustive_inputs, require
from . import extremeclasses

HALF = Fraction(1, 2)
EXPLICIT_M = 6  # build the kernel from explicit features up to this m
FLINT_M = 8  # FLINT rank of the 2^m x 2^m kernel up to min(this, rank_m)
CROSS_CLASSES = 10_000  # LF3x files also enumerate every level class up to this many (a second route)


def _dist(basis: str, p: int, l: int) -> int:
    return l if basis == "subset" else p - l


class Head:
    """The head a level-family file describes, read strictly."""

    def __init__(self, doc: Node, limits: Limits):
        self.m = m = doc["m"].int(1, limit=limits.max_m)
        self.n = doc["n"].int(2, limit=limits.max_n)
        self.basis = doc["basis"].str(("subset", "complement"))
        self.gnode = doc["differences"]
        self.g = [x.rational() for x in self.gnode.list(m + 1, length=m + 1)]
        ro = doc["readout"]
        self.readout = ro["type"].str(("affine", "free"))
        if self.readout == "affine":
            ro.obj({"type", "eps"})
            self.eps = ro["eps"].rational()
            if not 0 < self.eps < 1:
                raise Invalid(ro["eps"].pointer, f"eps = {rat(self.eps)} must lie in (0, 1)")
            self._f: list[list[Fraction]] | None = None  # the affine table, built only when a route reads it (LF3, LF6)
        else:
            ro.obj({"type", "table", "value_dim"})
            rows = ro["table"].list(m + 1, length=m + 1)
            self._f = [[x.rational() for x in r.list(p + 1, length=p + 1)] for p, r in enumerate(rows)]
            self.diffs = [differences(r) for r in self._f]
            top = max((i for r in self.diffs for i, a in enumerate(r) if a != 0), default=0)
            self.top = top
            self.dv = sum(comb(m, i) for i in range(top + 1))
            expect_equal(ro["value_dim"], ro["value_dim"].int(1), self.dv, f"value_dim = sum_(i <= {top}) C(m, i)")
        self.support = [j for j, gj in enumerate(self.g) if gj != 0]
        self.w = [sum((self.g[j] * comb(d, j) for j in self.support), Fraction(0)) for d in range(m + 1)]  # g_j = 0 adds nothing

    @property
    def f(self) -> list[list[Fraction]]:
        """The readout table F(p, l), 0 <= l <= p <= m (affine: l - 1/2 + eps, built on first use:
        the extreme-class route LF3x needs only eps)."""
        if self._f is None:
            self._f = [[l - HALF + self.eps for l in range(p + 1)] for p in range(self.m + 1)]
        return self._f

    def weight(self, p: int, l: int) -> Fraction:
        return self.w[_dist(self.basis, p, l)]

    # ---- LF3
    def worst_by_classes(self) -> tuple[Fraction, tuple[int, ...]]:
        worst, witness = Fraction(-1), tuple[int, ...]()
        for p in range(self.m + 1):
            wp = [self.weight(p, l) for l in range(p + 1)]
            up = [wp[l] * self.f[p][l] for l in range(p + 1)]
            for levels in combinations_with_replacement(range(p + 1), self.n - 1):
                den = wp[p] + sum(wp[l] for l in levels)
                err = abs((up[p] + sum(up[l] for l in levels)) / den - levels[0])
                if err > worst:
                    worst, witness = err, (p, *levels)
        return worst, witness

    # ---- LF5/LF6: the literal head
    def kernel_row(self, q: int) -> list[int]:
        """[a(q, z) * D for every z]: from explicit features phi_T(q) = g_|T| [T ⊆ q],
        psi_T(z) = [T ⊆ z] or [T ∩ z = ∅] when m <= EXPLICIT_M, else from the formula."""
        m = self.m
        scaled, _ = scale_to_ints(self.g)
        if m <= EXPLICIT_M:
            sets = [t for t in range(2**m) if scaled[t.bit_count()] != 0]
            phi = [scaled[t.bit_count()] if t & ~q == 0 else 0 for t in sets]
            if self.basis == "subset":
                return [sum(a for a, t in zip(phi, sets, strict=True) if t & ~z == 0) for z in range(2**m)]
            return [sum(a for a, t in zip(phi, sets, strict=True) if t & z == 0) for z in range(2**m)]
        per = [sum(gj * comb(d, j) for j, gj in enumerate(scaled)) for d in range(m + 1)]
        p = q.bit_count()
        return [per[_dist(self.basis, p, (q & z).bit_count())] for z in range(2**m)]

    def score_row(self, q: int) -> list[Fraction]:
        """F(q, z) for every z: the literal readout (free: sum over S ⊆ q, |S| <= D of
        a_(|q|,|S|) [S ⊆ z], i.e. L_q applied to the value vector v(z)_S = [S ⊆ z])."""
        m = self.m
        if self.readout == "affine":
            return [(q & z).bit_count() - HALF + self.eps for z in range(2**m)]
        a = self.diffs[q.bit_count()]
        sets = [s for s in range(2**m) if s & ~q == 0 and s.bit_count() <= self.top and s.bit_count() < len(a) and a[s.bit_count()] != 0]
        return [sum((a[s.bit_count()] for s in sets if s & ~z == 0), Fraction(0)) for z in range(2**m)]

    def worst_exhaustive(self) -> Fraction:
        tokens = range(2**self.m)
        worst = Fraction(-1)
        for q in tokens:
            k = self.kernel_row(q)
            f, e = scale_to_ints(self.score_row(q))
            kf = [a * b for a, b in zip(k, f, strict=True)]
            lev = [(q & z).bit_count() for z in tokens]
            for others in combinations_with_replacement(tokens, self.n - 1):
                den = k[q] + sum(k[z] for z in others)
                if den <= 0:
                    raise Invalid("/differences", f"the literal kernel's denominator is {den} at query {q} with keys {others}")
                t = min([lev[z] for z in others] + [q.bit_count()])
                err = Fraction(abs(kf[q] + sum(kf[z] for z in others) - t * e * den), e * den)
                if err > worst:
                    worst = err
        return worst


def _check_signs(head: Head, claims: Node) -> bool:
    nonneg = all(x >= 0 for x in head.g)
    claimed = claims["nonnegative_features"].bool()
    if claimed and not nonneg:
        j = next(j for j, x in enumerate(head.g) if x < 0)
        raise Invalid(head.gnode[j].pointer, f"claims nonnegative features, but g_{j} = {rat(head.g[j])} < 0 makes phi_T(q) negative for |T| = {j}")
    expect_equal(claims["nonnegative_features"], claimed, nonneg, "nonnegative_features (every g_j >= 0)")
    return nonneg


def _check_ranks(head: Head, claims: Node, limits: Limits, routes: list[str]) -> int:
    m = head.m
    sup = claims["support"]
    listed = [x.int(0, m) for x in sup.list(m + 1)]
    if listed != head.support:
        missing = sorted(set(head.support) ^ set(listed))
        raise Invalid(sup.pointer, f"claims support {listed}, but g_j != 0 exactly for j in {head.support} (differs at j = {missing[0] if missing else '?'})")
    rank = sum(comb(m, j) for j in head.support)
    expect_equal(claims["feature_rank"], claims["feature_rank"].int(0), rank, "the feature rank sum_{g_j != 0} C(m, j)")
    expect_equal(claims["kernel_rank"], claims["kernel_rank"].int(0), rank, "the kernel rank sum_{g_j != 0} C(m, j)")
    if flint_units(head.gnode.value, m, limits) is not None:  # the same decision as work()
        import flint

        r = flint.fmpz_mat([head.kernel_row(q) for q in range(2**m)]).rank()
        expect_equal(claims["kernel_rank"], rank, r, "the kernel rank (FLINT exact rank of the explicit kernel)")
        routes.append(f"FLINT: exact rank of the {2**m} x {2**m} kernel matrix (explicit features) is {r}")
    elif m <= min(FLINT_M, limits.rank_m):
        routes.append(f"FLINT: skipped (the exact rank of the {2**m} x {2**m} kernel at these heights would pass a third of the work budget)")
    routes.append(f"ranks: support {head.support}, feature rank = kernel rank = {rank}")
    return rank


# ---------------------------------------------------------------- LF7 minimality


def _row(head: Head, node: Node, support: list[int], nonneg: bool) -> dict:
    """The exact strict row r.x < 0 a multiplier names, over g_j (j in support) and u."""
    m, n = head.m, head.n
    if node.has("weight"):
        node.obj({"weight", "y"})
        d = node["weight"].int(0, m)
        return {("g", j): -comb(d, j) for j in support}
    node.obj({"class", "side", "y"})
    items = node["class"].list(n, length=n)
    p = items[0].int(0, m)
    levels = [x.int(0, p) for x in items[1:]]
    if levels != sorted(levels):
        raise Malformed(node["class"].pointer, "the levels of a class must be listed in increasing order")
    side = node["side"].str(("upper", "lower") if head.readout == "free" else ("upper",))
    all_levels = [p, *levels]
    t = min(all_levels)
    row: dict = {}
    for l in all_levels:
        d = _dist(head.basis, p, l)
        for j in support:
            c = comb(d, j)
            if head.readout == "affine":
                row[("g", j)] = row.get(("g", j), 0) + (l - t - 1) * c
            elif side == "upper":
                row[("g", j)] = row.get(("g", j), 0) - (2 * t + 1) * c
            else:
                row[("g", j)] = row.get(("g", j), 0) + (2 * t - 1) * c
        if head.readout == "free":
            row[("u", p, l)] = row.get(("u", p, l), 0) + (2 if side == "upper" else -2)
    return row


def _check_refutation(head: Head, node: Node, nonneg: bool, bound: int, limits: Limits) -> list[int]:
    node.obj({"support", "multipliers"})
    sup_nodes = node["support"].list(head.m + 1)
    support = [x.int(0, head.m) for x in sup_nodes]
    if support != sorted(set(support)):
        raise Malformed(node["support"].pointer, "a support is a strictly increasing list of j in 0..m")
    c = sum(comb(head.m, j) for j in support)
    if c >= bound:
        raise Invalid(node["support"].pointer, f"this support costs {c}, not less than the claimed rank {bound}")
    total: dict = {}
    mults = node["multipliers"].list(limits.max_list)
    if not mults:
        raise Invalid(node["multipliers"].pointer, "no multipliers: Motzkin's alternative needs some y > 0")
    ys = [item["y"].rational() for item in mults]
    for item, y in zip(mults, ys, strict=True):
        if y <= 0:
            raise Invalid(item["y"].pointer, f"multiplier {rat(y)} is not > 0")
    scaled, common = scale_to_ints(ys)  # L y_i with one L > 0: signs and zeros of the sum unchanged, integer sums
    for item, y_scaled in zip(mults, scaled, strict=True):
        for key, v in _row(head, item, support, nonneg).items():
            total[key] = total.get(key, 0) + y_scaled * v
    for key in sorted(total, key=str):
        v = total[key]
        if key[0] == "g" and nonneg and v >= 0:
            continue  # z_j = v >= 0 multiplies g_j >= 0
        if v != 0:
            what = f"g_{key[1]}" if key[0] == "g" else f"u_{key[1]}({key[2]})"
            raise Invalid(node["multipliers"].pointer, f"the combination has coefficient {rat(Fraction(v, common))} on {what}; Motzkin needs 0" + (" (or > 0 on g_j)" if nonneg else ""))
    return support


def covering_nodes(m: int, bound: int) -> int:
    """An upper bound on the supports the coverage walk visits: 2^(#j >= 1 with C(m, j) < bound)."""
    return 2 ** sum(1 for j in range(1, m + 1) if comb(m, j) < bound)


def _check_coverage(m: int, bound: int, refuted: list[list[int]], pointer: str) -> None:
    """Every support T containing 0 with cost(T) < bound lies inside a refuted support
    (a support without 0 has w(0) = g_0 = 0, contradicting LF1's row d = 0)."""
    masks = [sum(1 << j for j in s) for s in refuted]
    if bound <= 1:
        return
    # depth-first over j = 1..m (take j, then leave it), with an explicit stack: the depth
    # is m + 1 (up to max_m = 4096), far past Python's recursion limit
    cm = [comb(m, i) for i in range(m + 1)]
    stack = [(1, 1, 1)]
    while stack:
        j, mask, c = stack.pop()
        if j > m:
            maximal = all(c + cm[i] >= bound for i in range(1, m + 1) if not mask >> i & 1)
            if maximal and not any(mask & ~r == 0 for r in masks):
                raise Invalid(pointer, f"the support {[i for i in range(m + 1) if mask >> i & 1]} costs {c} < {bound} and lies in no refuted support")
            continue
        cj = cm[j]
        stack.append((j + 1, mask, c))
        if c + cj < bound:
            stack.append((j + 1, mask | 1 << j, c + cj))


def _check_minimality(head: Head, doc: Node, nonneg_claim: bool, rank: int, limits: Limits, routes: list[str]) -> str:
    node = doc["minimality"].obj({"signs", "refuted"})
    signs = node["signs"].str(("any", "nonnegative"))
    nonneg = signs == "nonnegative"
    if nonneg and not nonneg_claim:
        raise Invalid(node["signs"].pointer, "minimality among nonnegative g needs the construction's own g_j >= 0")
    nodes = node["refuted"].list(limits.max_list)
    require(covering_nodes(head.m, rank) <= limits.max_list, node.pointer, "the coverage walk over cheaper supports", covering_nodes(head.m, rank), limits.max_list)
    refuted = [_check_refutation(head, r, nonneg, rank, limits) for r in nodes]
    _check_coverage(head.m, rank, refuted, node["refuted"].pointer)
    family = f"{head.basis} basis, {head.readout} readout, {signs} signs"
    routes.append(f"minimality: {len(refuted)} maximal cheaper supports refuted by exact Motzkin multipliers; every support of cost < {rank} lies in one")
    return family


def full_classes(basis: str, readout: str, m: int, n: int) -> bool:
    """Whether check() enumerates every level class (LF3): always outside LF3x's family,
    as a second route inside it when there are at most CROSS_CLASSES (work() agrees)."""
    return not extremeclasses.applies(basis, readout) or comb(m + n, n) <= CROSS_CLASSES


def _worst(head: Head, limits: Limits, routes: list[str]) -> tuple[Fraction, tuple[int, ...]]:
    """The worst |y - t| over every level class and a class attaining it: LF3x from the
    extreme classes (complement basis, affine readout), and/or LF3 by enumeration."""
    m, n = head.m, head.n
    reduced = None
    if extremeclasses.applies(head.basis, head.readout):
        reduced = extremeclasses.worst(head.g, head.eps, m, n)
        routes.append(f"extreme classes (LF3x): {extremeclasses.count(m)} classes (X, u) stand for all {comb(m + n, n)} level classes, worst error {rat(reduced[0])} at (|q|, levels) = {reduced[1]}")
    if reduced is not None and not full_classes(head.basis, head.readout, m, n):  # (reduced is None: the enumeration runs)
        return reduced
    require(comb(m + n, n) <= limits.max_level_classes, "/m", "the number of level classes C(m+n, n)", comb(m + n, n), limits.max_level_classes)
    worst, witness = head.worst_by_classes()
    if reduced is not None and reduced[0] != worst:
        raise RuntimeError(f"LF3x gives worst error {reduced[0]} but the {comb(m + n, n)} level classes give {worst}")  # the spec's lemma failed: exit 4
    routes.append(f"level classes: {comb(head.m + head.n, head.n)} classes, worst error {rat(worst)} at (|q|, levels) = {witness}")
    return worst, witness


def flint_units(differences: object, m: int, limits: Limits) -> int | None:
    """The FLINT route's units (LF5), or None when check() skips it: m <= min(8, rank_m),
    and the cost fits a third of the budget.  Measured on 256 x 256 matrices: full rank
    ~ T^3 x words / 8; rank rho < T, fraction-free (entries grow to rho x bits):
    T^2 rho x^1.5 / 70 with x = rho x words (64-bit rho = 37: 0.55 s, 1024-bit: 34 s)."""
    if m > min(FLINT_M, limits.rank_m):
        return None
    T = 2**m
    words = (sum(row_height(differences)) + m) // 64 + 1
    rho = rank_bound(differences, m)
    x = max(1, rho * words)
    units = T**3 * words // 8 if rho >= T else T * T * rho * x * isqrt(x) // 70
    return units if units <= limits.work_budget // 3 else None


def rank_bound(differences: object, m: int) -> int:
    """sum C(m, j) over the differences not written as zero (unreadable ones count as
    nonzero): at least the rank check() derives, so the coverage walk's bound."""
    items = differences[: m + 1] if isinstance(differences, list) else []
    zero = [isinstance(g, str) and g.split("/")[0].lstrip("-").strip("0") == "" for g in items]
    return sum(comb(m, j) for j in range(m + 1) if j >= len(zero) or not zero[j])


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj({"format", "version", "kind", "m", "n", "positions", "basis", "differences", "readout", "claims"}, {"minimality"})
    require_version(doc, doc["kind"], 2, "the kind level-family")
    doc["positions"].str(("all",))
    head = Head(doc, limits)
    claims = doc["claims"].obj({"worst_error", "feature_rank", "kernel_rank", "nonnegative_features", "support"})
    routes: list[str] = []
    # LF1
    for d, wd in enumerate(head.w):
        if wd <= 0:
            raise Invalid(doc["differences"].pointer, f"w({d}) = sum_j g_j C({d}, j) = {rat(wd)} is not > 0, and d = {d} occurs")
    nonneg = _check_signs(head, claims)  # LF2
    worst, witness = _worst(head, limits, routes)  # LF3 or LF3x
    expect_equal(claims["worst_error"], claims["worst_error"].rational(), worst, "the worst error")
    if worst >= HALF:
        raise Invalid("/claims/worst_error", f"worst error {rat(worst)} >= 1/2 at level class {witness}: the head does not solve length {head.n}")
    rank = _check_ranks(head, claims, limits, routes)  # LF5
    # LF6
    if head.m <= EXPLICIT_M and exhaustive_inputs(head.m, head.n) <= limits.exhaustive_inputs:
        literal = head.worst_exhaustive()
        if literal != worst:
            raise Invalid("/readout", f"the literal head's worst error over all inputs is {rat(literal)}, not {rat(worst)}")
        routes.append(f"exhaustive: all {exhaustive_inputs(head.m, head.n)} (query, other tokens) inputs over {{0,1}}^{head.m}, explicit features and values, agree")
    else:
        routes.append("exhaustive: skipped (m > 6 or over the exhaustive_inputs limit)")
    least = ""
    if doc.has("minimality"):
        least = f"; the least rank of the family ({_check_minimality(head, doc, nonneg, rank, limits, routes)})"
    ro = f"affine readout (eps = {rat(head.eps)})" if head.readout == "affine" else f"free level readout (dv = {head.dv})"
    summary = (
        f"level family (m={head.m}, n={head.n}): {head.basis} basis, {ro}, {rank} {'nonnegative' if nonneg else 'signed'} features "
        f"solve Min-IP at every position of every length-{head.n} input, worst error {rat(worst)} < 1/2{least}"
    )
    return Outcome(summary, routes, version=2, claim=claim_of.upper(rank, head.m, head.n, nonneg, list(head.support), family={"basis": head.basis, "readout": head.readout}))
