"""The work estimate of the orbit form (rules/orbits.py, O0; docs/certificate-format-v2.md,
"Orbit form"), used by the estimates of rules `lower-bound` and `direct-sum`; the robustness
layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from ..cost import op
from ..jsonread import Node
from ..limits import Limits
from .orbits import MAX_PERMUTATIONS, chunk_bits


def table_sizes(bits: int) -> list[int]:
    """The entries of each lookup table of an orbits.LinearMap on `bits`-bit vectors."""
    b = chunk_bits(bits)
    return [2 ** min(b, bits - start) for start in range(0, bits, b)]


# The orbit route's cost per counted item, in units of cost.py's model (about 100 ns):
# timed on RM(2,6) weight 32 (docs/certificate-format-v2.md, O0), each rounded up.
COST = {"gray_steps": 2, "words": 2, "table_entries": 2, "lookups": 1, "images": 3, "popcounts": 1, "row_bits": 1}


def orbit_counts(doc: Node, limits: Limits) -> dict[str, int]:
    """What the orbit route does, counted from the sizes before any work (N: a linear code's
    claimed code_size, its enumeration stops beyond it; the orbits are disjoint, so the
    closure applies each map to at most N indices): a linear code's 2^k - 1 Gray steps;
    the N words kept; per permutation its lookup tables (on k-bit message vectors, or on
    m-bit listed words); the lookups and images of N x permutations (a listed code's
    automorphism test maps every word once more); one row of N popcounts per claimed
    orbit; a linear code's rows permuted bit by bit and reduced (permutations x k x (m + k))."""
    m = doc["m"].int(1, limit=limits.max_m)
    perms = len(doc["symmetry"]["permutations"].list(MAX_PERMUTATIONS))
    claims = doc["claims"]
    orbit_count = len(claims["orbits"].list(limits.max_orbit_words))
    code = doc["code"]
    if code.has("linear"):
        dim = len(code["linear"]["generator"].list(limits.max_linear_dim))
        n_words = claims["code_size"].int(0, limit=limits.max_orbit_words)
        tables = table_sizes(dim)
        return {"gray_steps": 2**dim - 1, "words": n_words, "table_entries": perms * sum(tables), "lookups": n_words * perms * len(tables),
                "images": n_words * perms, "popcounts": orbit_count * n_words, "row_bits": perms * dim * (m + dim)}
    n_words = len(code["words"].list(limits.max_orbit_words))
    tables = table_sizes(m)
    return {"gray_steps": 0, "words": n_words, "table_entries": perms * sum(tables), "lookups": n_words * perms * len(tables),
            "images": 2 * n_words * perms, "popcounts": orbit_count * n_words, "row_bits": 0}


def work_orbits(doc: Node, limits: Limits) -> int:
    """An upper bound on the orbit route's work in units: orbit_counts, each item at its
    COST, and an operation on an m-bit word (a Gray step, a lookup on a listed word, a
    popcount) at op(m) times its cost."""
    m = doc["m"].int(1, limit=limits.max_m)
    wide = {"gray_steps", "lookups", "popcounts"} if not doc["code"].has("linear") else {"gray_steps", "popcounts"}
    return sum(COST[item] * count * (op(m) if item in wide else 1) for item, count in orbit_counts(doc, limits).items())
