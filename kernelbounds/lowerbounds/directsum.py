"""Direct sums of codes for the lower bound (THEORY §3 L9; format v2, kind `direct-sum`).

For constant-weight codes C, D whose pairs all have gap >= 2, the direct sum C + D has
N_C N_D words, the gaps add, and the L3 quantity B_k = N^2 / (N + Sigma_k) is
supermultiplicative.  The bound needs only each component's orbits and row histograms
(the orbit form of THEORY L3): no word of the sum is listed.

This module computes the sum's bound by its own route, independent of the checker's
(rules/directsum.py convolves one row per tuple of orbits): the pair histogram of the sum
is the convolution of the components' **total** pair histograms H_c = sum_O |O| h_O
(convolution is multilinear, so summing over tuples first gives the same counts), minus
the N diagonal pairs at gap 0; the witness count uses each tuple's gap **set** (a sumset
of the copies' gap sets), never a convolution.  tests/lowerbounds/test_directsum.py
compares the two.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import product as cartesian

from ..errors import InvalidArgument
from ..bits import to_str
from ..certificate import header
from .amplification import best_schedule, chain_levels
from .forms import PerEntry, check_kernel, kernel_fields
from .codes.golay import generator_rows
from .codes.linear import LinearCode, reed_muller
from .orbitform import Orbit, orbit_rows
from .rankbound import RankBound, best_rank_bound
from .witness import placements


# ----------------------------------------------------------------- components


def golay_automorphisms() -> tuple[tuple[int, ...], ...]:
    """Coordinate permutations of the extended Golay code of codes/golay.py (the cyclic QR
    code of length 23 with the parity bit at 23): the cyclic shift i -> i + 1, the
    multiplier i -> 2i (2 is a square mod 23) and i -> -1/i with 0 <-> the parity bit
    (PSL(2, 23) on the projective line).  tests check that each maps the code onto itself."""
    p, inf = 23, 23
    shift = tuple((i + 1) % p for i in range(p)) + (inf,)
    mult = tuple((2 * i) % p for i in range(p)) + (inf,)
    inv = tuple(inf if i == 0 else (-pow(i, -1, p)) % p for i in range(p)) + (0,)
    return shift, mult, inv


@dataclass(frozen=True)
class Component:
    """The weight-w words of a binary linear code with coordinate automorphisms, with its
    orbits and row histograms (the orbit form)."""

    name: str
    code: LinearCode
    weight: int

    @property
    def m(self) -> int:
        return self.code.m

    @property
    def rows(self) -> tuple[Orbit, ...]:
        return _rows(self)

    @property
    def size(self) -> int:
        return sum(o.size for o in self.rows)

    def total(self) -> dict[int, int]:
        """H = sum_O |O| h_O with the diagonal: gap -> ordered pairs (gap 0: N)."""
        out: Counter[int] = Counter({0: self.size})
        for o in self.rows:
            for g, c in o.gaps.items():
                out[g] += o.size * c
        return dict(out)

    def json(self, copies: int) -> dict:
        return {
            "m": self.m,
            "copies": copies,
            "code": {"name": self.name, "linear": {"generator": [to_str(r, self.m) for r in self.code.rows], "weight": self.weight}},
            "symmetry": {"permutations": [list(p) for p in self.code.automorphisms]},
            "claims": {
                "code_size": self.size,
                "orbits": [{"representative": to_str(o.representative, self.m), "size": o.size, "gaps": [{"gap": g, "count": c} for g, c in sorted(o.gaps.items())]}
                           for o in self.rows],
            },
        }


@lru_cache(maxsize=None)
def _rows(component: Component) -> tuple[Orbit, ...]:
    words = component.code.words_of_weight_array(component.weight)
    return orbit_rows(words, component.code.automorphisms, component.code.m)


@lru_cache(maxsize=None)
def library() -> dict[str, Component]:
    """The components of THEORY L9, by name: RM(1,4) weight 8 and RM(2,4) weight 8 (the
    extended Hamming code [16,11,4]: 870 words, gaps 2..8, strong from n = 6 on) at m = 16,
    the dodecads of the Golay code (m = 24), RM(2,5) weight 16 (m = 32), RM(2,6) weight 32
    (m = 64)."""
    golay = LinearCode("golay-dodecads", 24, tuple(generator_rows()), golay_automorphisms())
    return {
        "RM(1,4)": Component("RM(1,4)", reed_muller(1, 4), 8),
        "RM(2,4)": Component("RM(2,4)", reed_muller(2, 4), 8),
        "golay-dodecads": Component("golay-dodecads", golay, 12),
        "RM(2,5)": Component("RM(2,5)", reed_muller(2, 5), 16),
        "RM(2,6)": Component("RM(2,6)", reed_muller(2, 6), 32),
    }


# ----------------------------------------------------------------- the sum


def convolve_totals(totals: list[dict[int, int]]) -> dict[int, int]:
    """The sum's pair histogram over all ordered pairs, the diagonal included (gap 0)."""
    out = {0: 1}
    for t in totals:
        nxt: Counter[int] = Counter()
        for a, x in out.items():
            for b, y in t.items():
                nxt[a + b] += x * y
        out = dict(nxt)
    return out


