"""Assembly of the lower bound for given m and n (THEORY §3 L4, L6).

For a code c_1..c_N (all gaps >= 2) with queries q_i = comp(c_i), each ordered pair
(i, j) gets a chain of levels 0 = l_0 < ... < l_k = g_ij following the best schedule for
its gap, so M_ij = K(q_i, c_j)/K(q_i, c_i) < 1/P_ij with P_ij = R_n(g_ij); the rank
bound of L3 (per-entry form) then holds for every head that solves the witness family.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from .amplification import best_schedule, chain_keys, chain_levels
from ..bits import comp, low_bits, to_str
from ..certificate import header
from .codes import Code, intersection_matrix
from .codes.library import candidates
from .codes.linear import LinearCode
from .rankbound import RankBound, best_rank_bound
from .symmetry import is_permutation, orbits, row_histogram

VARIANTS = ("position-independent", "position-dependent", "causal")
KERNELS = ("nonnegative", "signed", "signed-any-denominator")  # THEORY §1, L8


def check_kernel(kernel: str, variant: str) -> None:
    """ValueError for an unknown kernel class, or signed-any-denominator with the
    position-dependent variant (THEORY L8 (b): not covered)."""
    if kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}; expected one of {', '.join(KERNELS)}")
    if kernel == "signed-any-denominator" and variant == "position-dependent":
        raise ValueError("kernel signed-any-denominator is not covered for the position-dependent variant (THEORY L8 (b): with denominators of "
                         "either sign the placement sum is no longer a convex combination); use kernel signed or another variant")


def kernel_fields(doc: dict, kernel: str) -> dict:
    """Add the v2 field `kernel` (and version 2) unless the kernel is nonnegative, so the
    nonnegative files stay byte-identical (docs/certificate-format-v2.md, "Signed kernels")."""
    if kernel != "nonnegative":
        doc["version"] = 2
        doc["kernel"] = kernel
    return doc


def placements(variant: str, n: int) -> int:
    """Mixed inputs per link: every placement of the better key for position-dependent
    maps (THEORY L5), one otherwise."""
    return n - 1 if variant == "position-dependent" else 1


class _Ranked:
    """bound and k of an L3 rank bound (THEORY L3), for forms that carry `rank: RankBound`
    and `kernel`: the L3 bound on rank M is a bound on r for nonnegative kernels (L4), and
    on r + 1 for signed kernels (L8: M = D-ratios, rank M <= r + 1), hence L3 - 1."""

    rank: RankBound
    kernel: str

    @property
    def bound(self) -> int:
        return self.rank.bound - (self.kernel != "nonnegative")

    def with_kernel(self, kernel: str):
        """The same bound stated for another kernel class (same code, chains and k)."""
        check_kernel(kernel, self.variant)
        return replace(self, kernel=kernel)

    @property
    def k(self) -> int:
        return self.rank.k


class _PerEntry(_Ranked):
    """Per-entry forms (THEORY L3): the least chain product over their `products`."""

    products: dict[int, int]

    @property
    def min_product(self) -> int:
        return min(self.products)


@dataclass(frozen=True)
class LowerBound(_PerEntry):
    m: int
    n: int
    variant: str
    code: Code
    gaps: dict[int, int]  # gap -> number of ordered pairs
    schedules: dict[int, tuple[int, ...]]  # gap -> chain levels
    products: dict[int, int]  # chain product P -> number of ordered pairs
    rank: RankBound
    kernel: str = "nonnegative"

    form = "per-entry"

    @property
    def size(self) -> int:
        return self.code.size

    def witness_count(self) -> int:
        return witness_count(self)

    def certificate(self, listed: bool = False, kernel: str | None = None) -> dict:
        return certificate(self, listed, kernel)

    def describe(self) -> dict:
        return {"code": self.code.name, "size": self.code.size, "weight": self.code.weight(), "min_gap": min(self.gaps), "gaps": self.gaps, "form": self.form, "orbits": None}


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


def best_pairwise(m: int, n: int, variant: str = "position-independent", thorough: bool = True) -> LowerBound | None:
    """The largest per-entry bound over the listed-word candidate codes; ties prefer fewer
    words; None when no candidate fits (m <= 3)."""
    results = [assemble(code, n, variant) for code in candidates(m, thorough=thorough)]
    return max(results, key=lambda lb: (lb.bound, -lb.code.size), default=None)


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


def certificate(lb: LowerBound, listed: bool = False, kernel: str | None = None) -> dict:
    """The v1 lower-bound certificate (v2 with the field `kernel` for a signed kernel);
    `listed` writes the witness family explicitly."""
    if kernel is not None:
        lb = lb.with_kernel(kernel)
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
    return kernel_fields(doc, lb.kernel)


def smallest_witness(m: int, n: int, target: int, variant: str = "position-independent", kernel: str = "nonnegative") -> LowerBound | None:
    """The bound with the smallest witness family certifying r >= target, over prefixes
    of the candidate codes (the shortest prefix of each code that reaches the target);
    for a signed kernel the L3 bound must reach target + 1 (THEORY L8)."""
    check_kernel(kernel, variant)
    if kernel != "nonnegative":
        lb = smallest_witness(m, n, target + 1, variant)
        return None if lb is None else lb.with_kernel(kernel)
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
class LinearLowerBound(_Ranked):
    """The uniform-form bound for the N words of weight w in a linear code (THEORY L3, L4):
    every gap is >= g = ceil(d_min/2); each pair's chain follows the schedule for g, its
    last link stretched to the pair's own gap, so P_ij >= P(g) = min_product."""

    m: int
    n: int
    variant: str
    code: LinearCode
    weight: int
    size: int
    min_distance: int
    levels: tuple[int, ...]
    min_product: int
    rank: RankBound
    kernel: str = "nonnegative"

    @property
    def gap(self) -> int:
        return self.levels[-1]

    form = "uniform (linear code, no pairwise pass)"


    def witness_count(self) -> int:
        return linear_witness_count(self)

    def certificate(self) -> dict:
        return linear_certificate(self)

    def describe(self) -> dict:
        g = (self.min_distance + 1) // 2
        return {"code": f"{self.code.name} weight {self.weight}", "size": self.size, "weight": self.weight, "min_gap": g, "gaps": None, "form": self.form, "orbits": None}


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
    return kernel_fields(doc, lb.kernel)



