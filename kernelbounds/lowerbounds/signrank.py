"""The orthant family (THEORY §3 L7): r >= floor(m/2) at every m and n >= 3, by sign rank
>= VC dimension.

t = floor(m/2) queries q_i = {2i, 2i+1}; for each class {s, -s} of sign vectors one key
pair (a_s, b_s), a_s the union of the q_i with s_i = +, b_s of the others, so
<q_i, a_s> - <q_i, b_s> = 2 s_i and L1 (gap 2, factor n - 2 >= 1) forces
sign(K(q_i, b_s) - K(q_i, a_s)) = s_i.  A dependency sum_i mu_i K(q_i, .) = 0 would meet the
pair with s = sign(mu), where it sums to > 0; so the rows K(q_i, .) have rank t.  The
certificate kind is `orthant` (docs/certificate-format-v2.md); nonnegativity of the kernel
is not used.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..errors import InvalidArgument
from ..bits import inner, to_str
from ..certificate import header
from .assemble import VARIANTS
from .witness import mixed_inputs, placements, uniform_input
from .domination import factor

RULE = "disjoint-pairs"


def bound(m: int) -> int:
    """L7's bound floor(m/2) (for n >= 3, every variant)."""
    return m // 2


def forced_family(incidences, n: int, variant: str) -> tuple[tuple[int, ...], ...]:
    """The distinct inputs that force sign(K(q, a) - K(q, b)) by L1 for each (q, a, b):
    (q, a, ..., a), (q, b, ..., b) and the mixed input(s) with the lower-level key once
    (every placement for position-dependent maps; q last for causal), in first-seen order.
    Shared with lowerbounds/crossing.py (THEORY U6 uses the same inputs)."""
    out: dict[tuple[int, ...], None] = {}
    for q, a, b in incidences:
        lo, hi = (a, b) if inner(q, a) < inner(q, b) else (b, a)
        out[uniform_input(q, a, n, variant)] = None
        out[uniform_input(q, b, n, variant)] = None
        out.update(dict.fromkeys(mixed_inputs(q, lo, hi, n, variant)))
    return tuple(out)


MAX_T = 20  # the checker's limit on t (2^(t-1) pairs)


@dataclass(frozen=True)
class Orthant:
    """t queries and 2^(t-1) key pairs whose L1-forced sign patterns shatter the queries.

    `given` = (queries, pairs) lists a family; None is the rule disjoint-pairs, built only
    when needed (so `.bound` is free at any m)."""

    m: int
    n: int
    variant: str
    given: tuple[tuple[int, ...], tuple[tuple[int, int], ...]] | None = None

    @cached_property
    def queries(self) -> tuple[int, ...]:
        return self.given[0] if self.given else tuple(3 << (2 * i) for i in range(self.m // 2))

    @cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        if self.given:
            return self.given[1]
        t, queries = self.t, self.queries
        if t > MAX_T:
            raise InvalidArgument(f"t = {t} queries: 2^{t - 1} pairs is over the limit t <= {MAX_T}")
        out = []
        for c in range(2 ** (t - 1)):
            a = queries[0] + sum(queries[i] for i in range(1, t) if c >> (i - 1) & 1)
            out.append((a, sum(queries) - a))
        return tuple(out)

    @property
    def t(self) -> int:
        return len(self.given[0]) if self.given else self.m // 2

    @property
    def bound(self) -> int:
        return self.t

    def sign(self, q: int, a: int, b: int) -> str:
        """'+' when L1 forces K(q, b) > K(q, a) (<q,a> - <q,b> >= 2), '-' for the reverse."""
        d = inner(q, a) - inner(q, b)
        if abs(d) < 2 or factor(self.n, abs(d)) < 1:
            raise InvalidArgument(f"the sign of query {q} on ({a}, {b}) is not forced (gap {abs(d)})")
        return "+" if d > 0 else "-"

    def pattern(self, e: int) -> str:
        a, b = self.pairs[e]
        return "".join(self.sign(q, a, b) for q in self.queries)

    def shatters(self) -> bool:
        """Every sign vector is some pair's pattern or its negation."""
        flip = str.maketrans("+-", "-+")
        seen = {p for e in range(len(self.pairs)) for p in (self.pattern(e), self.pattern(e).translate(flip))}
        return len(seen) == 2**self.t

    @cached_property
    def witness_inputs(self) -> tuple[tuple[int, ...], ...]:
        """The witness family: per (query, pair) both uniform inputs and the mixed input(s)
        with the lower-level key once (every placement for position-dependent maps)."""
        return forced_family(((q, a, b) for a, b in self.pairs for q in self.queries), self.n, self.variant)

    @property
    def witness_count(self) -> int:
        """|W|; for the rule all 2^t keys are distinct, so |W| = (2 + placements) t 2^(t-1)
        without building W (THEORY L7; a test compares it with the built family)."""
        if self.given:
            return len(self.witness_inputs)
        return (2 + placements(self.variant, self.n)) * self.t * 2 ** (self.t - 1)

    def certificate(self, listed: bool = False) -> dict:
        """The `orthant` certificate (v2): the rule, or (listed) the queries and patterns."""
        doc = header("orthant", version=2)
        if listed or self.given:
            family = {
                "queries": [to_str(q, self.m) for q in self.queries],
                "pairs": [{"a": to_str(a, self.m), "b": to_str(b, self.m), "pattern": self.pattern(e)} for e, (a, b) in enumerate(self.pairs)],
            }
        else:
            family = {"rule": RULE}
        doc.update(m=self.m, n=self.n, variant=self.variant, family=family, claims={"bound": self.bound, "witness_inputs": self.witness_count})
        return doc

    def describe(self) -> dict:
        return {"method": "L7 orthant family (sign rank >= VC dimension)", "m": self.m, "n": self.n, "variant": self.variant, "bound": self.bound, "witness_inputs": self.witness_count}


def orthant(m: int, n: int = 3, variant: str = "position-independent") -> Orthant:
    """THEORY L7's family at (m, n, variant): bound floor(m/2) (m >= 2, n >= 3); the pairs
    are built on first use (a certificate needs floor(m/2) <= 20)."""
    if m < 2 or n < 3 or variant not in VARIANTS:
        raise InvalidArgument(f"the orthant family needs m >= 2, n >= 3 and a variant in {VARIANTS}; got m={m}, n={n}, {variant!r}")
    return Orthant(m, n, variant)
