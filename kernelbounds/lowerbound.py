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


def best(m: int, n: int, variant: str = "position-independent", thorough: bool = True) -> LowerBound:
    """The largest bound over the candidate codes; ties prefer fewer words."""
    results = [assemble(code, n, variant) for code in candidates(m, thorough=thorough)]
    return max(results, key=lambda lb: (lb.bound, -lb.code.size))


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
        used = sorted(set(gaps_row.tolist()) - {int(gaps_row[i])}) if len(words) > 1 else []
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
