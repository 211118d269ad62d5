"""Forced signs of L1 at gap >= 2 and the sign-pattern witness family, shared by the rules
`orthant` (THEORY §3 L7) and `crossing` (THEORY §2 U6); docs/certificate-format-v2.md.

L1 (THEORY §3): for a query q and keys at levels l_lo < l_hi with d = l_hi - l_lo >= 2, a
head with error < 1/2 on (q, lo, ..., lo), (q, hi, ..., hi) and the mixed input has
D(lo) > rho D(hi) with rho = (n - 2)(d - 1) >= 1 (n >= 3), and D(hi) > 0 (a denominator),
so D(lo) > D(hi), i.e. K(q, lo) > K(q, hi).  Position-dependent heads (L5): the same for
Kbar = sum_j K_j when every placement of lo is in the family.
"""

from __future__ import annotations

from ..jsonread import Node

VARIANTS = ("position-independent", "position-dependent", "causal")
MAX_SIGNS = 20  # t queries (2^(t-1) pairs) or k pairs (2^k cycles)


def rho(n: int, d: int) -> int:
    """L1's factor: D(lo) > rho D(hi) for a gap d >= 2 at length n."""
    return (n - 2) * (d - 1)


def forced(q: int, a: int, b: int, n: int) -> int:
    """+1 if L1 forces K(q, b) > K(q, a) (<q,a> - <q,b> >= 2), -1 if it forces
    K(q, a) > K(q, b) (<q,b> - <q,a> >= 2), 0 if the sign is not forced."""
    la, lb = (q & a).bit_count(), (q & b).bit_count()
    d = abs(la - lb)
    if d < 2 or rho(n, d) < 1:
        return 0
    return 1 if la > lb else -1


def placements(n: int, variant: str) -> int:
    """Mixed inputs per (query, pair): every placement of the lower key for
    position-dependent heads (L5), one otherwise."""
    return n - 1 if variant == "position-dependent" else 1


def family_size(uniform: set[tuple[int, int]], incidences: int, n: int, variant: str) -> int:
    """|W| for the inputs of docs/certificate-format-v2.md (OR4, CR4), in closed form.

    A uniform input (q, z, ..., z) is determined by (q, z): `uniform` holds those pairs.
    A mixed input holds q, lo once and hi n - 2 times at a placement, so it determines
    (q, {lo, hi}, placement); the pairs are distinct unordered pairs, so the `incidences`
    (query, pair) give distinct mixed inputs, none uniform (lo != hi).  The causal variant
    only moves q to the end, which changes no count."""
    return len(uniform) + incidences * placements(n, variant)


def read_pair(node: Node, m: int, extra: frozenset[str] = frozenset()) -> tuple[int, int]:
    """A key pair {"a": token, "b": token, ...extra} (the caller rejects a = b)."""
    node.obj({"a", "b"} | extra)
    return node["a"].token(m), node["b"].token(m)


SCOPE = {
    "position-independent": "whose error at position 1 is < 1/2",
    "position-dependent": "with position-dependent maps whose error at position 1 is < 1/2",
    "causal": "that is causal with maps that do not depend on position, whose error at its final position is < 1/2",
}
