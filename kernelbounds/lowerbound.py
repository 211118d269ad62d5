"""Assembly of the lower bound for given m and n (THEORY §3 L4, L6).

For a code c_1..c_N (all gaps >= 2) with queries q_i = comp(c_i), each ordered pair
(i, j) gets a chain of levels 0 = l_0 < ... < l_k = g_ij following the best schedule for
its gap, so M_ij = K(q_i, c_j)/K(q_i, c_i) < 1/P_ij with P_ij = R_n(g_ij); the rank
bound of L3 (per-entry form) then holds for every head that solves the witness family.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from .amplification import best_schedule, chain_keys, chain_levels
import numpy as np

from .bits import comp, low_bits, to_str
from .certificate import header
from .codes import Code, intersection_matrix
from .codes.library import candidates
from .rankbound import RankBound, best_rank_bound

VARIANTS = ("position-independent", "position-dependent", "causal")


def placements(variant: str, n: int) -> int:
    """Mixed inputs per link: every placement of the better key for position-dependent
    maps (THEORY L5), one otherwise."""
    return n - 1 if variant == "position-dependent" else 1


@dataclass(frozen=True)
class LowerBound:
    m: int
    n: int
    variant: str
    code: Code
    gaps: dict[int, int]  # gap -> number of ordered pairs
    schedules: dict[int, tuple[int, ...]]  # gap -> chain levels
    products: dict[int, int]  # chain product P -> number of ordered pairs
    rank: RankBound

    @property
    def min_product(self) -> int:
        return min(self.products)

    @property
    def bound(self) -> int:
        return self.rank.bound


def assemble(code: Code, n: int, variant: str = "position-independent") -> LowerBound:
    """The best per-entry bound for this code at length n."""
    if n < 3:
        raise ValueError("the lower bound needs n >= 3")
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    gaps = code.gaps()
    if min(gaps) < 2:
        raise ValueError(f"code {code.name} has a pair with gap {min(gaps)} < 2")
    schedules, products = {}, Counter()
    for g, count in sorted(gaps.items()):
        value, parts = best_schedule(n, g)
        schedules[g] = chain_levels(parts)
        products[value] += count
    return LowerBound(code.m, n, variant, code, gaps, schedules, dict(products), best_rank_bound(code.size, products))


def best_pairwise(m: int, n: int, variant: str = "position-independent", thorough: bool = True) -> LowerBound:
    """The largest per-entry bound over the listed-word candidate codes; ties prefer fewer words."""
    results = [assemble(code, n, variant) for code in candidates(m, thorough=thorough)]
    return max(results, key=lambda lb: (lb.bound, -lb.code.size))


def best(m: int, n: int, variant: str = "position-independent", thorough: bool = True) -> LowerBound | LinearLowerBound:
    """The largest bound over listed-word codes (per-entry form) and over the weight
    classes of linear codes (uniform form, no pairwise pass); ties prefer listed words."""
    pairwise = best_pairwise(m, n, variant, thorough)
    linear = [lb for lb in (assemble_linear(c, w, n, variant) for c, w in linear_candidates(m)) if lb is not None]
    top = max(linear, key=lambda lb: (lb.bound, -lb.size), default=None)
    return top if top is not None and top.bound > pairwise.bound else pairwise


def witness_rows(lb: LowerBound) -> Iterator[tuple[int, set[int], set[tuple[int, int]]]]:
    """Per row i: (q_i, keys needing a uniform input, links (a, b) needing a mixed input)."""
    words = lb.code.words
    for i, c_i in enumerate(words):
        q = comp(c_i, lb.m)
        keys, links = {c_i}, set()
        for j, c_j in enumerate(words):
            if j == i:
                continue
            levels = lb.schedules[(q & c_j).bit_count()]
            chain = chain_keys(q, c_i, c_j, levels)
            keys.update(chain)
            links.update(zip(chain, chain[1:]))
        yield q, keys, links


def witness_count(lb: LowerBound) -> int:
    """|W| without listing it: per row, N keys plus intermediates that are not code words,
    plus the shared prefix links of the row's schedules and one final link per j (final
    links differ in c_j; one can coincide with a prefix link only if c_j is an
    intermediate token, which is checked)."""
    words, m = lb.code.words, lb.m
    index = set(words)
    position = {c: j for j, c in enumerate(words)}
    inter = intersection_matrix(words, m)
    weights = np.array([w.bit_count() for w in words])
    total = 0
    for i, c_i in enumerate(words):
        q = comp(c_i, m)
        gaps_row = weights - inter[i]
        used = sorted(set(np.delete(gaps_row, i).tolist()))  # the gaps of row i's pairs (j != i)
        tokens, prefix_links, prev = {}, set(), {}
        for g in used:
            chain = [c_i] + [tokens.setdefault(l, low_bits(q, l)) for l in lb.schedules[g][1:-1]]
            prefix_links.update(zip(chain, chain[1:]))
            prev[g] = chain[-1]
        shared = [position[t] for t in set(tokens.values()) & index]  # intermediates that are code words
        collisions = sum(1 for j in shared if j != i and (prev[int(gaps_row[j])], words[j]) in prefix_links)
        extra_keys = len(set(tokens.values()) - index)
        links = len(prefix_links) + len(words) - 1 - collisions
        total += len(words) + extra_keys + links * placements(lb.variant, lb.n)
    return total


def mixed_inputs(q: int, a: int, b: int, n: int, variant: str) -> list[tuple[int, ...]]:
    """The mixed inputs of one link (a better key a, worse key b)."""
    if variant == "causal":
        return [(a,) + (b,) * (n - 2) + (q,)]
    if variant == "position-dependent":
        return [(q,) + tuple(a if j == t else b for j in range(1, n)) for t in range(1, n)]
    return [(q, a) + (b,) * (n - 2)]


def uniform_input(q: int, z: int, n: int, variant: str) -> tuple[int, ...]:
    return (z,) * (n - 1) + (q,) if variant == "causal" else (q,) + (z,) * (n - 1)


def witness_family(lb: LowerBound) -> list[tuple[int, ...]]:
    """The explicit inputs: the query first (last for causal), uniform and mixed inputs."""
    n, variant = lb.n, lb.variant
    inputs = []
    for q, keys, links in witness_rows(lb):
        inputs += [uniform_input(q, z, n, variant) for z in sorted(keys)]
        for a, b in sorted(links):
            inputs += mixed_inputs(q, a, b, n, variant)
    return inputs


def certificate(lb: LowerBound, listed: bool = False) -> dict:
    """The v1 lower-bound certificate; `listed` writes the witness family explicitly."""
    m = lb.m
    count = witness_count(lb)
    doc = header("lower-bound")
    witness: dict = {"rule": "chains-v1"}
    if listed:
        witness["inputs"] = [[to_str(x, m) for x in inp] for inp in witness_family(lb)]
    doc.update(
        m=m,
        n=lb.n,
        variant=lb.variant,
        code={"name": lb.code.name, "words": [to_str(w, m) for w in lb.code.words]},
        queries="complement",
        schedules=[{"gap": g, "levels": list(levels)} for g, levels in sorted(lb.schedules.items())],
        witness=witness,
        claims={"bound": lb.bound, "k": lb.rank.k, "min_product": lb.min_product, "witness_inputs": count},
    )
    return doc


def smallest_witness(m: int, n: int, target: int, variant: str = "position-independent") -> LowerBound | None:
    """The bound with the smallest witness family certifying r >= target, over prefixes
    of the candidate codes (the shortest prefix of each code that reaches the target)."""
    found: list[tuple[int, LowerBound]] = []
    for code in candidates(m, thorough=True):
        if assemble(code, n, variant).bound < target:
            continue
        lo, hi = 2, code.size  # bound is monotone in the prefix length
        while lo < hi:
            mid = (lo + hi) // 2
            if assemble(code.prefix(mid), n, variant).bound >= target:
                hi = mid
            else:
                lo = mid + 1
        while assemble(code.prefix(lo), n, variant).bound < target:  # in case of non-monotonicity
            lo += 1
        lb = assemble(code.prefix(lo), n, variant)
        found.append((witness_count(lb), lb))
    return min(found, key=lambda t: (t[0], t[1].code.name))[1] if found else None


# ------------------------------------------------- linear codes: no pairwise pass (uniform form)


@dataclass(frozen=True)
class LinearLowerBound:
    """The uniform-form bound for the N words of weight w in a linear code (THEORY L3, L4):
    every gap is >= g = ceil(d_min/2); each pair's chain follows the schedule for g, its
    last link stretched to the pair's own gap, so P_ij >= P(g) = min_product."""

    m: int
    n: int
    variant: str
    code: object  # codes.linear.LinearCode
    weight: int
    size: int
    min_distance: int
    levels: tuple[int, ...]
    min_product: int
    rank: RankBound

    @property
    def bound(self) -> int:
        return self.rank.bound

    @property
    def gap(self) -> int:
        return self.levels[-1]


