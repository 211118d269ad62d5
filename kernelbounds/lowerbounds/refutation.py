"""Rank refutations with clausal proofs (THEORY §2 U7): solve the chirotope CNF with CaDiCaL,
shrink the queries and key pairs greedily to a small core, and write a `rank-refutation`
certificate (docs/certificate-format-v2.md) that carries the DRAT proof.

Regeneration is a replay: ``kernelbounds/data/refutations.json`` stores, per (m, r), the
core (queries, pairs), the solver's name and version, and its proof.  A solver's proof
depends on its version, so re-running it in another environment may give other bytes; the
stored proof makes `kernelbounds certificates` a pure function of the repository (and the
checker re-verifies it every time).  ``python -m kernelbounds.lowerbounds.refutation
--refresh`` re-runs the solver and rewrites the store.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from pathlib import Path

from ..errors import InvalidArgument, KernelboundsError
from ..bits import inner, to_str, tokens_of_weight
from ..certificate import header
from .assemble import VARIANTS
from .chirotope import dimacs, encode, pattern
from .signrank import forced_family
from .trimming import trim

SOLVER = "cadical"
OPTIONS = ("-q", "--no-binary")
# the final solve of a core tries these option sets and keeps the smallest trimmed proof
# (at m = 6, r = 3: 2,048 LRAT lemmas by default, 1,050 with --sat)
FINAL_OPTIONS = (OPTIONS, OPTIONS + ("--sat",))
DATA = Path(__file__).resolve().parents[1] / "data" / "refutations.json"
STORE_FORMAT = "kernelbounds-refutation-proofs"
STATED_KERNELS = ("signed", "nonnegative")  # the kernel classes a refutation certificate can state (default first)


class SolverMissing(KernelboundsError, RuntimeError):
    pass


class SolverTimeout(KernelboundsError, RuntimeError):
    """The search's time limit passed before the solver answered (nothing is proved)."""


class NotRefuted(KernelboundsError, ValueError):
    """The first CNF is satisfiable: the candidate queries do not refute the rank."""


def solver_version() -> str:
    path = shutil.which(SOLVER)
    if path is None:
        raise SolverMissing("the SAT solver 'cadical' is not installed (Debian: apt-get install -y cadical)")
    return subprocess.run([path, "--version"], capture_output=True, text=True, check=True, timeout=60).stdout.strip()


@dataclass
class Answer:
    unsat: bool
    proof: list[str]  # DRAT lines without the trailing newline (empty when SAT)
    seconds: float


