"""Rule `rank`: the kernel matrix over the listed tokens has rank exactly R.

Checked facts (docs/certificate-format-v1.md, "rank"):
  K1  upper side.  level kernels: the listed forward differences are (Delta^j h)(0), and
      rank <= sum_{g_j != 0} C(m, j) (the level expansion).  feature kernels: FLINT's
      exact rank of the whole matrix (small sizes only), and rank <= feature dimension.
  K2  lower side: p is prime and the listed rows x columns minor of the integer-scaled
      matrix is nonsingular (over Z when its entries are small, which is faster here, else
      modulo p), so it is nonsingular over Q: rank >= its size.
"""

from __future__ import annotations


from fractions import Fraction
from math import comb, lcm
from operator import itemgetter

from ..common import Outcome, expect_equal
from ..rational import differences
from ..text import show
from ..errors import Invalid, LimitExceeded
from ..jsonread import Node
from ..limits import Limits, require

MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
MAX_PRIME = 2**62
MAX_FEATURE_DIM = 4096
FMPZ_ROUTE_BITS = 62  # entries of at most this many bits: rank over Z (faster here than mod p)


def is_prime(p: int) -> bool:
    """Deterministic Miller-Rabin, exact for p < 3.3 * 10^24."""
    if p < 2:
        return False
    for b in MR_BASES:
        if p % b == 0:
            return p == b
    d, s = p - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for b in MR_BASES:
        x = pow(b, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(s - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


class LevelKernel:
    def __init__(self, node: Node, m: int):
        node.obj({"type", "h"}, {"name"})
        self.h = [x.rational() for x in node["h"].list(m + 1, length=m + 1)]
        self.m, self.tokens = m, list(range(2**m)) if m <= 30 else None
        d = lcm(*(x.denominator for x in self.h))
        self.scaled = [int(x * d) for x in self.h]

    def entry(self, x: int, z: int) -> int:
        return self.scaled[(x & z).bit_count()]

    def minor(self, rows: list[int], cols: list[int], p: int | None) -> list[int]:
        """The minor's entries row by row (mod p unless p is None): a row's levels
        <x, z> for every token z are built as bytes bit by bit (the z with bit i set add
        x_i), then picked at cols and mapped through the table of scaled h values, all by
        C-level byte and list operations (no Python loop per entry)."""
        table = self.scaled if p is None else [v % p for v in self.scaled]
        plus_one = bytes(range(1, 256)) + b"\0"  # level l -> l + 1 (levels stay <= m <= 30)
        every = cols == self.tokens
        pick = None if every else itemgetter(*cols)
        out: list[int] = []
        for x in rows:
            levels = b"\0"
            for i in range(self.m):
                levels += levels.translate(plus_one) if (x >> i) & 1 else levels
            picked = levels if pick is None else bytes(pick(levels)) if len(cols) > 1 else bytes([pick(levels)])
            out += map(table.__getitem__, picked)
        return out

    def entry_bits(self) -> int:
        return max(v.bit_length() for v in self.scaled)

    def upper(self, doc: Node, limits: Limits, routes: list[str]) -> int:
        up = doc["upper"].obj({"rule", "differences"})
        up["rule"].str(("level-expansion",))
        items = up["differences"].list(self.m + 1, length=self.m + 1)
        derived = differences(self.h)
        for j, item in enumerate(items):
            expect_equal(item, item.rational(), derived[j], f"(Delta^{j} h)(0)")
        bound = sum(comb(self.m, j) for j, g in enumerate(derived) if g != 0)
        routes.append(f"upper: level expansion, rank <= sum of C({self.m}, j) over the {sum(g != 0 for g in derived)} nonzero differences = {bound}")
        return bound


class FeatureKernel:
    def __init__(self, node: Node, m: int, limits: Limits):
        node.obj({"type", "tokens", "phi_q", "phi_k"})
        tok_nodes = node["tokens"].list(2**limits.rank_cert_m)
        self.tokens = [t.token(m) for t in tok_nodes]
        if len(set(self.tokens)) != len(self.tokens):
            raise Invalid(node["tokens"].pointer, "tokens repeat")
        dim_items = node["phi_q"].list(len(self.tokens), length=len(self.tokens))
        dim = len(dim_items[0].value) if dim_items and isinstance(dim_items[0].value, list) else 0
        work = len(self.tokens) ** 2 * max(dim, 1)
        require(work <= limits.max_feature_work, node.pointer, "multiplications for the feature kernel (tokens^2 x dimension)", work, limits.max_feature_work)
        fq = [[x.rational() for x in r.list(MAX_FEATURE_DIM)] for r in dim_items]
        fk = [[x.rational() for x in r.list(MAX_FEATURE_DIM)] for r in node["phi_k"].list(len(self.tokens), length=len(self.tokens))]
        self.dim = len(fq[0]) if fq else 0
        for key, rows in (("phi_q", fq), ("phi_k", fk)):
            for i, r in enumerate(rows):
                if len(r) != self.dim:
                    raise Invalid(node[key][i].pointer, f"feature vectors must all have dimension {self.dim}")
        values = {(x, z): sum((a * b for a, b in zip(fq[i], fk[j], strict=True)), Fraction(0)) for i, x in enumerate(self.tokens) for j, z in enumerate(self.tokens)}
        d = lcm(*(v.denominator for v in values.values())) if values else 1
        self.table = {k: int(v * d) for k, v in values.items()}
        self.m = m

    def entry(self, x: int, z: int) -> int:
        return self.table[(x, z)]

    def minor(self, rows: list[int], cols: list[int], p: int | None) -> list[int]:
        """The minor's entries row by row (mod p unless p is None)."""
        if p is None:
            return [self.table[(x, z)] for x in rows for z in cols]
        return [self.table[(x, z)] % p for x in rows for z in cols]

    def entry_bits(self) -> int:
        return max((v.bit_length() for v in self.table.values()), default=0)

    def upper(self, doc: Node, limits: Limits, routes: list[str]) -> int:
        import flint

        doc["upper"].obj({"rule"})["rule"].str(("exact",))
        exact = flint.fmpz_mat([[self.entry(x, z) for z in self.tokens] for x in self.tokens]).rank()
        routes.append(f"upper: FLINT exact rank of the {len(self.tokens)} x {len(self.tokens)} matrix = {exact} (feature dimension {self.dim})")
        return exact


def minor_rank_fastest(kernel: LevelKernel | FeatureKernel, rows: list[int], cols: list[int], p: int) -> tuple[int, str]:
    """(rank of the minor, "over Z" or "modulo p"), by the exact route measured fastest:
    FLINT's fmpz_mat rank over Z when the scaled entries have at most FMPZ_ROUTE_BITS bits
    (3.6 s against 9.5 s for nmod_mat mod 2^31 - 1 on the 4096 x 4096 tensor kernel),
    else nmod_mat modulo p.  Either way a full rank proves a nonsingular minor over Q: a
    nonsingular minor over Z is no weaker than one modulo p."""
    import flint

    size = len(rows)
    if size == 0:
        return 0, f"modulo {p}"
    if kernel.entry_bits() <= FMPZ_ROUTE_BITS:
        return flint.fmpz_mat(size, size, kernel.minor(rows, cols, None)).rank(), "over Z (FLINT fmpz_mat)"
    return flint.nmod_mat(size, size, kernel.minor(rows, cols, p), p).rank(), f"modulo the prime {p} (FLINT nmod_mat)"


def check(doc: Node, limits: Limits) -> Outcome:

    doc.obj({"format", "version", "kind", "m", "kernel", "claims", "lower", "upper"})
    m = doc["m"].int(1, limit=limits.max_m)
    ktype = doc["kernel"]["type"].str(("level", "features"))
    kernel: LevelKernel | FeatureKernel
    if ktype == "level":
        require(m <= limits.rank_cert_m, "/m", "the kernel matrix side 2^m", 2**m, 2**limits.rank_cert_m)
        kernel = LevelKernel(doc["kernel"], m)
    else:
        kernel = FeatureKernel(doc["kernel"], m, limits)
    claimed = doc["claims"].obj({"rank"})["rank"].int(0)
    routes: list[str] = []
    upper = kernel.upper(doc, limits, routes)

    low = doc["lower"].obj({"prime", "rows", "cols"})
    p = low["prime"].int(2, MAX_PRIME)
    if not is_prime(p):
        raise Invalid(low["prime"].pointer, f"{p} is not prime")
    tokens = kernel.tokens
    if tokens is None:  # LevelKernel leaves it None past m = 30, which rank_cert_m refuses first
        raise LimitExceeded("/m", f"m = {m}: the kernel matrix is too large to index")
    index = {}
    for key in ("rows", "cols"):
        node = low[key]
        if node.value == "all":
            index[key] = list(tokens)
        else:
            index[key] = [t.token(m) for t in node.list(2**limits.rank_cert_m)]
            if len(set(index[key])) != len(index[key]) or not set(index[key]) <= set(tokens):
                raise Invalid(node.pointer, "indices must be distinct tokens of the matrix")
    size = len(index["rows"])
    if len(index["cols"]) != size:
        raise Invalid(low.pointer, "the minor must be square")
    minor_rank, over = minor_rank_fastest(kernel, index["rows"], index["cols"], p)
    if minor_rank != size:
        raise Invalid(low.pointer, f"the {size} x {size} minor has rank {minor_rank} < {size} {over}")
    routes.append(f"lower: a {size} x {size} minor is nonsingular {over}")
    if not size == upper:
        raise Invalid(low.pointer, f"the minor proves rank >= {size}, the upper side rank <= {upper}: rank not determined")
    expect_equal(doc["claims"]["rank"], claimed, size, "the rank")
    label = doc["kernel"]["name"].str() if doc["kernel"].has("name") else ktype
    return Outcome(f"rank (m={m}): the {ktype} kernel {show(label)} has rank exactly {size} over Q", routes)


# ----------------------------------------------------------------- work estimate