def assemble_linear(code, weight: int, n: int, variant: str = "position-independent") -> LinearLowerBound | None:
    size = code.count_of_weight(weight)
    if size < 2:
        return None
    g = (code.min_distance + 1) // 2
    if g < 2:
        return None
    value, parts = best_schedule(n, g)
    rank = best_rank_bound(size, {value: size * (size - 1)})
    return LinearLowerBound(code.m, n, variant, code, weight, size, code.min_distance, chain_levels(parts), value, rank)


def linear_witness_count(lb: LinearLowerBound) -> int:
    """Per row: N keys + (k-1) intermediates (weights < g <= w: never code words), and
    (k-1) prefix links + (N-1) final links, each with its placements."""
    links = len(lb.levels) - 1
    per_row = lb.size + (links - 1) + placements(lb.variant, lb.n) * ((links - 1) + lb.size - 1)
    return lb.size * per_row


def linear_certificate(lb: LinearLowerBound) -> dict:
    doc = header("lower-bound")
    doc.update(
        m=lb.m,
        n=lb.n,
        variant=lb.variant,
        code={"name": lb.code.name, "linear": {"generator": [to_str(r, lb.m) for r in lb.code.rows], "weight": lb.weight}},
        queries="complement",
        schedules=[{"gap": lb.gap, "levels": list(lb.levels)}],
        witness={"rule": "chains-prefix-v1"},
        claims={
            "bound": lb.bound,
            "k": lb.rank.k,
            "min_product": lb.min_product,
            "witness_inputs": linear_witness_count(lb),
            "code_size": lb.size,
            "min_distance": lb.min_distance,
        },
    )
    return doc