def _remaining(deadline: float | None) -> float | None:
    """Seconds left before `deadline` (time.monotonic()); SolverTimeout once it has passed."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise SolverTimeout("the time limit passed before the solver answered")
    return left


def solve(text: str, options: tuple[str, ...] = OPTIONS, deadline: float | None = None) -> Answer:
    """Run CaDiCaL (single-threaded, deterministic for a given version) on a DIMACS text;
    SolverTimeout when `deadline` (time.monotonic()) passes first."""
    path = shutil.which(SOLVER)
    if path is None:
        raise SolverMissing("the SAT solver 'cadical' is not installed (Debian: apt-get install -y cadical)")
    with tempfile.TemporaryDirectory() as tmp:
        cnf, proof = Path(tmp) / "f.cnf", Path(tmp) / "f.drat"
        cnf.write_text(text)
        start = time.perf_counter()
        try:
            run = subprocess.run([path, *options, str(cnf), str(proof)], capture_output=True, text=True, timeout=_remaining(deadline))
        except subprocess.TimeoutExpired:  # subprocess.run has killed the solver
            raise SolverTimeout("the time limit passed before the solver answered") from None
        seconds = time.perf_counter() - start
        if run.returncode == 10:
            return Answer(False, [], seconds)
        if run.returncode != 20:
            raise RuntimeError(f"cadical exited with {run.returncode}: {run.stderr.strip()[:200]}")
        lines = [ln.strip() for ln in proof.read_text().splitlines() if ln.strip()]
    return Answer(True, lines, seconds)


def weight_queries(m: int, weight: int = 2) -> list[int]:
    return sorted(tokens_of_weight(m, weight))


def useful_pairs(m: int, queries, r: int) -> list[tuple[int, int]]:
    """One key pair (the least, as integers) per forced pattern class with >= r + 1 forced
    queries; pairs sorted by their pattern."""
    best: dict[tuple[int, ...], tuple[int, int]] = {}
    for a, b in combinations(range(1 << m), 2):
        p = pattern(queries, a, b)
        if sum(1 for x in p if x) >= r + 1 and p not in best:
            best[p] = (a, b)
    return [best[p] for p in sorted(best)]


def is_unsat(queries, pairs, r: int, deadline: float | None = None) -> Answer:
    _remaining(deadline)  # no encoding once the time is up
    return solve(dimacs(encode(queries, pairs, r)), deadline=deadline)


def shrink(m: int, r: int, queries, pairs, log=None, deadline: float | None = None) -> tuple[list[int], list[tuple[int, int]], int]:
    """Greedy deletion: drop each query (then each pair) whose removal keeps the CNF UNSAT,
    in order; returns (queries, pairs, solver calls).  Deterministic for a given solver."""
    queries, pairs, calls = list(queries), list(pairs), 0
    for q in list(queries):
        trial = [x for x in queries if x != q]
        if len(trial) <= r:
            break
        keep = [(a, b) for a, b in pairs if sum(1 for x in pattern(trial, a, b) if x) >= r + 1]
        calls += 1
        if is_unsat(trial, keep, r, deadline).unsat:
            queries, pairs = trial, keep
            if log:
                log(f"dropped query {to_str(q, m)}: {len(queries)} queries, {len(pairs)} pairs")
    for pair in list(pairs):
        trial = [p for p in pairs if p != pair]
        calls += 1
        if is_unsat(queries, trial, r, deadline).unsat:
            pairs = trial
    return queries, pairs, calls


def seed_queries(m: int, r: int) -> list[int] | None:
    """The starting queries of a cell in SEEDS (THEORY U7+: the m = 6 prism core padded with
    zeros, plus the edges {6,7}, {8,9}, ...), or None (start from every weight-2 query)."""
    if (m, r) not in SEEDS:
        return None
    base_m, base_r = SEEDS[(m, r)]
    base = stored(base_m, base_r)
    from ..bits import from_str

    pad = "0" * (m - base_m)
    edges = [(1 << u) | (1 << (u + 1)) for u in range(base_m, m - 1, 2)]
    return sorted([from_str(q + pad) for q in base["queries"]] + edges)


def search(m: int, r: int, weight: int = 2, log=None, time_limit: float | None = None, queries=None, shrink_core: bool = True) -> dict:
    """Solve on the weight-`weight` queries (or the given ones) with one pair per pattern
    class, shrink (unless not `shrink_core`), and re-solve the core for its proof: the
    stored record of (m, r).  NotRefuted when the first CNF is satisfiable; SolverTimeout
    when `time_limit` seconds pass first (checked before each encoding and each lemma's
    trimming; a solver call running then is killed); trimming.InvalidProof when the solver
    answers UNSAT with a proof that does not show it."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    queries = weight_queries(m, weight) if queries is None else sorted(queries)
    pairs = useful_pairs(m, queries, r)
    first = is_unsat(queries, pairs, r, deadline)
    if not first.unsat:
        raise NotRefuted(f"rank {r} at m = {m} is not refuted by the weight-{weight} queries (the CNF is satisfiable)")
    if shrink_core:
        queries, pairs, calls = shrink(m, r, queries, pairs, log, deadline)
    enc = encode(queries, pairs, r)
    best = None
    for options in FINAL_OPTIONS:
        final = solve(dimacs(enc), options, deadline)
        proof = trim(enc.variables, enc.clauses, final.proof, tick=lambda: _remaining(deadline))
        size = sum(len(line) + 1 for line in proof)
        if log:
            log(f"core: {len(queries)} queries, {len(pairs)} pairs, {enc.variables} variables, {len(enc.clauses)} clauses; "
                f"{' '.join(options)}: proof {len(final.proof)} lines in {final.seconds:.2f} s, trimmed to {len(proof)} lemmas ({size} bytes)")
        if best is None or size < best[0]:
            best = (size, proof, options)
    _, proof, options = best
    return {
        "m": m,
        "rank": r,
        "queries": [to_str(q, m) for q in queries],
        "pairs": [[to_str(a, m), to_str(b, m)] for a, b in pairs],
        "solver": {"name": SOLVER, "version": solver_version(), "options": " ".join(options)},
        "proof": proof,
    }