# ------------------------------------------------- per-entry form through orbits (format v2)


@dataclass(frozen=True)
class Orbit:
    representative: int
    size: int
    gaps: dict[int, int]  # the representative's row: gap -> number of j != i


@dataclass(frozen=True)
class OrbitLowerBound(_PerEntry):
    """The per-entry bound (THEORY L3) for a constant-weight code with known automorphisms,
    one gap histogram per orbit ("Rows in one orbit"); the code is the weight-w words of
    a linear code (`linear`, `weight`) or a listed code (`listed`)."""

    m: int
    n: int
    variant: str
    name: str
    size: int
    permutations: tuple[tuple[int, ...], ...]
    orbits: tuple[Orbit, ...]
    schedules: dict[int, tuple[int, ...]]
    products: dict[int, int]  # chain product P -> number of ordered pairs
    rank: RankBound
    linear: LinearCode | None = None
    weight: int = 0
    listed: Code | None = None
    kernel: str = "nonnegative"

    form = "per-entry (orbits)"

    @property
    def orbit_count(self) -> int:
        return len(self.orbits)

    @property
    def gaps(self) -> dict[int, int]:
        total: Counter[int] = Counter()
        for o in self.orbits:
            for g, c in o.gaps.items():
                total[g] += o.size * c
        return dict(sorted(total.items()))

    def witness_count(self) -> int:
        """Per orbit, |O| times the closed-form row count (constant weight: intermediates
        are never code words, final links never coincide with prefix links)."""
        per_link = placements(self.variant, self.n)
        total = 0
        for o in self.orbits:
            interior, prefix = set(), set()
            for g in o.gaps:
                levels = self.schedules[g]
                interior.update(levels[1:-1])
                prefix.update(zip(levels[:-2], levels[1:-1]))
            total += o.size * (self.size + len(interior) + per_link * (len(prefix) + self.size - 1))
        return total

    def code_json(self) -> dict:
        if self.linear is not None:
            return {"name": self.name, "linear": {"generator": [to_str(r, self.m) for r in self.linear.rows], "weight": self.weight}}
        return {"name": self.name, "words": [to_str(w, self.m) for w in self.listed.words]}

    def certificate(self) -> dict:
        doc = header("lower-bound", version=2)
        doc.update(
            m=self.m,
            n=self.n,
            variant=self.variant,
            code=self.code_json(),
            queries="complement",
            symmetry={"permutations": [list(p) for p in self.permutations]},
            schedules=[{"gap": g, "levels": list(levels)} for g, levels in sorted(self.schedules.items())],
            witness={"rule": "chains-v1"},
            claims={
                "bound": self.bound,
                "k": self.k,
                "min_product": self.min_product,
                "witness_inputs": self.witness_count(),
                "code_size": self.size,
                "orbits": [
                    {"representative": to_str(o.representative, self.m), "size": o.size, "gaps": [{"gap": g, "count": c} for g, c in sorted(o.gaps.items())]}
                    for o in self.orbits
                ],
            },
        )
        return kernel_fields(doc, self.kernel)

    def work(self) -> int:
        """The checker's work estimate for the orbit route of this certificate, from its sizes
        (the generator keeps its own copy of the formula; tests/lowerbounds/test_orbit_work.py
        compares it with the checker's on committed orbit files): enumeration (2^k codewords
        for a linear code, N listed words), permutation tables, the closure (N x permutations x
        lookups; twice for listed codes), one row of N popcounts per orbit and one more, each
        word operation costing ceil(m/64)."""
        doc = self.certificate()
        m, perms = self.m, len(doc["symmetry"]["permutations"])
        bits = 16 if m <= 128 else 8
        chunks = (m + bits - 1) // bits
        code, claims = doc["code"], doc["claims"]
        if "linear" in code:
            enumerate_ops, passes, words = 2 ** len(code["linear"]["generator"]), 1, claims["code_size"]
        else:
            words = len(code["words"])
            enumerate_ops, passes = words, 2
        tables = perms * chunks * 2**bits
        closure = passes * words * perms * chunks
        rows = (len(claims["orbits"]) + 1) * words
        return (m + 63) // 64 * (enumerate_ops + closure + rows) + tables

    def fits_checker(self) -> bool:
        from ..checker import Limits

        limits = Limits()
        return self.size <= limits.max_orbit_words and self.work() <= limits.max_orbit_work

    def describe(self) -> dict:
        code = f"{self.name} weight {self.weight}" if self.linear is not None else self.name
        w = self.weight if self.linear is not None else self.listed.weight()
        return {"code": code, "size": self.size, "weight": w, "min_gap": min(self.gaps), "gaps": self.gaps, "form": self.form, "orbits": self.orbit_count}


