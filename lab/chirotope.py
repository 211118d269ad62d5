"""Rank three by oriented matroids (THEORY §3 L7 "other sign-rank tools").

If a head has rank <= 3, the rows phi(q) in R^3 (perturbed into general position, which
keeps every strict sign) realise the L1-forced sign pattern: for every key pair (a, b) there
is y = psi(b) - psi(a) with sign <phi(q), y> = the forced sign of q.  In oriented-matroid
terms, for every pair the configuration {phi(p) : p in P} u {-phi(q) : q in N} is acyclic:
no signed circuit is all positive.  A uniform rank-3 chirotope chi on the queries gives the
circuit of four elements a < b < c < d the signs
  (chi(bcd), -chi(acd), chi(abd), -chi(abc))      (Cramer's rule),
so the CP-SAT model has one Boolean per triple, the 3-term Grassmann-Pluecker axioms of a
uniform chirotope, and, for every pair and every 4-set of its forced queries with signs s,
the clause "the circuit times s is not constant".  UNSAT proves (for realisable and
non-realisable chirotopes alike) that no rank-3 head exists, so r >= 4; SAT proves
nothing (the chirotope may not be realisable).  Nonnegativity is not used.
"""

from __future__ import annotations

import time
from itertools import combinations

from kernelbounds.bits import inner


def forced_patterns(queries: list[int], m: int, pairs=None) -> set[tuple[int, ...]]:
    """The distinct sign vectors (entries +1, -1, 0 over `queries`) of all key pairs (or the
    given ones), up to a global sign, with at least 4 nonzero entries."""
    pool = pairs if pairs is not None else combinations(range(1 << m), 2)
    out = set()
    for a, b in pool:
        v = []
        for q in queries:
            d = inner(q, a) - inner(q, b)
            v.append(1 if d >= 2 else -1 if d <= -2 else 0)
        if sum(1 for x in v if x) >= 4:
            first = next(x for x in v if x)
            out.add(tuple(x * first for x in v))
    return out


def build(queries: list[int], patterns, axioms: bool = True):
    from ortools.sat.python import cp_model

    n = len(queries)
    model = cp_model.CpModel()
    chi = {t: model.NewBoolVar(f"c{t}") for t in combinations(range(n), 3)}  # True = +1

    def lit(i, j, k, sign=1):
        """The literal 'chi(i, j, k) * sign = +1' for distinct i, j, k (alternating)."""
        t = tuple(sorted((i, j, k)))
        perm = [t.index(x) for x in (i, j, k)]
        parity = sum(1 for x in range(3) for y in range(x + 1, 3) if perm[x] > perm[y]) % 2
        s = sign * (-1 if parity else 1)
        return chi[t] if s > 0 else chi[t].Not()

    # 3-term Grassmann-Pluecker (uniform): for a and b < c < d < e (all distinct from a),
    # chi(abc)chi(ade), -chi(abd)chi(ace), chi(abe)chi(acd) are not all equal.
    clauses = 0
    for a in range(n if axioms else 0):
        rest = [x for x in range(n) if x != a]
        for b, c, d, e in combinations(rest, 4):
            terms = [((a, b, c, 1), (a, d, e, 1)), ((a, b, d, -1), (a, c, e, 1)), ((a, b, e, 1), (a, c, d, 1))]
            prods = []
            for (x1, x2, x3, s1), (y1, y2, y3, s2) in terms:
                p = model.NewBoolVar("")
                u, v = lit(x1, x2, x3, s1), lit(y1, y2, y3, s2)
                model.Add(p == 1).OnlyEnforceIf([u, v])
                model.Add(p == 1).OnlyEnforceIf([u.Not(), v.Not()])
                model.Add(p == 0).OnlyEnforceIf([u, v.Not()])
                model.Add(p == 0).OnlyEnforceIf([u.Not(), v])
                prods.append(p)
            model.AddBoolOr(prods)
            model.AddBoolOr([p.Not() for p in prods])
            clauses += 2
    seen = set()
    for v in patterns:
        support = [i for i, x in enumerate(v) if x]
        for a, b, c, d in combinations(support, 4):
            key = (a, b, c, d, v[a], v[b], v[c], v[d])
            if key in seen or (a, b, c, d, -v[a], -v[b], -v[c], -v[d]) in seen:
                continue
            seen.add(key)
            circuit = [lit(b, c, d, v[a]), lit(a, c, d, -v[b]), lit(a, b, d, v[c]), lit(a, b, c, -v[d])]
            model.AddBoolOr(circuit)  # not all negative
            model.AddBoolOr([x.Not() for x in circuit])  # not all positive
            clauses += 2
    if chi:
        model.Add(chi[(0, 1, 2)] == 1)  # a reflection fixes one sign
    return model, len(chi), clauses


def decide(queries: list[int], m: int, pairs=None, time_limit: float = 300.0, workers: int = 1, axioms: bool = True) -> dict:
    """CP-SAT on the model: 'unsat' proves r >= 4 on the forced pattern of these queries."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    patterns = forced_patterns(queries, m, pairs)
    model, variables, clauses = build(queries, patterns, axioms)
    built = time.perf_counter() - start
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    status = solver.Solve(model)
    name = {cp_model.INFEASIBLE: "unsat", cp_model.FEASIBLE: "sat", cp_model.OPTIMAL: "sat"}.get(status, "unknown")
    return {"queries": len(queries), "patterns": len(patterns), "triples": variables, "clauses": clauses, "result": name, "build_s": round(built, 2), "solve_s": round(time.perf_counter() - start - built, 2)}