def sum_gaps(parts: tuple[tuple[Component, int], ...]) -> dict[int, int]:
    """gap -> ordered pairs i != j of the sum: the totals convolved, the N diagonal pairs removed."""
    totals = [c.total() for c, copies in parts for _ in range(copies)]
    out = convolve_totals(totals)
    if out[0] != _size(parts):
        raise AssertionError("the diagonal count of the convolved totals must be N")
    del out[0]
    return dict(sorted(out.items()))


def row_gap_sets(parts: tuple[tuple[Component, int], ...]):
    """(prod |O|, the set of gaps of the tuple's row) for every tuple of orbits: the sumset
    of the copies' gap sets (each with 0), without 0."""
    slots = [c.rows for c, copies in parts for _ in range(copies)]
    for choice in cartesian(*slots):
        size, gaps = 1, {0}
        for o in choice:
            size *= o.size
            gaps = {a + b for a in gaps for b in (0, *o.gaps)}
        gaps.discard(0)
        yield size, gaps


@dataclass(frozen=True)
class DirectSumBound(PerEntry):
    """The per-entry L3 bound of a direct sum of components (THEORY L9)."""

    n: int
    variant: str
    parts: tuple[tuple[Component, int], ...]  # (component, copies), in coordinate order
    schedules: dict[int, tuple[int, ...]]
    products: dict[int, int]
    rank: RankBound
    kernel: str = "nonnegative"

    form = "per-entry (direct sum of orbit-form codes)"

    @property
    def m(self) -> int:
        return sum(c.m * copies for c, copies in self.parts)

    @property
    def size(self) -> int:
        return _size(self.parts)

    @property
    def name(self) -> str:
        return " + ".join(c.name + (f"^{copies}" if copies > 1 else "") for c, copies in self.parts)

    def witness_count(self) -> int:
        """Per tuple of orbits, prod |O| times the constant-weight row count: N keys plus one
        per interior level, and the distinct prefix links plus N - 1 final links (times the
        placements per link)."""
        per_link = placements(self.variant, self.n)
        n_words, total = self.size, 0
        for size, gaps in row_gap_sets(self.parts):
            interior = {lv for g in gaps for lv in self.schedules[g][1:-1]}
            prefix = {pair for g in gaps for pair in zip(self.schedules[g][:-2], self.schedules[g][1:-1], strict=True)}
            total += size * (n_words + len(interior) + per_link * (len(prefix) + n_words - 1))
        return total

    def certificate(self) -> dict:
        doc = header("direct-sum", version=2)
        doc.update(
            m=self.m,
            n=self.n,
            variant=self.variant,
            queries="complement",
            components=[c.json(copies) for c, copies in self.parts],
            schedules=[{"gap": g, "levels": list(levels)} for g, levels in sorted(self.schedules.items())],
            witness={"rule": "chains-v1"},
            claims={"bound": self.bound, "k": self.k, "min_product": self.min_product, "witness_inputs": self.witness_count(), "code_size": self.size},
        )
        return kernel_fields(doc, self.kernel)


def direct_sum(parts: tuple[tuple[str | Component, int], ...], n: int, variant: str = "position-independent", kernel: str = "nonnegative") -> DirectSumBound:
    """The bound of the direct sum of components (a library name or a Component, copies) at length n."""
    if n < 3:
        raise InvalidArgument("the lower bound needs n >= 3")
    check_kernel(kernel, variant)
    lib = library()
    resolved = tuple((lib[c] if isinstance(c, str) else c, copies) for c, copies in parts)
    gaps = sum_gaps(resolved)
    schedules, products = {}, Counter()
    for g, count in gaps.items():
        value, chain = best_schedule(n, g)
        schedules[g] = chain_levels(chain)
        products[value] += count
    rank = best_rank_bound(_size(resolved), products)
    return DirectSumBound(n, variant, resolved, schedules, dict(products), rank, kernel)


def _size(parts) -> int:
    out = 1
    for c, copies in parts:
        out *= c.size**copies
    return out


# ----------------------------------------------------------------- the best sum

ORDER = ("RM(2,6)", "RM(2,5)", "golay-dodecads", "RM(2,4)", "RM(1,4)")  # coordinate order of a sum: longest component first


