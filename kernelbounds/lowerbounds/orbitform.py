"""The per-entry lower bound through orbits (THEORY §3 L3; format v2, "Rows in one orbit"):
a constant-weight code with known coordinate automorphisms needs one gap histogram per
orbit instead of one per word, so codes far beyond a pairwise pass are certified.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from ..errors import InvalidArgument
from .amplification import best_schedule, chain_levels
from ..bits import to_str
from ..certificate import header
from .forms import PerEntry, kernel_fields
from .codes import Code
from .codes.linear import LinearCode
from .rankbound import RankBound, best_rank_bound
from .symmetry import orbits, row_histogram
from .witness import placements


@dataclass(frozen=True)
class Orbit:
    representative: int
    size: int
    gaps: dict[int, int]  # the representative's row: gap -> number of j != i


@dataclass(frozen=True)
class OrbitLowerBound(PerEntry):
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
                prefix.update(zip(levels[:-2], levels[1:-1], strict=True))  # the links before the last
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
        compares it with the checker's on committed orbit files): per permutation a lookup
        table on the k-bit message vectors (linear code) or the m-bit words (listed code),
        then 2 units per Gray step of the 2^k - 1 (linear) and per word kept, 2 per table
        entry, 1 per table lookup (N x permutations x tables), 3 per image (N x
        permutations; twice for a listed code), 1 per popcount (N per orbit) and, for a
        linear code, permutations x k x (m + k) for its rows; Gray steps, popcounts and a
        listed code's lookups at op(m) = 1 + m // 2048 times that."""
        doc = self.certificate()
        m, perms = self.m, len(doc["symmetry"]["permutations"])
        code, claims = doc["code"], doc["claims"]
        wide = 1 + m // 2048
        linear = "linear" in code
        bits = len(code["linear"]["generator"]) if linear else m
        chunk = 16 if bits <= 128 else 8
        tables = [2 ** min(chunk, bits - start) for start in range(0, bits, chunk)]
        words = claims["code_size"] if linear else len(code["words"])
        steps = 2**bits - 1 if linear else 0
        images = words * perms * (1 if linear else 2)
        lookups = words * perms * len(tables) * (1 if linear else wide)
        row_bits = perms * bits * (m + bits) if linear else 0
        return 2 * steps * wide + 2 * words + 2 * perms * sum(tables) + lookups + 3 * images + len(claims["orbits"]) * words * wide + row_bits

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
    return tuple(Orbit(rep, size, row_histogram(rep, words, m)) for rep, size in zip(found.representatives, found.sizes, strict=True))


def assemble_orbits(words: np.ndarray, perms, n: int, variant: str, m: int, name: str, rows=None, **source) -> OrbitLowerBound | None:
    """The per-entry bound for sorted constant-weight `words` (uint64, m <= 64) under the
    group generated by `perms` (their orbit rows may be given); None when N < 2 or some
    pair has gap < 2."""
    if n < 3:
        raise InvalidArgument("the lower bound needs n >= 3")
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
        raise InvalidArgument("the orbit form needs a constant-weight code")
    words = np.sort(np.array(code.words, dtype=np.uint64))
    return assemble_orbits(words, perms, n, variant, code.m, code.name, listed=code)