MAX_ORBITS = 400  # the checker computes one row of N popcounts per orbit


def orbit_rows(words: np.ndarray, perms, m: int, max_orbits: int | None = None) -> tuple[Orbit, ...] | None:
    """The orbits of sorted `words` under `perms`, each with its representative's row
    (None when there are more than max_orbits)."""
    found = orbits(words, perms)
    if max_orbits is not None and len(found.sizes) > max_orbits:
        return None
    return tuple(Orbit(rep, size, row_histogram(rep, words, m)) for rep, size in zip(found.representatives, found.sizes))


def assemble_orbits(words: np.ndarray, perms, n: int, variant: str, m: int, name: str, rows=None, **source) -> OrbitLowerBound | None:
    """The per-entry bound for sorted constant-weight `words` (uint64, m <= 64) under the
    group generated by `perms` (their orbit rows may be given); None when N < 2 or some
    pair has gap < 2."""
    if n < 3:
        raise ValueError("the lower bound needs n >= 3")
    words = np.ascontiguousarray(words, dtype=np.uint64)
    if len(words) < 2:
        return None
    if rows is None:
        rows = orbit_rows(words, perms, m)
    gaps = set().union(*(o.gaps for o in rows))
    if min(gaps) < 2:
        return None
    schedules, products = {}, Counter()
    for g in sorted(gaps):
        value, parts = best_schedule(n, g)
        schedules[g] = chain_levels(parts)
    for o in rows:
        for g, c in o.gaps.items():
            products[best_schedule(n, g)[0]] += o.size * c
    rank = best_rank_bound(len(words), products)
    return OrbitLowerBound(m, n, variant, name, len(words), tuple(tuple(p) for p in perms), rows, schedules, dict(products), rank, **source)


