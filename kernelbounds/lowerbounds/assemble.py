"""Assembly of the lower bound for given m and n (THEORY §3 L4, L6).

For a code c_1..c_N (all gaps >= 2) with queries q_i = comp(c_i), each ordered pair
(i, j) gets a chain of levels 0 = l_0 < ... < l_k = g_ij following the best schedule for
its gap, so M_ij = K(q_i, c_j)/K(q_i, c_i) < 1/P_ij with P_ij = R_n(g_ij); the rank
bound of L3 (per-entry form) then holds for every head that solves the witness family.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Protocol

from ..errors import InvalidArgument
from .amplification import best_schedule, chain_levels
from .certify import certificate, linear_certificate
from .forms import PerEntry, Ranked, check_kernel
from .codes import Code
from .codes.library import candidates
from .codes.linear import LinearCode
from .orbitform import assemble_linear_orbits, assemble_listed_orbits
from .rankbound import RankBound, best_rank_bound
from .symmetry import is_permutation
from .witness import linear_witness_count, witness_count

from ..vocabulary import VARIANTS


@dataclass(frozen=True)
class LowerBound(PerEntry):
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

    def certificate(self, listed: bool = False) -> dict:
        return certificate(self, listed)

    def describe(self) -> dict:
        return {"code": self.code.name, "size": self.code.size, "weight": self.code.weight(), "min_gap": min(self.gaps), "gaps": self.gaps, "form": self.form, "orbits": None}


def assemble(code: Code, n: int, variant: str = "position-independent") -> LowerBound:
    """The best per-entry bound for this code at length n."""
    if n < 3:
        raise InvalidArgument("the lower bound needs n >= 3")
    if variant not in VARIANTS:
        raise InvalidArgument(f"unknown variant {variant!r}")
    gaps = code.gaps()
    if min(gaps) < 2:
        raise InvalidArgument(f"code {code.name} has a pair with gap {min(gaps)} < 2")
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


def smallest_witness(m: int, n: int, target: int, variant: str = "position-independent") -> LowerBound | None:
    """The bound with the smallest witness family certifying r >= target, over prefixes
    of the candidate codes (the shortest prefix of each code that reaches the target);
    for a signed kernel class see ``sources.codes.witness`` (THEORY L8: target + 1)."""
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
class LinearLowerBound(Ranked):
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


SEARCH_MAX_M = 64  # the stored grid (hub COMPUTED); linear codes are enumerated for m <= 64


def best(m: int, n: int, variant: str = "position-independent", thorough: bool = True) -> LowerBoundForm:
    """The largest bound over every form and code: listed words (per-entry, pairwise),
    weight classes of linear codes (uniform form), and weight classes with known
    automorphisms (per-entry through orbits).  Ties prefer listed words, then uniform.
    A signed kernel class (THEORY L8) takes the same code and chains and states L3 - 1
    (``sources.codes.restate``, the one path that restates a bound).
    Runs for m <= 64 (SEARCH_MAX_M): above, the lower side is the committed direct sums
    of THEORY L9 (lowerbounds.directsum), padded; the search over padded weight classes
    it once ran there (15-50 s per m) was weaker."""
    if m > SEARCH_MAX_M:
        raise InvalidArgument(f"the code search runs for m <= {SEARCH_MAX_M}; above, the lower side is the committed direct sums of THEORY L9 (lowerbounds.directsum)")
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
        raise InvalidArgument(f"no code with two words at gap >= 2 fits in m = {self.m} bits: only the trivial bound r >= 1, which needs no certificate")

    def describe(self) -> dict:
        return {"code": "none", "size": 0, "weight": None, "min_gap": None, "gaps": None, "form": self.form, "orbits": None}


def any_certificate(lb: LowerBoundForm) -> dict:
    """The certificate of any form, for the kernel class it states (``lb.kernel``)."""
    return lb.certificate()


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
        raise InvalidArgument("not a lower-bound certificate")
    m, n, variant, k = doc["m"], doc["n"], doc["variant"], doc["claims"]["k"]
    kernel = doc.get("kernel", "nonnegative")
    try:
        check_kernel(kernel, variant)
    except ValueError as exc:
        raise InvalidArgument(f"not a well-formed lower-bound certificate: {exc}") from None
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
                raise InvalidArgument("a listed permutation is not a permutation of 0..m-1")
            if "linear" in code_doc:
                lin = LinearCode(name, m, tuple(from_str(r) for r in code_doc["linear"]["generator"]), perms)
                lb = assemble_linear_orbits(lin, code_doc["linear"]["weight"], n, variant)
            else:
                lb = assemble_listed_orbits(Code(name, m, tuple(from_str(w) for w in code_doc["words"])), perms, n, variant)
            if lb is None:
                raise InvalidArgument("the code has fewer than two words or a gap < 2")
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
        raise InvalidArgument(f"not a well-formed lower-bound certificate: {exc!r}") from None


def summary(lb: LowerBoundForm) -> dict:
    """The code's side of `kernelbounds bound --json`: the code, its gaps, the chain
    products and the witness family's size (THEORY L3-L4)."""
    from .codes.johnson import johnson

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
