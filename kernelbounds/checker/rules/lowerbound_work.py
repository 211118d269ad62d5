"""The work estimate of rule `lower-bound` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from ..sizes import length, sized, small_int
from ..jsonread import Node
from ..limits import Limits, require
from ..cost import op
from .orbits_work import work_orbits
from .chains import MAX_K
from .chains_work import l3_work, schedule_sizes


def work(doc: Node, limits: Limits) -> int:
    doc.obj({"format", "version", "kind", "m", "n", "variant", "code", "queries", "schedules", "witness", "claims"}, {"symmetry", "kernel"})
    m = doc["m"].int(1, limit=limits.max_m)
    n = doc["n"].int(3, limit=limits.max_n)
    k = small_int(sized(doc["claims"], "k"), MAX_K, 1, MAX_K)
    sched = schedule_sizes(doc, n, m)
    if doc.has("symmetry"):
        orbit = work_orbits(doc, limits)
        require(orbit <= limits.max_orbit_work, "/symmetry", "the orbit route's work", orbit, limits.max_orbit_work)
        return orbit + l3_work(2**23, k, [b for _, _, b in sched])
    if doc["code"].has("linear"):
        return work_linear(doc, m, n, k, sched, limits)
    words = sized(doc["code"], "words")
    big_n = len(words) if isinstance(words, list) else 0
    chain = [(links + 1) * 4 + (inter + links) * 4 * op(m) for links, inter, _ in sched]
    per_link = n - 1 if sized(doc, "variant") == "position-dependent" else 1
    total = big_n * (m + 20) + big_n * big_n * (6 * op(m) + 4)  # tokens, then every ordered pair's gap
    total += big_n * (sum(chain) + 4 * big_n)  # row counts: one chain per (row, gap) at most
    total += l3_work(big_n, k, [b for _, _, b in sched])
    witness = sized(doc, "witness")
    listed = witness.get("inputs") if isinstance(witness, dict) else None
    if listed is not None:
        longest = max((links for links, _, _ in sched), default=1)
        family = big_n * (1 + (big_n - 1) * 2 * longest * per_link)
        total += big_n * big_n * max(chain, default=1) + family * (n * 3 + 10)  # rows, then the family's tuples
        total += length(listed) * n * (4 * op(m) + 3)  # reading and hashing the listed inputs
    return total


def work_linear(doc: Node, m: int, n: int, k: int, sched: list[tuple[int, int, int]], limits: Limits) -> int:
    """Gaussian elimination (dim^2), the 2^dim codewords (Gray code, one xor and one
    popcount each), and the uniform L3 inequality with one product."""
    lin = sized(doc["code"], "linear")
    gen = sized(Node(lin), "generator") if isinstance(lin, dict) else None
    dim = min(length(gen), limits.max_linear_dim)
    total = dim * (m + 20) + dim * dim * 3 * op(m) + 2**dim * (4 * op(m) + 6)
    return total + l3_work(2**dim, k, [b for _, _, b in sched][:1])