def assemble_linear_orbits(code: LinearCode, weight: int, n: int, variant: str = "position-independent") -> OrbitLowerBound | None:
    """The weight-w words of a linear code under its known automorphisms (code.automorphisms)."""
    if not code.automorphisms:
        return None
    base = code.unpadded  # orbits and rows of a padded code are those of the unpadded one
    words = base.words_of_weight_array(weight)
    if weight not in base.orbit_rows and len(words) >= 2:
        base.orbit_rows[weight] = orbit_rows(words, base.automorphisms, base.m, MAX_ORBITS)
    rows = base.orbit_rows.get(weight)
    if rows is None and len(words) >= 2:
        return None  # too many orbits for the checker's row budget
    lb = assemble_orbits(words, base.automorphisms, n, variant, base.m, base.name, rows=rows, linear=base, weight=weight)
    if lb is None or base is code:
        return lb
    return replace(lb, m=code.m, name=code.name, permutations=code.automorphisms, linear=code)


def assemble_listed_orbits(code: Code, perms, n: int, variant: str = "position-independent") -> OrbitLowerBound | None:
    """A listed constant-weight code (m <= 64) with coordinate permutations mapping it onto itself."""
    if code.weight() is None:
        raise ValueError("the orbit form needs a constant-weight code")
    words = np.sort(np.array(code.words, dtype=np.uint64))
    return assemble_orbits(words, perms, n, variant, code.m, code.name, listed=code)


# ------------------------------------------------- one protocol for every form


class LowerBoundForm(Protocol):
    """What `bound`, `table`, the catalog and the tests use of any lower-bound form."""

    m: int
    n: int
    variant: str
    kernel: str
    form: str

    @property
    def bound(self) -> int: ...

    @property
    def k(self) -> int: ...

    @property
    def min_product(self) -> int: ...

    @property
    def size(self) -> int: ...

    def witness_count(self) -> int: ...

    def certificate(self) -> dict: ...

    def describe(self) -> dict: ...


def best(m: int, n: int, variant: str = "position-independent", thorough: bool = True, kernel: str = "nonnegative") -> LowerBoundForm:
    """The largest bound over every form and code: listed words (per-entry, pairwise),
    weight classes of linear codes (uniform form), and weight classes with known
    automorphisms (per-entry through orbits).  Ties prefer listed words, then uniform.
    A signed kernel class (THEORY L8) takes the same code and chains and states L3 - 1."""
    check_kernel(kernel, variant)
    if kernel != "nonnegative":
        found = best(m, n, variant, thorough)
        return found.with_kernel(kernel)
    from .codes.library import linear_candidates

    found: list[tuple[int, int, int, LowerBoundForm]] = []
    pairwise = best_pairwise(m, n, variant, thorough) if m >= 4 else None
    if pairwise is not None:
        found.append((pairwise.bound, 2, -pairwise.size, pairwise))
    for code, w in linear_candidates(m):
        lin = assemble_linear(code, w, n, variant)
        if lin is not None:
            found.append((lin.bound, 1, -lin.size, lin))
        if code.unpadded.m > 32 and 2 * w < code.unpadded.m - 12:
            continue  # long codes: the per-entry gain is near weight m/2, where N is largest
        orb = assemble_linear_orbits(code, w, n, variant)
        if orb is not None and orb.fits_checker():
            found.append((orb.bound, 0, -orb.size, orb))
    if not found:
        return TrivialLowerBound(m, n, variant)
    return max(found, key=lambda t: t[:3])[3]


@dataclass(frozen=True)
class TrivialLowerBound:
    """r >= 1, the trivial bound (a head solving any input has a nonzero kernel), for m
    where no code with two words at gap >= 2 fits (m <= 3); no certificate."""

    m: int
    n: int
    variant: str
    kernel: str = "nonnegative"  # r >= 1 holds for every kernel class (a zero kernel has no denominator)
    form = "trivial (no code fits)"
    bound = 1
    k = 0
    min_product = 1
    size = 0

    def witness_count(self) -> int:
        return 0

    def with_kernel(self, kernel: str) -> "TrivialLowerBound":
        check_kernel(kernel, self.variant)
        return replace(self, kernel=kernel)

    def certificate(self) -> dict:
        raise ValueError(f"no code with two words at gap >= 2 fits in m = {self.m} bits: only the trivial bound r >= 1, which needs no certificate")

    def describe(self) -> dict:
        return {"code": "none", "size": 0, "weight": None, "min_gap": None, "gaps": None, "form": self.form, "orbits": None}


def any_certificate(lb: LowerBoundForm, kernel: str | None = None) -> dict:
    """The certificate of any form; `kernel` restates the bound for that kernel class."""
    return (lb if kernel is None else lb.with_kernel(kernel)).certificate()