def filename(m: int, n: int, r: int, variant: str) -> str:
    return f"refutation-{variant}-m{m:02d}-n{n}-r{r}.json"


def _key(m: int, r: int) -> str:
    return f"m{m:02d}-r{r}"


def stored(m: int, r: int, path: Path = DATA) -> dict | None:
    if not path.is_file():
        return None
    return json.loads(path.read_text())["refutations"].get(_key(m, r))


@dataclass(frozen=True)
class Refutation:
    """A core (sorted queries, key pairs) refuting kernel rank <= r, with its DRAT proof."""

    m: int
    n: int
    variant: str
    r: int
    queries: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    proof: tuple[str, ...]
    solver: dict = field(default_factory=dict)
    kernel: str = "signed"

    @cached_property
    def encoding(self):
        return encode(self.queries, self.pairs, self.r)

    @property
    def bound(self) -> int:
        return self.r + 1

    @cached_property
    def witness_inputs(self) -> tuple[tuple[int, ...], ...]:
        incidences = []
        for a, b in self.pairs:
            for q in self.queries:
                if abs(inner(q, a) - inner(q, b)) >= 2:
                    incidences.append((q, a, b))
        return forced_family(incidences, self.n, self.variant)

    def certificate(self) -> dict:
        if self.variant not in VARIANTS:
            raise InvalidArgument(f"unknown variant {self.variant!r}")
        m = self.m
        doc = header("rank-refutation", version=2)
        doc.update(
            m=m,
            n=self.n,
            variant=self.variant,
            kernel=self.kernel,
            rank=self.r,
            queries=[to_str(q, m) for q in self.queries],
            pairs=[{"a": to_str(a, m), "b": to_str(b, m)} for a, b in self.pairs],
            solver=dict(self.solver),
            proof={"format": "lrat", "steps": list(self.proof)},
            claims={
                "bound": self.bound,
                "variables": self.encoding.variables,
                "clauses": len(self.encoding.clauses),
                "witness_inputs": len(self.witness_inputs),
            },
        )
        return doc


def from_record(rec: dict, n: int, variant: str, kernel: str = "signed") -> Refutation:
    from ..bits import from_str

    return Refutation(
        rec["m"], n, variant, rec["rank"],
        tuple(from_str(q) for q in rec["queries"]),
        tuple((from_str(a), from_str(b)) for a, b in rec["pairs"]),
        tuple(rec["proof"]), rec["solver"], kernel,
    )


def refute(m: int, n: int, r: int, variant: str = "position-independent", kernel: str = "signed", weight: int = 2, use_store: bool = True, log=None,
           time_limit: float | None = None) -> Refutation:
    """The stored core and proof for (m, r) when present (and `use_store`), else a fresh
    search with the solver (SolverTimeout after `time_limit` seconds)."""
    rec = stored(m, r) if use_store else None
    if rec is None:
        rec = search(m, r, weight, log, time_limit)
    return from_record(rec, n, variant, kernel)


def refresh(cells, path: Path = DATA, log=print) -> None:
    """Re-run the solver for every (m, r) in cells and rewrite the store (sorted keys)."""
    from ..certificate import canonical_json, write_atomic

    old = json.loads(path.read_text())["refutations"] if path.is_file() else {}
    for m, r in cells:
        start = time.perf_counter()
        seed = seed_queries(m, r)
        old[_key(m, r)] = search(m, r, log=log, queries=seed, shrink_core=seed is None)
        log(f"m = {m}, r = {r}: {len(old[_key(m, r)]['proof'])} proof lines, {time.perf_counter() - start:.1f} s")
    write_atomic(path, canonical_json({"format": STORE_FORMAT, "refutations": old}))


CELLS = ((5, 2), (6, 3), (8, 4))
# cells solved from a seed instead of every weight-2 query (no shrinking: each solve takes
# seconds): (m, r) -> the stored (m0, r0) whose core is extended by disjoint edges (THEORY U7+).
# At m = 8, r = 4: 10 queries, 93 pairs, 210 variables, 51,391 clauses; CaDiCaL 2.4 s
# (0.8 s with --sat), the --sat proof trimmed to 1,493 LRAT lemmas.
SEEDS = {(8, 4): (6, 3)}

if __name__ == "__main__":
    import sys

    if "--refresh" in sys.argv:
        refresh(CELLS)
