"""Exact or near-optimal search for small constant-weight codes with OR-Tools CP-SAT.

One boolean per weight-w word of {0,1}^m, `x_u + x_v <= 1` for every pair meeting in
more than `lam` points, maximise the number of chosen words.  The solver runs on one
worker with a fixed seed and a *deterministic* time budget, so the same call gives the
same code on every machine; `Code.note` says whether optimality was proven.
"""

from __future__ import annotations

from math import comb

from ...bits import tokens_of_weight
from . import Code

MAX_VERTICES = 300
DETERMINISTIC_SECONDS = 2.0


def max_code(m: int, w: int, lam: int, budget: float = DETERMINISTIC_SECONDS) -> Code:
    from ortools.sat.python import cp_model  # 0.2 s to import (with pandas): only when a search runs

    if comb(m, w) > MAX_VERTICES:
        raise ValueError(f"C({m},{w}) = {comb(m, w)} vertices is over the limit {MAX_VERTICES}")

    words = list(tokens_of_weight(m, w))
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"x{i}") for i in range(len(words))]
    for i in range(len(words)):
        for j in range(i + 1, len(words)):
            if (words[i] & words[j]).bit_count() > lam:
                model.AddBoolOr([x[i].Not(), x[j].Not()])
    model.AddHint(x[0], 1)
    model.Add(x[0] == 1)  # symmetry: some optimal code contains the first word
    model.Maximize(sum(x))
    solver = cp_model.CpSolver()
    solver.parameters.num_search_workers = 1
    solver.parameters.random_seed = 1
    solver.parameters.max_deterministic_time = budget
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT found no code for m={m}, w={w}, lam={lam}")
    chosen = tuple(words[i] for i in range(len(words)) if solver.Value(x[i]))
    proof = "optimal" if status == cp_model.OPTIMAL else "best found (optimality not proven)"
    return Code(f"cpsat-w{w}-l{lam}", m, chosen, f"CP-SAT search, weight {w}, intersections <= {lam}: {proof}")
