"""Independent proofs by SMT over the reals (z3): L1 per instance, tightness, and a tiny
end-to-end instance of the whole lower bound (THEORY §3; issue: soundness)."""

from fractions import Fraction

import pytest

z3 = pytest.importorskip("z3")

from kernelbounds.lowerbounds.domination import factor, premise, conclusion, tight_row  # noqa: E402
from kernelbounds.model import KernelHead  # noqa: E402
from lab.smt import TinyInstance, head_query, prove_l1, rational  # noqa: E402

GRID = [(n, d) for n in range(3, 7) for d in range(1, 9)]


@pytest.mark.parametrize("n,d", GRID)
def test_l1_proved_by_smt(n, d):
    assert prove_l1(n, d) == "unsat"


@pytest.mark.parametrize("n,d", [(n, d) for n, d in GRID if n <= 5])
def test_l1_position_dependent_proved_by_smt(n, d):
    assert prove_l1(n, d, positional=True) == "unsat"


@pytest.mark.slow
@pytest.mark.parametrize("d", range(1, 9))
def test_l1_position_dependent_n6_proved_by_smt(d):
    assert prove_l1(6, d, positional=True) == "unsat"


@pytest.mark.parametrize("n,d", [(n, d) for n, d in GRID if factor(n, d) >= 1])
def test_l1_factor_is_tight(n, d):
    """1% more than (n-2)(d-1) is refutable (sat), and an explicit rational head attains
    a ratio within 1% of it (re-checked exactly)."""
    assert prove_l1(n, d, scale=Fraction(101, 100)) == "sat"
    row = tight_row(n, 0, d, Fraction(1, 200))
    assert premise(row, n) and conclusion(row, n)
    ratio = (row.k0 + (n - 1) * row.ka) / ((row.k0 + (n - 1) * row.kb) * factor(n, d))
    assert 1 < ratio < Fraction(101, 100)


THREE_DISJOINT = TinyInstance(9, (0b000000111, 0b000111000, 0b111000000))


def test_tiny_instance_certified_bound_is_3():
    """Gaps 3, so R_3(3) = 2 and L3 gives r > 3/(1 + 2/4) = 2: r >= 3."""
    from kernelbounds.lowerbounds.codes import Code
    from kernelbounds.lowerbounds.assemble import assemble
    from kernelbounds.lowerbounds.witness import witness_count

    lb = assemble(Code("three", 9, THREE_DISJOINT.keys), 3)
    assert lb.bound == 3 and lb.min_product == 2
    assert witness_count(lb) == len(THREE_DISJOINT.family()) == 15


@pytest.mark.slow  # about 15 s of nonlinear real arithmetic in z3
def test_no_rank_2_head_solves_the_tiny_family():
    solver, *_ = head_query(THREE_DISJOINT, 2)
    solver.set("timeout", 300_000)
    assert str(solver.check()) == "unsat"


def test_a_rank_3_head_solves_it_and_the_exact_evaluator_agrees():
    solver, phi_q, phi_k, f = head_query(THREE_DISJOINT, 3)
    assert str(solver.check()) == "sat"
    model = solver.model()
    val = lambda v: rational(model.eval(v, model_completion=True))  # noqa: E731
    pq = {q: tuple(val(x) for x in v) for q, v in phi_q.items()}
    pk = {z: tuple(val(x) for x in v) for z, v in phi_k.items()}
    fv = {key: val(x) for key, x in f.items()}
    tokens = sorted(pk)
    assert all(x >= 0 for v in list(pq.values()) + list(pk.values()) for x in v)
    # values v(z) = one-hot e_z, readout L_q(y) = sum_z F(q, z) y_z realise any F(q, z)
    head = KernelHead(
        lambda q, i, z, j: sum(a * b for a, b in zip(pq[q], pk[z], strict=True)),
        lambda z, j: tuple(Fraction(int(z == t)) for t in tokens),
        lambda q, i: (tuple(fv[(q, t)] for t in tokens), Fraction(0)),
    )
    for inp in THREE_DISJOINT.family():
        err = head.error(inp, 0)
        assert err is not None and err < Fraction(1, 2), inp
