"""Chain helpers shared by the lower-bound rules (THEORY §3 L2-L4): variants, schedules,
the least rank of L3, the rule's intermediate keys, and the closed-form witness count.

Kept apart from rules/lowerbound.py so that the listed, linear and orbit forms import
them without an import circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from math import comb

from ..binomial import confirm_least_rank
from ..common import expect_equal
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits
from . import kernels

VARIANTS = ("position-independent", "position-dependent", "causal")
SCOPE = {
    "position-independent": "every normalized head with a nonnegative kernel",
    "position-dependent": "every normalized head with position-dependent maps and a nonnegative kernel for every pair of positions",
    # one placement per link (the query last, then a, b, ..., b): L1 needs the key maps to be
    # the same at every key position, so the claim is for position-independent causal heads
    "causal": "every causal normalized head whose maps do not depend on position (one placement per link), with a nonnegative kernel, scored at its final position,",
}
MAX_K = 256


def low_bits(q: int, level: int) -> int:
    """The `level` lowest set bits of q (the rule's intermediate key of that level)."""
    out = 0
    for _ in range(level):
        bit = q & -q
        out |= bit
        q ^= bit
    return out


def read_code(doc: Node, m: int, limits: Limits) -> list[int]:
    node = doc["code"].obj({"words"}, {"name"})
    if node.has("name"):
        node["name"].str()
    items = node["words"].list(limits.max_code_words)
    words = [x.token(m) for x in items]
    if len(words) < 2:
        raise Invalid(node["words"].pointer, "the bound needs N >= 2 words")
    seen: dict[int, int] = {}
    for j, w in enumerate(words):
        if w in seen:
            raise Invalid(items[j].pointer, f"repeats word {seen[w]}")
        seen[w] = j
    return words


def read_schedules(doc: Node, n: int, m: int) -> dict[int, tuple[tuple[int, ...], int]]:
    """gap -> (levels, chain product P)."""
    out: dict[int, tuple[tuple[int, ...], int]] = {}
    for s in doc["schedules"].list(m + 1):
        s.obj({"gap", "levels"})
        gap = s["gap"].int(0, m)
        if gap in out:
            raise Invalid(s["gap"].pointer, f"a second schedule for gap {gap}")
        items = s["levels"].list(m + 1)
        levels = tuple(x.int(0, m) for x in items)
        if not levels or levels[0] != 0 or levels[-1] != gap:
            raise Invalid(s["levels"].pointer, f"a chain must run from level 0 to level {gap}")
        product = 1
        for t in range(1, len(levels)):
            d = levels[t] - levels[t - 1]
            if d < 2:
                raise Invalid(items[t].pointer, f"link {levels[t - 1]} -> {levels[t]} has gap {d} < 2 (L1 gives no factor >= 1)")
            product *= (n - 2) * (d - 1)
        if len(levels) < 2:
            raise Invalid(s["levels"].pointer, "a chain needs at least one link")
        out[gap] = (levels, product)
    return out


def least_rank(k: int, x: Fraction) -> int:
    """The least r >= 1 with C(r+k-1, k) > x (C is increasing in r: doubling, then bisection)."""
    hi = 1
    while comb(hi + k - 1, k) <= x:
        hi *= 2
    lo = hi // 2 + 1 if hi > 1 else 1
    while lo < hi:
        mid = (lo + hi) // 2
        if comb(mid + k - 1, k) > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


def check_per_entry_bound(claims: Node, products: Mapping[int, int], big_n: int, k: int, kernel: str, over: str) -> tuple[int, Fraction, int, int]:
    """L3 per entry (B4; orbit form O5, direct sum DS4): min_product = the least P over the ordered pairs (`products`: P -> pairs);
    S_k = sum_P pairs / P^(2k), x = N^2/(N + S_k), l3 = the least r with C(r+k-1, k) > x, and
    the claimed bound = l3 (minus 1 for a signed kernel, THEORY L8).  Returns (min_product, x, l3, bound)."""
    min_product = min(products)
    expect_equal(claims["min_product"], claims["min_product"].int(0), min_product, f"the least chain product P(g) over {over}")
    s_k = sum((Fraction(c, p ** (2 * k)) for p, c in products.items()), Fraction(0))
    x = Fraction(big_n * big_n) / (big_n + s_k)
    l3 = least_rank(k, x)
    confirm_least_rank(k, x, l3)  # second route: closed-form bracket
    bound = kernels.chain_bound(l3, kernel)
    expect_equal(claims["bound"], claims["bound"].int(0), bound, f"the bound (least r with C(r+{k}-1, {k}) > N^2/(N+S_k) = {float(x):.6g}{'' if bound == l3 else ', minus 1 for a signed kernel (THEORY L8)'})")
    return min_product, x, l3, bound


def placements(variant: str, n: int) -> int:
    """Mixed inputs per link: n - 1 placements for position-dependent maps (L5), else one."""
    return n - 1 if variant == "position-dependent" else 1


def constant_weight_row_count(n_words: int, row_gaps: Iterable[int], schedules: Mapping[int, tuple[tuple[int, ...], int]], per_link: int) -> int:
    """|W_i| for one row of a constant-weight code, in closed form (rule chains-v1).

    Row i's intermediates are the tokens low_bits(q_i, l) for the interior levels l of
    the schedules of the gaps in its row; one token per level, of weight l < gap <= w,
    so never a code word.  Keys: the N code words plus one per interior level.  Links:
    the distinct prefix links (one per distinct pair of consecutive levels before the
    last), plus one final link per j != i (distinct: they end at distinct c_j, never an
    intermediate).  Depends only on the set of gaps, hence is constant on an orbit.
    """
    interior: set[int] = set()
    prefix: set[tuple[int, int]] = set()
    for g in set(row_gaps):
        levels = schedules[g][0]
        interior.update(levels[1:-1])
        prefix.update(zip(levels[:-2], levels[1:-1], strict=True))  # the links before the last
    return n_words + len(interior) + per_link * (len(prefix) + n_words - 1)
