"""Rule `lower-bound`: every head solving the witness family has feature rank >= bound.

Checked facts (docs/certificate-format-v1.md, "lower-bound"), THEORY §3 L1-L4:
  B1  the code: N >= 2 distinct m-bit words; queries q_i = comp(c_i);
  B2  schedules: levels 0 = l_0 < ... < l_k = gap, every link >= 2; P = prod (n-2)(d-1);
  B3  every ordered pair i != j has gap g_ij = <q_i, c_j> with a schedule; min P claimed;
  B4  the L3 inequality: bound = least r with C(r+k-1, k) > N^2 / (N + sum P_ij^(-2k));
  B5  the witness family (rule chains-v1, or listed and equal to it) and its size.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from ..common import Outcome, expect_equal, rat
from .. import claims as claim_of
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits, require
from ..text import show
from . import kernels, linearcode, orbits
from .chains import MAX_K, SCOPE, VARIANTS, check_per_entry_bound, low_bits, read_code, read_schedules

class Family:
    """Rule chains-v1, row by row: keys needing (q, z, ..., z) and links needing (q, a, b, ..., b)."""

    def __init__(self, words: list[int], m: int, n: int, variant: str, schedules: dict[int, tuple[tuple[int, ...], int]]) -> None:
        self.words, self.m, self.n, self.variant, self.schedules = words, m, n, variant, schedules
        self.full = (1 << m) - 1
        self.per_link = n - 1 if variant == "position-dependent" else 1

    def inputs(self, q: int, keys: set[int], links: set[tuple[int, int]]) -> set[tuple[int, ...]]:
        """The row's inputs: the query at position 1 (position n for causal)."""
        n, out = self.n, set()
        for z in keys:
            out.add((z,) * (n - 1) + (q,) if self.variant == "causal" else (q,) + (z,) * (n - 1))
        for a, b in links:
            if self.variant == "causal":
                out.add((a,) + (b,) * (n - 2) + (q,))
            elif self.variant == "position-dependent":
                out.update((q,) + tuple(a if j == t else b for j in range(1, n)) for t in range(1, n))
            else:
                out.add((q, a) + (b,) * (n - 2))
        return out

    def row(self, i: int, gaps: list[int]) -> tuple[int, set[int], set[tuple[int, int]]]:
        c_i = self.words[i]
        q = self.full ^ c_i
        keys, links = {c_i}, set[tuple[int, int]]()
        for j, c_j in enumerate(self.words):
            if j != i:
                chain = [c_i] + [low_bits(q, l) for l in self.schedules[gaps[j]][0][1:-1]] + [c_j]
                keys.update(chain)
                links.update(pairwise(chain))
        return q, keys, links

    def row_count(self, i: int, gaps: list[int]) -> int:
        """|keys| + |links| of row i without building the N final links: they are distinct
        (they end at distinct c_j) and can equal a prefix link only if c_j is an intermediate."""
        c_i = self.words[i]
        q = self.full ^ c_i
        inter, prefix, last = set[int](), set[tuple[int, int]](), dict[int, int]()
        for g in set(gaps[j] for j in range(len(gaps)) if j != i):
            chain = [c_i] + [low_bits(q, l) for l in self.schedules[g][0][1:-1]]
            inter.update(chain[1:])
            prefix.update(pairwise(chain))
            last[g] = chain[-1]
        where = {c: j for j, c in enumerate(self.words) if c in inter}
        repeated = sum(1 for c, j in where.items() if j != i and (last[gaps[j]], c) in prefix)
        n_words = len(self.words)
        links = len(prefix) + (n_words - 1 - repeated)
        return n_words + len(inter - set(where)) + links * self.per_link


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj({"format", "version", "kind", "m", "n", "variant", "code", "queries", "schedules", "witness", "claims"}, {"symmetry", "kernel"})
    m = doc["m"].int(1, limit=limits.max_m)
    n = doc["n"].int(3, limit=limits.max_n)
    variant = doc["variant"].str(VARIANTS)
    doc["queries"].str(("complement",))
    kernel = kernels.read_kernel(doc, variant)
    if doc.has("symmetry"):
        return orbits.check_orbits(doc, m, n, variant, limits, kernel)
    if doc["code"].has("linear"):
        return linearcode.check_linear(doc, m, n, variant, limits, kernel)
    words = read_code(doc, m, limits)
    big_n = len(words)
    require(big_n * big_n <= limits.max_pairs, "/code/words", "the number of ordered pairs N^2", big_n * big_n, limits.max_pairs)
    schedules = read_schedules(doc, n, m)
    claims = doc["claims"].obj({"bound", "k", "min_product", "witness_inputs"})
    k = claims["k"].int(1, MAX_K)
    witness = doc["witness"].obj({"rule"}, {"inputs"})
    witness["rule"].str(("chains-v1",))

    full = (1 << m) - 1
    products: Counter[int] = Counter()
    family = Family(words, m, n, variant, schedules)
    count = 0
    listed_rows = []
    for i, c_i in enumerate(words):
        q = full ^ c_i
        gaps = [(q & c_j).bit_count() for c_j in words]
        for j, g in enumerate(gaps):
            if j == i:
                continue
            if g not in schedules:
                why = f"gap {g} < 2: no chain bounds M_ij" if g < 2 else f"no schedule for gap {g}"
                raise Invalid(f"/code/words/{j}", f"ordered pair (i={i}, j={j}): {why}")
            products[schedules[g][1]] += 1
        count += family.row_count(i, gaps)
        if witness.has("inputs"):
            listed_rows.append(family.row(i, gaps))

    _, x, l3, bound = check_per_entry_bound(claims, products, big_n, k, kernel, "the ordered pairs")
    expect_equal(claims["witness_inputs"], claims["witness_inputs"].int(0), count, "the number of witness inputs")
    routes = [
        f"code: N = {big_n} distinct words, every ordered pair has a schedule; chain products {show(dict(sorted(products.items())))}",
        f"L3: k = {k}, N^2/(N+S_k) = {float(x):.4f} (exactly {rat(x)}), so C(r+k-1, k) > it forces rank M >= {l3}",
        *kernels.signed_route(l3, kernel),
        f"witness family (rule chains-v1): {count} inputs",
    ]
    if witness.has("inputs"):
        check_listed(witness["inputs"], listed_rows, family, n, m, count, limits)
        routes.append("listed witness inputs equal the rule's family")
    summary = (
        f"lower bound (m={m}, n={n}, {variant}): {kernels.scope(variant, kernel, SCOPE[variant])} that solves the "
        f"{count}-input witness family has feature rank r >= {bound} (upper bound 2^{m})"
    )
    return Outcome(summary, routes, version=1 if not doc.has("kernel") else 2, claim=claim_of.lower(bound, m, n, variant, kernels.COVERED[kernel]))


def check_listed(node: Node, rows: list[tuple[int, set[int], set[tuple[int, int]]]], family: Family, n: int, m: int, count: int, limits: Limits) -> None:
    items = node.list(limits.max_list)
    listed = set()
    for item in items:
        tokens = tuple(x.token(m) for x in item.list(n, length=n))
        if tokens in listed:
            raise Invalid(item.pointer, "a repeated witness input")
        listed.add(tokens)
    expected = set()
    for q, keys, links in rows:
        expected |= family.inputs(q, keys, links)
    missing = expected - listed
    if missing:
        raise Invalid(node.pointer, f"{len(missing)} inputs the chains need are not listed")
    if len(listed) != len(expected):
        raise Invalid(node.pointer, f"{len(listed) - len(expected)} listed inputs are not in the rule's family")
    if len(listed) != count:
        raise Invalid(node.pointer, f"the listed family has {len(listed)} inputs, the count gives {count}")