def any_witness_count(lb: LowerBoundForm) -> int:
    return lb.witness_count()


def describe(lb: LowerBoundForm) -> dict:
    """Code name, size, weight, least gap, gap histogram (None for the uniform form), form, orbits."""
    return lb.describe()


# ------------------------------------------------- from a certificate to a domain object


def from_certificate(doc: dict) -> LowerBoundForm:
    """The lower-bound object a v1/v2 certificate describes, rebuilt from its data (code,
    schedules, symmetry) by the generator's own code and the certificate's k; raises
    ValueError when the document does not describe a well-formed bound (the checker
    decides whether its claims hold)."""
    if doc.get("kind") != "lower-bound":
        raise ValueError("not a lower-bound certificate")
    m, n, variant, k = doc["m"], doc["n"], doc["variant"], doc["claims"]["k"]
    kernel = doc.get("kernel", "nonnegative")
    try:
        check_kernel(kernel, variant)
    except ValueError as exc:
        raise ValueError(f"not a well-formed lower-bound certificate: {exc}") from None
    return _from_certificate(doc, m, n, variant, k).with_kernel(kernel)


def _from_certificate(doc: dict, m: int, n: int, variant: str, k: int) -> LowerBoundForm:
    from .amplification import chain_product
    from ..bits import from_str
    from .rankbound import least_rank, threshold

    schedules = {s["gap"]: tuple(s["levels"]) for s in doc["schedules"]}
    code_doc = doc["code"]
    name = code_doc.get("name", "code")
    try:
        if "symmetry" in doc:
            perms = tuple(tuple(p) for p in doc["symmetry"]["permutations"])
            if not all(is_permutation(p, m) for p in perms):
                raise ValueError("a listed permutation is not a permutation of 0..m-1")
            if "linear" in code_doc:
                lin = LinearCode(name, m, tuple(from_str(r) for r in code_doc["linear"]["generator"]), perms)
                lb = assemble_linear_orbits(lin, code_doc["linear"]["weight"], n, variant)
            else:
                lb = assemble_listed_orbits(Code(name, m, tuple(from_str(w) for w in code_doc["words"])), perms, n, variant)
            if lb is None:
                raise ValueError("the code has fewer than two words or a gap < 2")
            products = Counter()
            for g, c in lb.gaps.items():
                products[chain_product(n, schedules[g])] += c
            rank = RankBound(least_rank(k, threshold(lb.size, products, k)), k)
            return replace(lb, schedules=schedules, products=dict(products), rank=rank)
        if "linear" in code_doc:
            lin = LinearCode(name, m, tuple(from_str(r) for r in code_doc["linear"]["generator"]))
            w = code_doc["linear"]["weight"]
            size, d = lin.count_of_weight(w), lin.min_distance
            ((g, levels),) = schedules.items()
            p = chain_product(n, levels)
            rank = RankBound(least_rank(k, threshold(size, {p: size * (size - 1)}, k)), k)
            return LinearLowerBound(m, n, variant, lin, w, size, d, levels, p, rank)
        code = Code(name, m, tuple(from_str(w) for w in code_doc["words"]))
        gaps = code.gaps()
        products = Counter()
        for g, c in gaps.items():
            products[chain_product(n, schedules[g])] += c
        rank = RankBound(least_rank(k, threshold(code.size, products, k)), k)
        return LowerBound(m, n, variant, code, gaps, schedules, dict(products), rank)
    except (KeyError, TypeError, AttributeError, IndexError, OverflowError) as exc:
        raise ValueError(f"not a well-formed lower-bound certificate: {exc!r}") from None


def summary(lb: LowerBoundForm) -> dict:
    """The code's side of `kernelbounds bound --json`: the code, its gaps, the chain
    products and the witness family's size (THEORY L3-L4)."""
    from .codes.bounds import johnson

    info = describe(lb)
    w, g = info["weight"], info["min_gap"]
    return {
        "lower": lb.bound,
        "code": info["code"],
        "code_size": info["size"],
        "code_weight": w,
        "min_gap": g,
        "gaps": None if info["gaps"] is None else {str(k): v for k, v in sorted(info["gaps"].items())},
        "form": info["form"],
        "orbits": info["orbits"],
        "johnson_bound": johnson(lb.m, g, w) if w is not None and g is not None else None,
        "min_product": lb.min_product,
        "k": lb.k,
        "witness_inputs": any_witness_count(lb),
    }
