"""Rule `construction`: a level-determined head solves Min-IP at length n (THEORY §2).

Checked facts (docs/certificate-format-v1.md, "construction"):
  C1  kernel >= 0 and level-determined: a(q, z) = w^<q,z> up to a per-query factor;
  C2  every level class (|q| = p, n-1 levels in 0..p) has denominator > 0 and
      |y - t| <= claimed worst error, attained, and worst error < 1/2 (in integers, one
      scaling per query weight p); a second route takes only the extreme classes
      (|q|, t, u, ..., u) and must find the same worst error (docs/soundness.md);
  C3  (when cheap) the literal head on every input over {0,1}^m has the same worst error;
  C4  the claimed feature rank / score dimension and kernel rank, by the Kronecker
      identity and (when cheap) FLINT's exact rank of the 2^m x 2^m kernel matrix.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import combinations_with_replacement, islice
from math import comb, lcm

from ..common import Outcome, expect_equal, rat
from ..rational import scale_to_ints
from .. import claims as claim_of
from ..text import show
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits, exhaustive_inputs
from .construction_work import Plan

HALF = Fraction(1, 2)
MAX_FEATURE_DIM = 1024
MAX_SCORE_ENTRY = 2**20  # |entries| of W_Q and W_K


class TensorPower:
    """a(x, z) = prod_i G[x_i][z_i] with G[a][b] = <f(a), g(b)> (mixed-product identity)."""

    claim_fields = {"worst_error", "feature_rank", "kernel_rank", "nonnegative_features"}

    def __init__(self, node: Node, m: int):
        node.obj({"type", "f0", "f1", "g0", "g1"})
        vecs = {k: [x.rational() for x in node[k].list(MAX_FEATURE_DIM)] for k in ("f0", "f1", "g0", "g1")}
        self.d = len(vecs["f0"])
        for k, v in vecs.items():
            if len(v) != self.d or self.d == 0:
                raise Invalid(node[k].pointer, f"per-bit factors must share one dimension >= 1 (f0 has {self.d})")
        f, g = (vecs["f0"], vecs["f1"]), (vecs["g0"], vecs["g1"])
        self.gram = [[sum((u * v for u, v in zip(f[a], g[b], strict=True)), Fraction(0)) for b in (0, 1)] for a in (0, 1)]
        for a in (0, 1):
            for b in (0, 1):
                if self.gram[a][b] < 0:
                    raise Invalid(node.pointer, f"<f({a}), g({b})> = {rat(self.gram[a][b])} < 0: the kernel takes negative values")
        for a, b in ((0, 0), (0, 1), (1, 0)):
            if self.gram[a][b] != 1:
                raise Invalid(
                    node.pointer,
                    f"not level-determined: <f({a}), g({b})> = {rat(self.gram[a][b])}, but v1 needs "
                    "<f(0),g(0)> = <f(0),g(1)> = <f(1),g(0)> = 1",
                )
        self.vecs, self.m, self.node = vecs, m, node
        self.c = self.gram[1][1]

    def level_weight(self, level: int) -> Fraction:
        return self.c**level


    def row(self, q: int) -> list[int]:
        """[a(q, z) * D^m for z = 0 .. 2^m-1], built bit by bit from G."""
        ints, _ = scale_to_ints([x for r in self.gram for x in r])
        g = [ints[0:2], ints[2:4]]
        row = [1]
        for i in range(self.m):
            a = (q >> i) & 1
            row = [x * g[a][0] for x in row] + [x * g[a][1] for x in row]
        return row

    def check_claims(self, claims: Node, routes: list[str]) -> str:
        m = self.m
        expect_equal(claims["feature_rank"], claims["feature_rank"].int(0), self.d**m, "feature rank d^m")
        det = self.gram[0][0] * self.gram[1][1] - self.gram[0][1] * self.gram[1][0]
        expect_equal(claims["kernel_rank"], claims["kernel_rank"].int(0), (2 if det != 0 else 1) ** m, "kernel rank rank(G)^m")
        nonneg = all(x >= 0 for v in self.vecs.values() for x in v)
        claimed = claims["nonnegative_features"].bool()
        if claimed and not nonneg:
            k, i = next((k, i) for k, v in self.vecs.items() for i, x in enumerate(v) if x < 0)
            raise Invalid(self.node[k][i].pointer, "claims nonnegative features, but this entry is negative")
        expect_equal(claims["nonnegative_features"], claimed, nonneg, "nonnegative_features")
        routes.append(f"ranks: feature rank {self.d}^{m}, kernel rank = rank(G)^{m} with det G = {rat(det)}")
        sign = "nonnegative" if nonneg else "signed"
        return f"{self.d**m} {sign} features (kernel rank {(2 if det != 0 else 1) ** m})"


class SoftmaxBilinear:
    """Weights exp(beta s(q, z)) with s(q, z) = <W_Q q, W_K z> and exp(beta) = b."""

    claim_fields = {"worst_error", "score_dim", "kernel_rank"}

    def __init__(self, node: Node, m: int):
        node.obj({"type", "exp_beta", "W_Q", "W_K"})
        self.b = node["exp_beta"].rational()
        if self.b <= 0:
            raise Invalid(node["exp_beta"].pointer, "exp(beta) must be > 0")
        mats = {}
        for key in ("W_Q", "W_K"):
            rows = node[key].list(MAX_FEATURE_DIM)
            mats[key] = [[x.int(-MAX_SCORE_ENTRY, MAX_SCORE_ENTRY) for x in r.list(m, length=m)] for r in rows]
        self.dim = len(mats["W_Q"])
        if len(mats["W_K"]) != self.dim or self.dim == 0:
            raise Invalid(node["W_K"].pointer, "W_Q and W_K must have the same number (>= 1) of rows")
        wq, wk = mats["W_Q"], mats["W_K"]
        self.s = [[sum(wq[r][i] * wk[r][j] for r in range(self.dim)) for j in range(m)] for i in range(m)]
        g = self.s[0][0]
        if any(self.s[i][j] != (g if i == j else 0) for i in range(m) for j in range(m)):
            raise Invalid(node.pointer, "not level-determined: v1 needs W_Q^T W_K = g I for an integer g")
        self.g, self.m = g, m

    def level_weight(self, level: int) -> Fraction:
        return self.b ** (self.g * level)


    def row(self, q: int) -> list[int]:
        """[b^s(q,z) scaled by one positive constant], s from W_Q^T W_K literally."""
        m = self.m
        u = [sum(self.s[i][j] for i in range(m) if (q >> i) & 1) for j in range(m)]
        scores = [0]
        for j in range(m):
            scores = scores + [x + u[j] for x in scores]
        lo, hi = min(scores), max(scores)
        p, d = self.b.numerator, self.b.denominator
        power = {s: p ** (s - lo) * d ** (hi - s) for s in set(scores)}
        return [power[s] for s in scores]

    def check_claims(self, claims: Node, routes: list[str]) -> str:
        m = self.m
        expect_equal(claims["score_dim"], claims["score_dim"].int(0), self.dim, "the score dimension (rows of W_Q)")
        c = self.b**self.g
        expect_equal(claims["kernel_rank"], claims["kernel_rank"].int(0), 2**m if c != 1 else 1, "kernel rank")
        routes.append(f"ranks: weights prod_i (b^g)^(q_i z_i), per-bit Gram det = {rat(c - 1)}")
        return f"dense softmax with {self.dim}-dimensional scores at exp(beta) = {rat(self.b)}"


class LevelExpansion:
    """h(l) = sum_j g_j C(l, j): features phi_Q(x)_T = g_|T| [T within x], phi_K(z)_T = [T within z]
    over the sets T with g_|T| != 0 (THEORY §2, last paragraph)."""

    claim_fields = {"worst_error", "feature_rank", "kernel_rank", "nonnegative_features"}
    EXPLICIT_M = 6

    def __init__(self, node: Node, m: int):
        node.obj({"type", "differences"})
        items = node["differences"].list(m + 1, length=m + 1)
        self.g = [x.rational() for x in items]
        self.m, self.node = m, node
        self.h = [sum((gj * comb(l, j) for j, gj in enumerate(self.g)), Fraction(0)) for l in range(m + 1)]
        for l, v in enumerate(self.h):
            if v < 0:
                raise Invalid(node["differences"].pointer, f"h({l}) = {rat(v)} < 0: the kernel takes negative values")
        d = lcm(*(x.denominator for x in self.g))
        self.scaled = [int(x * d) for x in self.g]
        self.subsets = None
        if m <= self.EXPLICIT_M:  # the explicit feature index set
            self.subsets = [t for t in range(2**m) if self.scaled[t.bit_count()] != 0]

    def level_weight(self, level: int) -> Fraction:
        return self.h[level]


    def row(self, q: int) -> list[int]:
        """[a(q, z) * D]: by explicit features when m <= 6, else by sum_j g_j C(<q,z>, j)."""
        if self.subsets is not None:
            phi_q = [self.scaled[t.bit_count()] if t & ~q == 0 else 0 for t in self.subsets]
            return [sum(a for a, t in zip(phi_q, self.subsets, strict=True) if t & ~z == 0) for z in range(2**self.m)]
        per_level = [sum(gj * comb(l, j) for j, gj in enumerate(self.scaled)) for l in range(self.m + 1)]
        return [per_level[(q & z).bit_count()] for z in range(2**self.m)]

    def check_claims(self, claims: Node, routes: list[str]) -> str:
        m = self.m
        support = [j for j, gj in enumerate(self.g) if gj != 0]
        rank = sum(comb(m, j) for j in support)
        expect_equal(claims["feature_rank"], claims["feature_rank"].int(0), rank, "the feature rank sum of C(m, j) over g_j != 0")
        expect_equal(claims["kernel_rank"], claims["kernel_rank"].int(0), rank, "the kernel rank (level-expansion formula)")
        nonneg = all(self.g[j] > 0 for j in support)
        expect_equal(claims["nonnegative_features"], claims["nonnegative_features"].bool(), nonneg, "nonnegative_features")
        how = f"explicit features over {len(self.subsets)} sets T" if self.subsets is not None else "the formula"
        routes.append(f"ranks: support {support}, rank = {rank} (kernel built from {how})")
        return f"a level kernel with {rank} {'nonnegative' if nonneg else 'signed'} features"


Kernel = TensorPower | SoftmaxBilinear | LevelExpansion
KERNELS: dict[str, type[Kernel]] = {"tensor-power": TensorPower, "softmax-bilinear": SoftmaxBilinear, "level-expansion": LevelExpansion}
Weight = Callable[[int], Fraction]  # level l -> the kernel weight
Score = Callable[[int, int], Fraction]  # (|q|, level) -> the readout score


def _extreme_class_count(m: int, n: int) -> int:
    return m + 1 if n == 1 else comb(m + 2, 2) if n == 2 else comb(m + 3, 3)


def _readout(node: Node) -> tuple[Fraction, Fraction, Fraction]:
    node.obj({"type", "alpha", "beta", "gamma"})
    node["type"].str(("query-affine",))
    return node["alpha"].rational(), node["beta"].rational(), node["gamma"].rational()


def _integer_levels(weight: Weight, score: Score, p: int) -> tuple[list[int], list[int]]:
    """W(l) = D weight(l), V(l) = D weight(l) score(p, l) for l = 0..p, one D > 0."""
    w = [weight(l) for l in range(p + 1)]
    ints, _ = scale_to_ints(w + [w[l] * score(p, l) for l in range(p + 1)])
    return ints[: p + 1], ints[p + 1 :]


def _suffix_sums(w: list[int], v: list[int], k: int) -> tuple[list[int], list[int]]:
    """(sum W, sum V) over the k-multisets of 0..p in lexicographic order, built from the
    top: the j-multisets of t..p are t + (the (j-1)-multisets of t..p), then the
    j-multisets of t+1..p; so those of t..p are the last C(p - t + k, k) entries."""
    above = [([0], [0])] + [([], [])] * k  # j-multisets of the empty range above p
    for t in range(len(w) - 1, -1, -1):
        row = [([0], [0])]
        for j in range(1, k + 1):
            (head_w, head_v), (tail_w, tail_v) = row[j - 1], above[j]
            row.append(([w[t] + x for x in head_w] + tail_w, [v[t] + x for x in head_v] + tail_v))
        above = row
    return above[k]


def worst_by_classes(weight: Weight, score: Score, m: int, n: int) -> tuple[Fraction | None, tuple[int, ...]]:
    """Route C2: max |y - t| over every level class (None if a denominator is <= 0), in
    integers: a class with least level t has error |sum V - t sum W| / sum W, compared with
    the running maximum by cross-multiplication."""
    best_num, best_den, best_at = -1, 1, (0, 0, 0)  # replaced by the first class (every num >= 0 > -1)
    for p in range(m + 1):
        w, v = _integer_levels(weight, score, p)
        if n == 1:
            if w[p] <= 0:
                return None, (p,)
            num = abs(v[p] - p * w[p])
            if num * best_den > best_num * w[p]:
                best_num, best_den, best_at = num, w[p], (p, p, 0)
            continue
        k = n - 2
        sw, sv = _suffix_sums(w, v, k)
        for t in range(p + 1):
            start = len(sw) - comb(p - t + k, k)
            base_w, base_v = w[p] + w[t], v[p] + v[t]
            for i in range(start, len(sw)):
                den = base_w + sw[i]
                if den <= 0:
                    return None, _class_at(p, t, k, i - start)
                num = base_v + sv[i] - t * den
                if num < 0:
                    num = -num
                if num * best_den > best_num * den:
                    best_num, best_den, best_at = num, den, (p, t, i - start)
    p, t, i = best_at
    return Fraction(best_num, best_den), (p,) if n == 1 else _class_at(p, t, n - 2, i)


def _class_at(p: int, t: int, k: int, index: int) -> tuple[int, ...]:
    """The class (p, t, rest) with rest the index-th k-multiset of t..p (lexicographic)."""
    return (p, t, *next(islice(combinations_with_replacement(range(t, p + 1), k), index, None)))


def worst_by_extreme_classes(weight: Weight, score: Score, m: int, n: int) -> tuple[Fraction | None, tuple[int, ...]]:
    """Route C2': the same maximum from the classes (p, t, u, ..., u) alone.  With the
    least level t fixed, num and den are additive over the other n-2 levels; the largest
    ratio |num| / den (den > 0) of two additive functions over k-multisets is attained at k
    equal elements, and so is the least den (docs/soundness.md, "extreme classes")."""
    best_num, best_den, witness = -1, 1, tuple[int, ...]()
    for p in range(m + 1):
        w, v = _integer_levels(weight, score, p)
        for t in range(p + 1 if n > 1 else 1):
            for u in range(t, p + 1) if n > 2 else (t,):
                cls = (p,) if n == 1 else (p, t) + (u,) * (n - 2)
                den = sum(w[l] for l in cls)
                if den <= 0:
                    return None, cls
                num = abs(sum(v[l] for l in cls) - min(cls) * den)
                if num * best_den > best_num * den:
                    best_num, best_den, witness = num, den, cls
    return Fraction(best_num, best_den), witness


def worst_exhaustive(kernel: Kernel, readout: tuple[Fraction, Fraction, Fraction], m: int, n: int) -> Fraction | None:
    """Route C3: the literal head on every query and multiset of n-1 other tokens."""
    alpha, beta, gamma = readout
    tokens = range(2**m)
    worst_num, worst_den = -1, 1
    for q in tokens:
        k = kernel.row(q)
        f, e = scale_to_ints([alpha * (q & z).bit_count() + beta * q.bit_count() + gamma for z in tokens])
        for others in combinations_with_replacement(tokens, n - 1):
            den = k[q] + sum(k[z] for z in others)
            if den <= 0:
                return None
            num = k[q] * f[q] + sum(k[z] * f[z] for z in others)
            t = min([(q & z).bit_count() for z in others] + [q.bit_count()])
            err = abs(num - t * e * den)
            if err * worst_den > worst_num * den * e:
                worst_num, worst_den = err, den * e
    return Fraction(worst_num, worst_den)


def flint_rank(kernel: Kernel, m: int) -> int:
    import flint

    return flint.fmpz_mat([kernel.row(q) for q in range(2**m)]).rank()


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj({"format", "version", "kind", "construction", "m", "n", "positions", "head", "claims"})
    m = doc["m"].int(1, limit=limits.max_m)
    n = doc["n"].int(1, limit=limits.max_n)
    doc["positions"].str(("all",))
    label = doc["construction"].str()
    head = doc["head"].obj({"kernel", "values", "readout"})
    ktype = head["kernel"]["type"].str(tuple(KERNELS))
    head["values"].obj({"type"})["type"].str(("identity",))
    readout = _readout(head["readout"])
    plan = Plan(doc, limits)
    classes = comb(m + n, n)
    kernel = KERNELS[ktype](head["kernel"], m)
    claims = doc["claims"].obj(kernel.claim_fields)
    claimed_error = claims["worst_error"].rational()
    routes: list[str] = []

    alpha, beta, gamma = readout
    score = lambda p, l: alpha * l + beta * p + gamma  # noqa: E731
    worst, witness = worst_by_classes(kernel.level_weight, score, m, n)
    if worst is None:
        raise Invalid("/head", f"the denominator is not > 0 on the level class (|q|, levels) = {witness}")
    expect_equal(claims["worst_error"], claimed_error, worst, "the worst error")
    if worst >= HALF:
        raise Invalid("/claims/worst_error", f"worst error {rat(worst)} >= 1/2 at level class {witness}: the head does not solve length {n}")
    routes.append(f"level classes: {classes} classes, worst error {rat(worst)} at (|q|, levels) = {witness}")
    extreme_worst, extreme_witness = worst_by_extreme_classes(kernel.level_weight, score, m, n)
    if extreme_worst != worst:  # impossible by the lemma: a checker bug, reported as an internal error
        raise RuntimeError(f"the extreme classes give the worst error {extreme_worst and rat(extreme_worst)}, all classes {rat(worst)}")
    routes.append(f"extreme classes: the {_extreme_class_count(m, n)} classes (|q|, t, u, ..., u) agree, worst at {extreme_witness}")

    if plan.exhaustive is not None:
        literal = worst_exhaustive(kernel, readout, m, n)
        if literal != worst:
            raise Invalid("/head", f"the literal head's worst error over all inputs is {literal and rat(literal)}, not {rat(worst)}")
        routes.append(f"exhaustive: all {exhaustive_inputs(m, n)} (query, other tokens) inputs over {{0,1}}^{m} agree")
    else:
        why = f"over the limit of {limits.exhaustive_inputs} inputs" if m > 24 or exhaustive_inputs(m, n) > limits.exhaustive_inputs else "over the work budget"
        routes.append(f"exhaustive: skipped ({why})")

    features = kernel.check_claims(claims, routes)
    if plan.flint is not None:
        r = flint_rank(kernel, m)
        expect_equal(claims["kernel_rank"], claims["kernel_rank"].value, r, "the kernel rank (FLINT exact rank)")
        routes.append(f"FLINT: exact rank of the {2**m} x {2**m} kernel matrix is {r}")
    summary = (
        f"construction {show(label)} (m={m}, n={n}): {features} solves Min-IP at every position "
        f"of every length-{n} input, worst error {rat(worst)} < 1/2"
    )
    rank = claims["feature_rank"].value if "feature_rank" in kernel.claim_fields else None  # equal to the derived rank (check_claims)
    claim = None if rank is None else claim_of.upper(claims["feature_rank"].int(0), m, n, claims["nonnegative_features"].bool())  # THEORY U1/U2
    return Outcome(summary, routes, claim=claim)