def linear_candidates(m: int):
    """(code, weight) pairs from Golay and Reed-Muller codes that fit in m bits."""
    from .codes.linear import golay_linear, reed_muller, shortened

    if m > 64:  # LinearCode packs words into 64 bits; above that only listed-word codes (issue 14)
        return []
    codes = []
    if m >= 24:
        codes.append(golay_linear().padded(m))
    for r, mu in ((1, 4), (2, 4), (1, 5), (2, 5), (1, 6), (2, 6)):
        if 2**mu <= m:
            codes.append(reed_muller(r, mu).padded(m))
        elif 2 ** (mu - 1) < m:  # m between 2^(mu-1) and 2^mu: the shortened code
            codes.append(shortened(reed_muller(r, mu), m))
    out = []
    for code in codes:
        for w in sorted({int(x) for x in set(code.weights.tolist())} - {0}):
            if 2 * w <= code.m + 1 and code.count_of_weight(w) >= 2:
                out.append((code, w))
    return out


def any_certificate(lb) -> dict:
    return linear_certificate(lb) if isinstance(lb, LinearLowerBound) else certificate(lb)


def any_witness_count(lb) -> int:
    return linear_witness_count(lb) if isinstance(lb, LinearLowerBound) else witness_count(lb)


def describe(lb) -> dict:
    """Code name, size, weight, least gap and gap histogram (None for linear codes)."""
    if isinstance(lb, LinearLowerBound):
        return {"code": f"{lb.code.name} weight {lb.weight}", "size": lb.size, "weight": lb.weight, "min_gap": (lb.min_distance + 1) // 2, "gaps": None}
    return {"code": lb.code.name, "size": lb.code.size, "weight": lb.code.weight(), "min_gap": min(lb.gaps), "gaps": lb.gaps}
