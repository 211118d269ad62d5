"""Rank two refuted by single crossing (THEORY §2 U6): a set of key pairs for which every
choice of separation directions has a cycle of strict angle precedences proves that no
head of kernel rank <= 2 with a nonnegative kernel solves the witness family, so
r >= 3.

For a key pair (a, b), L1 (gap >= 2, n >= 3) forces K(q, a) > K(q, b) on
P(a, b) = {q : <q,b> - <q,a> >= 2} and the reverse on N(a, b).  A nonnegative rank-2
kernel is <alpha_q, beta_z> with nonnegative 2-vectors (Cohen-Rothblum), and the sign of
K(q, a) - K(q, b) changes at most once along the angle of alpha_q, so P and N are
separated: direction 0 (every p in P before every q in N) or 1 (after).  A *core* is a
set of pairs whose 2^k direction choices are all cyclic.

- :func:`forced_sets` and :func:`cycle` are the exact combinatorics (graph search, no
  solver); :func:`refute` packages a core with one cycle per choice;
- :func:`acyclic_choice` asks CP-SAT (OR-Tools) for a choice and an order of the queries
  that satisfies every precedence (a solution means "not a core"); :func:`search` shrinks
  a candidate set to an inclusion-minimal core by deletion.  The solver only proposes:
  the certificate (kind `crossing`, docs/certificate-format-v2.md) lists a cycle for
  every choice, and the checker verifies each.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

from ..errors import InvalidArgument
from ..bits import inner, to_str
from ..certificate import header
from .assemble import VARIANTS
from .domination import factor
from .signrank import forced_family

BOUND = 3
# THEORY U6: five complementary pairs at m = 5 whose 32 direction choices are all cyclic
THEORY_M5 = (("00110", "11001"), ("01001", "10110"), ("01100", "10011"), ("01101", "10010"), ("01110", "10001"))
# The core `search(5, complementary=False)` finds (CP-SAT, one worker, seed 0; 41 solves,
# 0.5 s): five pairs sharing keys, so the witness family has 50 inputs instead of 105.
# Fixed here so that the committed certificates regenerate without the solver.
CORE_M5 = (("10110", "11001"), ("10110", "01011"), ("01110", "11001"), ("01110", "10101"), ("10101", "01011"))


def forced_sets(a: int, b: int, m: int, n: int = 3) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(P, N) over all 2^m queries: P forces K(q, a) > K(q, b), N the reverse (L1)."""
    pos, neg = [], []
    for q in range(1 << m):
        d = inner(q, b) - inner(q, a)
        if abs(d) >= 2 and factor(n, abs(d)) >= 1:
            (pos if d > 0 else neg).append(q)
    return tuple(pos), tuple(neg)


