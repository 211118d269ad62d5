"""Rule `lower-bound` for codes given as all weight-w words of a binary linear code
(THEORY L3 uniform form, L4): no pairwise pass.

  BL1 the generator rows are independent (Gaussian elimination over F_2);
  BL2 enumerating the 2^k codewords gives d_min (least nonzero weight) and N, the number
      of words of weight w; any two such words differ in a nonzero codeword, so every
      gap |c_j \\ c_i| = d(c_i, c_j)/2 is >= g = ceil(d_min/2);
  BL3 the single schedule has gap <= g and links >= 2; a pair's chain stretches the last
      link to its own gap, so P_ij >= P = prod (n-2)(d_t - 1) = min_product;
  BL4 bound = least r with C(r+k-1, k) > N^2 / (N + N(N-1) P^(-2k));
  BL5 rule chains-prefix-v1: per row N keys + (k-1) intermediates, (k-1) prefix links and
      N-1 final links (times n-1 placements for position-dependent maps).
"""

from __future__ import annotations


from ..common import Outcome, expect_equal, rat
from .. import claims as claim_of
from ..text import show
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits
from . import kernels
from .chains import MAX_K, SCOPE, check_per_entry_bound, read_schedules
from .linear import independent


def check_linear(doc: Node, m: int, n: int, variant: str, limits: Limits, kernel: str = "nonnegative") -> Outcome:
    code = doc["code"].obj({"linear"}, {"name"})
    lin = code["linear"].obj({"generator", "weight"})
    items = lin["generator"].list(limits.max_linear_dim)
    rows = [x.token(m) for x in items]
    w = lin["weight"].int(1, m)
    if not rows or not independent(rows):
        raise Invalid(lin["generator"].pointer, "the generator rows are not linearly independent over F_2")
    k_dim = len(rows)
    d_min, size, word = m + 1, 0, 0
    for i in range(1, 2**k_dim):  # Gray code: flip one row per step
        word ^= rows[(i & -i).bit_length() - 1]
        weight = word.bit_count()
        d_min = min(d_min, weight)
        size += weight == w
    if size < 2:
        raise Invalid(lin["weight"].pointer, f"the code has {size} words of weight {w}; the bound needs N >= 2")
    g = (d_min + 1) // 2
    schedules = read_schedules(doc, n, m)
    if len(schedules) != 1:
        raise Invalid(doc["schedules"].pointer, "a linear-code certificate has exactly one schedule (the prefix rule)")
    (gap, (levels, product)), = schedules.items()
    if gap > g:
        raise Invalid(doc["schedules"][0]["gap"].pointer, f"gap {gap} exceeds the guaranteed least gap ceil(d_min/2) = {g}")
    witness = doc["witness"].obj({"rule"})
    witness["rule"].str(("chains-prefix-v1",))
    claims = doc["claims"].obj({"bound", "k", "min_product", "witness_inputs", "code_size", "min_distance"})
    expect_equal(claims["code_size"], claims["code_size"].int(0), size, f"N, the number of weight-{w} codewords")
    expect_equal(claims["min_distance"], claims["min_distance"].int(0), d_min, "the minimum distance")
    expect_equal(claims["min_product"], claims["min_product"].int(0), product, "the schedule's chain product")
    k = claims["k"].int(1, MAX_K)
    # BL4 is the per-entry L3 with all N(N-1) ordered pairs at the one product P
    _, x, l3, bound = check_per_entry_bound(claims, {product: size * (size - 1)}, size, k, kernel, "the ordered pairs (each at least the schedule's)")
    links = len(levels) - 1
    per_link = n - 1 if variant == "position-dependent" else 1
    count = size * (size + (links - 1) + per_link * ((links - 1) + size - 1))
    expect_equal(claims["witness_inputs"], claims["witness_inputs"].int(0), count, "the number of witness inputs")
    name = code["name"].str() if code.has("name") else "linear"
    routes = [
        f"linear code {show(name)}: {k_dim} independent rows, 2^{k_dim} codewords enumerated, d_min = {d_min}, N = {size} words of weight {w}",
        f"every gap >= ceil(d_min/2) = {g}; chains {list(levels)} (last link stretched), P >= {product}",
        f"L3 (uniform): k = {k}, N^2/(N + N(N-1)/P^(2k)) = {float(x):.6g} (exactly {rat(x)}), so rank M >= {l3}",
        *kernels.signed_route(l3, kernel),
        f"witness family (rule chains-prefix-v1): {count} inputs",
    ]
    summary = (
        f"lower bound (m={m}, n={n}, {variant}): {kernels.scope(variant, kernel, SCOPE[variant])} that solves the {count}-input witness family "
        f"of the {size} weight-{w} words of {show(name)} has feature rank r >= {bound} (upper bound 2^{m})"
    )
    return Outcome(summary, routes, version=1 if not doc.has("kernel") else 2, claim=claim_of.lower(bound, m, n, variant, kernels.COVERED[kernel]))


