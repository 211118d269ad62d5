"""The rank-3 oriented-matroid model of lab/chirotope.py:
every realisable configuration satisfies it (so UNSAT is a sound refutation of rank 3),
and it reproduces the orthant's VC argument."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from ortools.sat.python import cp_model

from lab import chirotope
from kernelbounds.lowerbounds import signrank


def det(a, b, c):
    return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])


def general_position(rng, n):
    """n integer vectors in R^3 with every 3x3 determinant nonzero (redrawn until so)."""
    while True:
        X = [[rng.randint(-40, 40) for _ in range(3)] for _ in range(n)]
        if all(det(*(X[i] for i in t)) for t in combinations(range(n), 3)):
            return X if det(X[0], X[1], X[2]) > 0 else [[-x[0], x[1], x[2]] for x in X]


@pytest.mark.parametrize("seed", range(4))
def test_a_realised_configuration_satisfies_every_clause(seed):
    """chi = sign det of real vectors and sign patterns of real functionals <x, y> (with
    random zeros, as unforced entries) satisfy the Grassmann-Pluecker and circuit clauses."""
    rng = random.Random(seed)
    X = general_position(rng, 8)
    patterns = set()
    for _ in range(30):
        y = [rng.randint(-40, 40) for _ in range(3)]
        v = [((s > 0) - (s < 0)) if rng.random() < 0.8 else 0 for s in (sum(a * b for a, b in zip(x, y, strict=True)) for x in X)]
        if sum(1 for s in v if s) >= 4:
            first = next(s for s in v if s)
            patterns.add(tuple(s * first for s in v))
    model, _, _ = chirotope.build(list(range(8)), patterns)
    proto = model.Proto()
    for index, var in enumerate(proto.variables):
        if var.name.startswith("c("):
            t = tuple(int(x) for x in var.name[2:-1].split(","))
            model.Add(model.GetBoolVarFromProtoIndex(index) == (1 if det(*(X[i] for i in t)) > 0 else 0))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.Solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_the_orthant_at_m8_refutes_rank_3_and_a_small_pattern_does_not():
    o = signrank.orthant(8)
    assert chirotope.decide(list(o.queries), 8, o.pairs, time_limit=30)["result"] == "unsat"  # VC dimension 4
    weight2 = [q for q in range(16) if q.bit_count() == 2]
    assert chirotope.decide(weight2, 4, None, time_limit=30)["result"] == "sat"  # r*(4, 3) = 2