def precedences(sets, choice: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per pair e, (before, after) under the choice (bit e: 0 = P before N, 1 = N before P)."""
    return [(pos, neg) if not choice >> e & 1 else (neg, pos) for e, (pos, neg) in enumerate(sets)]


def cycle(sets, choice: int) -> list[tuple[int, int]] | None:
    """A shortest closed walk [(x_0, e_0), ...] with theta(x_j) < theta(x_(j+1)) by pair e_j,
    or None when the choice's precedences are acyclic.  Breadth-first from each query, in
    increasing order (deterministic)."""
    order = precedences(sets, choice)
    out_pairs: dict[int, list[int]] = {}
    for e, (before, _) in enumerate(order):
        for x in before:
            out_pairs.setdefault(x, []).append(e)
    best = None
    for start in sorted(out_pairs):
        parent: dict[int, tuple[int, int]] = {}
        queue, found = deque([start]), None
        seen = {start}
        while queue and found is None:
            x = queue.popleft()
            for e in out_pairs.get(x, ()):
                for y in order[e][1]:
                    if y == start:
                        found = (x, e)
                        break
                    if y not in seen:
                        seen.add(y)
                        parent[y] = (x, e)
                        queue.append(y)
                if found:
                    break
        if found is None:
            continue
        walk, (x, e) = [], found
        walk.append((x, e))
        while x != start:
            x, e = parent[x]
            walk.append((x, e))
        walk.reverse()
        if best is None or len(walk) < len(best):
            best = walk
        if len(best) == 2:
            break
    return best


@dataclass(frozen=True)
class Crossing:
    """A core of key pairs with one closed walk per direction choice."""

    m: int
    n: int
    variant: str
    pairs: tuple[tuple[int, int], ...]

    @property
    def bound(self) -> int:
        return BOUND

    @cached_property
    def sets(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        return tuple(forced_sets(a, b, self.m, self.n) for a, b in self.pairs)

    @cached_property
    def cycles(self) -> tuple[list[tuple[int, int]] | None, ...]:
        return tuple(cycle(self.sets, c) for c in range(2 ** len(self.pairs)))

    @property
    def is_core(self) -> bool:
        return all(w is not None for w in self.cycles)

    @cached_property
    def witness_inputs(self) -> tuple[tuple[int, ...], ...]:
        """Per pair and forced query: both uniform inputs and the mixed input(s) with the
        lower-level key once (every placement for position-dependent maps)."""
        incidences = ((q, a, b) for (a, b), (pos, neg) in zip(self.pairs, self.sets, strict=True) for q in sorted(pos + neg))
        return forced_family(incidences, self.n, self.variant)

    @property
    def witness_count(self) -> int:
        return len(self.witness_inputs)

    def certificate(self) -> dict:
        if not self.is_core:
            raise InvalidArgument("not a core: some direction choice is acyclic, so no crossing certificate exists")
        m = self.m
        doc = header("crossing", version=2)
        doc.update(
            m=m,
            n=self.n,
            variant=self.variant,
            pairs=[{"a": to_str(a, m), "b": to_str(b, m)} for a, b in self.pairs],
            cycles=[{"steps": [{"query": to_str(x, m), "pair": e} for x, e in walk]} for walk in self.cycles],
            claims={"bound": BOUND, "forced": [{"positive": len(p), "negative": len(q)} for p, q in self.sets], "witness_inputs": self.witness_count},
        )
        return doc

    def describe(self) -> dict:
        return {"method": "U6 single crossing (rank 2 refuted)", "m": self.m, "n": self.n, "variant": self.variant, "bound": BOUND, "pairs": len(self.pairs), "witness_inputs": self.witness_count}


def refute(m: int, n: int = 3, variant: str = "position-independent", pairs=None) -> Crossing:
    """The crossing object for the given pairs (tokens as ints or '0'/'1' strings);
    default: CORE_M5 at m = 5, else the pairs :func:`search` finds (a ValueError if none)."""
    if n < 3 or variant not in VARIANTS:
        raise InvalidArgument(f"single crossing needs n >= 3 and a variant in {VARIANTS}")
    if pairs is None:
        pairs = CORE_M5 if m == 5 else search(m).pairs
        if pairs is None:
            raise InvalidArgument(f"no crossing core found at m = {m}")
    parsed = tuple(tuple(_token(x) for x in p) for p in pairs)
    return Crossing(m, n, variant, parsed)


def _token(x) -> int:
    return int(x[::-1], 2) if isinstance(x, str) else int(x)


# ----------------------------------------------------------------- the CP-SAT search


def candidate_pairs(m: int, complementary: bool = True) -> list[tuple[int, int]]:
    """Key pairs with nonempty P and N: complementary pairs (a, comp(a)) with a < comp(a),
    or every unordered pair of distinct tokens."""
    full = (1 << m) - 1
    pool = [(a, full ^ a) for a in range(1 << m) if a < full ^ a] if complementary else list(combinations(range(1 << m), 2))
    return [p for p in pool if all(forced_sets(*p, m))]


def acyclic_choice(sets, time_limit: float = 60.0) -> tuple[int, dict[int, int]] | None | str:
    """CP-SAT: a direction per pair and integer positions of the queries satisfying every
    strict precedence (P before N, or after, through a threshold tau_e).  Returns
    (choice, positions), None when CP-SAT proves there is none (a core), or "unknown".
    Needs OR-Tools (the extra ``search``)."""
    from ortools.sat.python import cp_model

    queries = sorted({q for pos, neg in sets for q in pos + neg})
    size = len(queries)
    model = cp_model.CpModel()
    position = {q: model.NewIntVar(0, size, f"p{q}") for q in queries}
    bits = []
    for e, (pos, neg) in enumerate(sets):
        d = model.NewBoolVar(f"d{e}")
        tau = model.NewIntVar(0, size + 1, f"t{e}")
        for x in pos:
            model.Add(position[x] < tau).OnlyEnforceIf(d.Not())
            model.Add(position[x] >= tau).OnlyEnforceIf(d)
        for x in neg:
            model.Add(position[x] >= tau).OnlyEnforceIf(d.Not())
            model.Add(position[x] < tau).OnlyEnforceIf(d)
        bits.append(d)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.Solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "unknown"
    choice = sum(solver.Value(d) << e for e, d in enumerate(bits))
    return choice, {q: solver.Value(v) for q, v in position.items()}


@dataclass(frozen=True)
class SearchResult:
    m: int
    pairs: tuple[tuple[int, int], ...] | None  # an inclusion-minimal core, or None
    candidates: int
    solves: int
    note: str


def search(m: int, complementary: bool = True, time_limit: float = 60.0, max_pairs: int = 16) -> SearchResult:
    """An inclusion-minimal core among the candidate pairs: CP-SAT proves the whole
    candidate set is a core (no acyclic choice), then deletion drops each pair whose
    removal keeps it a core.  At most max_pairs pairs are kept (the certificate lists 2^k
    cycles)."""
    cands = candidate_pairs(m, complementary)
    sets = {p: forced_sets(*p, m) for p in cands}
    solves = 1
    first = acyclic_choice([sets[p] for p in cands], time_limit)
    if first == "unknown":
        return SearchResult(m, None, len(cands), solves, "CP-SAT timed out on the candidate set")
    if first is not None:
        return SearchResult(m, None, len(cands), solves, "the candidate set has an acyclic direction choice: no core among these pairs")
    core = list(cands)
    for p in list(cands):
        trial = [x for x in core if x != p]
        solves += 1
        if trial and acyclic_choice([sets[x] for x in trial], time_limit) is None:
            core = trial
    if len(core) > max_pairs:
        return SearchResult(m, None, len(cands), solves, f"the minimal core found has {len(core)} pairs, over max_pairs = {max_pairs}")
    return SearchResult(m, tuple(core), len(cands), solves, f"inclusion-minimal core of {len(core)} pairs")
