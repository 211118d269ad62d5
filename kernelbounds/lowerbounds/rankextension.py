"""Rank extensions (THEORY §2 U7+, "Disjoint edges add one rank each"): a committed rank
refutation at m0 (refuted rank r0) plus j pairwise disjoint edges on the new coordinates
m0..m0+2j-1 refutes rank r0 + j at m = m0 + 2j, so r* >= r0 + 1 + j.

The certificate (kind `rank-extension`, docs/certificate-format-v2.md) names its base by
the sha256 of the base file's canonical bytes (and its file name, a hint), lists the edges
and states the refuted rank, the bound and the size of the composite witness family: for
every base pair (a, b) and each of the 2^j ways to put every edge wholly beside a or wholly
beside b, the pair (a + A', b + B') and the inputs of every query forced on it (the base's
queries and the edges).  Generator side: nothing here is trusted; the checker resolves the
base, checks it and re-derives every number.
"""

from __future__ import annotations

from ..vocabulary import sha256
from collections.abc import Callable
from dataclasses import dataclass

from ..bits import inner
from ..certificate import canonical_json, header
from .signrank import forced_family

KIND = "rank-extension"


def filename(m: int, n: int, r: int, variant: str) -> str:
    """r is the refuted rank (the bound is r + 1), as for rank-refutation files."""
    return f"extension-{variant}-m{m:02d}-n{n}-r{r}.json"


def matching(m0: int, j: int) -> list[tuple[int, int]]:
    """The j edges {m0, m0+1}, {m0+2, m0+3}, ...: pairwise disjoint, disjoint from 0..m0-1."""
    return [(m0 + 2 * i, m0 + 2 * i + 1) for i in range(j)]


def _token(text: str) -> int:
    return int(text[::-1], 2)


@dataclass(frozen=True)
class Extension:
    base: dict  # the base rank-refutation certificate (a dict, as written)
    base_name: str
    edges: tuple[tuple[int, int], ...]

    @property
    def base_text(self) -> str:
        return canonical_json(self.base)

    @property
    def m(self) -> int:
        return self.base["m"] + 2 * len(self.edges)

    @property
    def rank(self) -> int:
        return self.base["rank"] + len(self.edges)

    def witness_inputs(self) -> tuple[tuple[int, ...], ...]:
        """The composite family's distinct inputs (signrank.forced_family on its incidences)."""
        queries = [_token(q) for q in self.base["queries"]] + [(1 << u) | (1 << v) for u, v in self.edges]
        incidences = []
        for pair in self.base["pairs"]:
            a0, b0 = _token(pair["a"]), _token(pair["b"])
            for choice in range(1 << len(self.edges)):
                a, b = a0, b0
                for i, (u, v) in enumerate(self.edges):
                    if choice >> i & 1:
                        b |= (1 << u) | (1 << v)
                    else:
                        a |= (1 << u) | (1 << v)
                incidences += [(q, a, b) for q in queries if abs(inner(q, a) - inner(q, b)) >= 2]
        return forced_family(incidences, self.base["n"], self.base["variant"])

    def certificate(self) -> dict:
        doc = header(KIND, version=2)
        doc.update(
            m=self.m,
            n=self.base["n"],
            variant=self.base["variant"],
            kernel=self.base["kernel"],
            base={"sha256": sha256(self.base_text), "name": self.base_name},
            edges=[list(e) for e in self.edges],
            claims={"rank": self.rank, "bound": self.rank + 1, "witness_inputs": len(self.witness_inputs())},
        )
        return doc


def extend(base: dict, base_name: str, j: int) -> Extension:
    """The base refutation plus the matching of j edges on the coordinates after its m."""
    return Extension(base, base_name, tuple(matching(base["m"], j)))


# The committed set (kernelbounds/release/catalog.py): the m = 6 refutation (rank 3) plus j disjoint
# edges refutes rank 3 + j at m = 6 + 2j, so r*(m, n) >= floor(m/2) + 1 (odd m by restriction).
# Committed only where nothing larger applies (the hub cites them; elsewhere the code bound of
# L4, or L4 - 1 for signed kernels (L8), is larger, e.g. 11 at m = 19, n = 3 and everywhere at
# n >= 6 from m = 8): n = 3 at m = 10..20 (m = 8 has the direct refutation), n = 4 at m = 8, 10
# and n = 5 at m = 8.  Position-dependent and causal claims also bound the position-independent
# r* (THEORY L5), so those two variants answer all three.
MS = {3: range(10, 21, 2), 4: (8, 10), 5: (8,)}
CELLS = [(m, n, v) for v in ("position-dependent", "causal") for n, ms in MS.items() for m in ms]
_BUILT: dict[str, dict] = {}


def once(name: str, build: Callable[[], dict]) -> Callable[[], dict]:
    """`build`, run once per process under `name` (a base shared by several extensions)."""

    def cached() -> dict:
        if name not in _BUILT:
            _BUILT[name] = build()
        return _BUILT[name]

    return cached


def entry(m: int, n: int, variant: str, base_name: str, base_build: Callable[[], dict], m0: int = 6, r0: int = 3) -> tuple[str, Callable[[], dict]]:
    """(file name, build) of the extension of the base (refuting r0 at m0) to m by the
    matching after m0."""
    return filename(m, n, r0 + (m - m0) // 2, variant), lambda: extend(base_build(), base_name, (m - m0) // 2).certificate()