def sums_of_length(m: int) -> list[tuple[tuple[str, int], ...]]:
    """Every multiset of library components of total length m, as (name, copies) in ORDER."""
    lib = library()
    lengths = [lib[name].m for name in ORDER]
    out = []

    def extend(i: int, left: int, chosen: tuple[tuple[str, int], ...]) -> None:
        if i == len(ORDER):
            if left == 0 and chosen:
                out.append(chosen)
            return
        for copies in range(left // lengths[i], -1, -1):
            extend(i + 1, left - copies * lengths[i], chosen + (((ORDER[i], copies),) if copies else ()))

    extend(0, m, ())
    return out


@lru_cache(maxsize=None)
def best_parts(m: int, n: int) -> tuple[tuple[str, int], ...] | None:
    """The sum of library components of length exactly m with the largest bound at n
    (ties: the first in sums_of_length's order); None when no sum has length m."""
    found = None
    for parts in sums_of_length(m):
        bound = direct_sum(parts, n).bound
        if found is None or bound > found[0]:
            found = (bound, parts)
    return None if found is None else found[1]


def _parts(text: str) -> tuple[tuple[str, int], ...]:
    """"RM(2,5)^2 + golay-dodecads" -> (("RM(2,5)", 2), ("golay-dodecads", 1))."""
    out = []
    for item in text.split(" + "):
        name, _, copies = item.partition("^")
        out.append((name, int(copies or 1)))
    return tuple(out)


# best_parts(m, n) at the committed lengths, recorded so that regenerating the committed files
# does not repeat the search (up to 359 sums at m = 256); tests/lowerbounds/test_directsum.py
# (slow) runs the search and compares.
_BY_N = {  # n = 3, 4, 5, 6, 7, 8
    48: ("golay-dodecads^2", "RM(2,5) + RM(2,4)", "RM(2,5) + RM(2,4)", "RM(2,4)^3", "RM(2,4)^3", "RM(2,4)^3"),
    56: ("RM(2,5) + golay-dodecads", "RM(2,5) + golay-dodecads") + ("golay-dodecads + RM(2,4)^2",) * 4,
    64: ("RM(2,5)^2",) * 3 + ("RM(2,4)^4",) * 3,
    80: ("RM(2,6) + RM(2,4)", "RM(2,5)^2 + RM(2,4)", "RM(2,5)^2 + RM(2,4)") + ("RM(2,4)^5",) * 3,
    88: ("RM(2,6) + golay-dodecads", "RM(2,5)^2 + golay-dodecads", "RM(2,5) + golay-dodecads + RM(2,4)^2") + ("golay-dodecads + RM(2,4)^4",) * 3,
    96: ("RM(2,6) + RM(2,5)", "RM(2,5)^3", "RM(2,5)^3") + ("RM(2,4)^6",) * 3,
    128: ("RM(2,6)^2", "RM(2,5)^4", "RM(2,5)^4") + ("RM(2,4)^8",) * 3,
    192: ("RM(2,6)^3", "RM(2,5)^6", "RM(2,5)^6") + ("RM(2,4)^12",) * 3,
    256: ("RM(2,6)^4", "RM(2,5)^8", "RM(2,5)^8") + ("RM(2,4)^16",) * 3,
}
RECORDED = {(m, n): _parts(text) for m, row in _BY_N.items() for n, text in zip(range(3, 9), row, strict=True)}


def best(m: int, n: int, variant: str = "position-independent", kernel: str = "nonnegative") -> DirectSumBound:
    """The best direct sum of length m at n, stated for the variant and kernel class (the
    recorded search result at the committed lengths, else the search)."""
    parts = RECORDED.get((m, n)) or best_parts(m, n)
    if parts is None:
        raise InvalidArgument(f"no sum of the library's components (lengths 16, 24, 32, 64) has length {m}")
    return direct_sum(parts, n, variant, kernel)


def filename(m: int, n: int, variant: str = "position-independent", kernel: str = "nonnegative") -> str:
    middle = variant if kernel == "nonnegative" else f"{kernel}-{variant}"
    return f"lower-sum-{middle}-m{m:03d}-n{n}.json"


# ----------------------------------------------------------------- the committed files

LENGTHS = (48, 56, 64, 80, 88, 96, 128, 192, 256)  # THEORY L9's lengths; every m between pads the best sum below it
NOT_BETTER: set[tuple[int, int]] = set()  # (m, n) where a committed single code is larger (none: at m = 48, n = 4 the sum gives 15,207 > 14,859)


def committed_cells() -> list[tuple[int, int, str, str]]:
    """(m, n, variant, kernel) of every committed direct-sum file: the kernels and variants
    of the m = 64 orbit-form files (nonnegative and signed-any-denominator, position-independent,
    n = 3..8; at n = 3 also signed position-independent and signed-any-denominator causal)."""
    out = []
    for m in LENGTHS:
        for n in range(3, 9):
            if (m, n) in NOT_BETTER:
                continue
            out += [(m, n, "position-independent", "nonnegative"), (m, n, "position-independent", "signed-any-denominator")]
            if n == 3:
                out += [(m, n, "position-independent", "signed"), (m, n, "causal", "signed-any-denominator")]
    return out
