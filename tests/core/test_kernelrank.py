"""Exact ranks: the level-kernel formula against FLINT, and rank certificates."""

import copy
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from helpers import verdict
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.kernelrank import certificate, flint_rank, formula_rank, forward_differences, kernel_rows, named_kernel


def brute_rows(h, m):
    return [[h[(x & z).bit_count()] for z in range(2**m)] for x in range(2**m)]


@pytest.mark.parametrize("name", ["tensor", "softmax", "inner", "disjoint"])
@pytest.mark.parametrize("m", range(1, 9))
def test_formula_equals_flint_on_named_kernels(name, m):
    h = named_kernel(name, m)
    assert formula_rank(h, m) == flint_rank(kernel_rows(h, m))


def test_named_kernel_ranks():
    assert formula_rank(named_kernel("tensor", 12), 12) == 4096
    assert formula_rank(named_kernel("inner", 20), 20) == 20
    assert formula_rank(named_kernel("disjoint", 30), 30) == 2**30


@given(st.integers(1, 8), st.data())
def test_formula_equals_flint_on_random_rational_level_kernels(m, data):
    """Random h, including sparse forward-difference supports (low-degree polynomials)."""
    if data.draw(st.booleans()):
        g = [data.draw(st.sampled_from([Fraction(0), Fraction(0), Fraction(1), Fraction(-3, 2), Fraction(5, 7)])) for _ in range(m + 1)]
        h = [sum(g[j] * Fraction(__import__("math").comb(l, j)) for j in range(m + 1)) for l in range(m + 1)]
    else:
        h = [data.draw(st.fractions(-5, 5, max_denominator=9)) for _ in range(m + 1)]
    assert formula_rank(h, m) == flint_rank(kernel_rows(h, m))


@given(st.lists(st.fractions(-9, 9, max_denominator=9), min_size=1, max_size=10))
def test_forward_differences_reconstruct_h(h):
    from math import comb

    g = forward_differences(h)
    assert all(sum(g[j] * comb(l, j) for j in range(len(h))) == h[l] for l in range(len(h)))


def test_vectorised_matrix_equals_brute_force():
    h = [Fraction(3), Fraction(-1, 2), Fraction(7, 3), Fraction(0), Fraction(1, 9)]
    d = 18
    assert kernel_rows(h, 4) == [[int(x * d) for x in r] for r in brute_rows(h, 4)]


def test_numpy_float_rank_can_be_wrong():
    """Floating point underestimates the rank of an ill-conditioned exact kernel:
    c = 99/100 makes the per-bit factor [[1,1],[1,c]] nearly singular (det = -1/100)."""
    h = named_kernel("tensor", 8, c=Fraction(99, 100))
    exact = flint_rank(kernel_rows(h, 8))
    floats = np.array([[float(x) for x in r] for r in brute_rows(h, 8)])
    assert exact == 256 and np.linalg.matrix_rank(floats) < exact


@pytest.mark.parametrize("name,m", [("tensor", 6), ("inner", 6), ("disjoint", 5)])
def test_rank_certificates_check_and_resist_tampering(name, m):
    doc = certificate(named_kernel(name, m), m, name)
    assert verdict(doc).code == 0
    bad = copy.deepcopy(doc)
    bad["claims"]["rank"] += 1
    assert verdict(bad).code == 1 and verdict(bad).pointer == "/claims/rank"
    bad = copy.deepcopy(doc)
    bad["upper"]["differences"][1] = "12345"
    assert verdict(bad).code == 1 and verdict(bad).pointer == "/upper/differences/1"
    bad = copy.deepcopy(doc)
    bad["lower"]["prime"] = 2**31  # not prime
    assert verdict(bad).code == 1 and verdict(bad).pointer == "/lower/prime"
    bad = copy.deepcopy(doc)
    bad["kernel"]["h"][0] = "7/3"
    assert verdict(bad).code == 1 and verdict(bad).pointer == "/upper/differences/0"


def test_a_singular_minor_is_rejected():
    doc = certificate(named_kernel("inner", 5), 5, "inner")
    doc["lower"]["rows"][0] = "00000"  # the zero token's row is zero
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/lower" and "minor has rank 4 < 5" in v.reason


def test_rank_of_a_head_file_and_its_certificate(tmp_path):
    import json
    import subprocess
    import sys

    from kernelbounds.heads.tables import TableHead
    from kernelbounds.kernelrank import head_certificate

    head = TableHead(3, {}, {}, {}, {})
    for x in range(8):  # a(x, z) = <x, z> + 1: rank 4 (features (1, x_0, x_1, x_2))
        feats = (Fraction(1),) + tuple(Fraction((x >> i) & 1) for i in range(3))
        head.phi_q[x] = head.phi_k[x] = feats
        head.value[x] = (Fraction(0),)
        head.readout[x] = ((Fraction(1),), Fraction(0))
    doc = head_certificate(head)
    assert doc["claims"]["rank"] == 4 and verdict(doc).code == 0
    bad = copy.deepcopy(doc)
    bad["kernel"]["phi_q"] = [["0"] + row[1:] for row in bad["kernel"]["phi_q"]]  # now <x, z>: rank 3
    assert verdict(bad).code == 1 and verdict(bad).pointer == "/lower"
    bad = copy.deepcopy(doc)
    bad["kernel"]["phi_q"][3][0] = "2"  # still rank 4: a true statement, accepted
    assert verdict(bad).code == 0
    path = tmp_path / "h.json"
    path.write_text(json.dumps(head.to_json()))
    r = subprocess.run([sys.executable, "-m", "kernelbounds", "rank", "--head", str(path), "-o", str(tmp_path / "c.json")], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip().endswith("4")


def test_feature_kernel_work_is_bounded_before_it_starts():
    from kernelbounds.heads.tables import TableHead
    from kernelbounds.kernelrank import head_certificate

    head = TableHead(4, {}, {}, {}, {})
    for x in range(16):
        head.phi_q[x] = head.phi_k[x] = tuple(Fraction((x >> i) & 1) for i in range(4))
        head.value[x], head.readout[x] = (Fraction(0),), ((Fraction(1),), Fraction(0))
    doc = head_certificate(head)
    v = verdict(doc, max_feature_work=100)
    assert v.code == 3 and v.pointer == "/kernel"


@given(st.integers(1, 4), st.data())
def test_sympy_agrees_on_small_exact_ranks(m, data):
    """sympy (an independent exact implementation) against the formula and FLINT."""
    import sympy

    g = [data.draw(st.sampled_from([Fraction(0), Fraction(1), Fraction(-2, 3)])) for _ in range(m + 1)]
    h = [sum((g[j] * comb(l, j) for j in range(m + 1)), Fraction(0)) for l in range(m + 1)]
    rows = brute_rows([sympy.Rational(x.numerator, x.denominator) for x in h], m)
    assert sympy.Matrix(rows).rank() == formula_rank(h, m) == flint_rank(kernel_rows(h, m)) == sum(comb(m, j) for j in range(m + 1) if g[j])


def test_level_rank_reports_both_routes_and_a_contradiction():
    from kernelbounds.kernelrank import LevelRank, level_rank

    facts = level_rank(named_kernel("inner", 6), 6)
    assert facts.formula == facts.flint == 6 and not facts.contradicts_theory
    assert level_rank(named_kernel("tensor", 20), 20, max_matrix_m=12) == LevelRank(2**20, None)
    assert LevelRank(5, 4).contradicts_theory


@given(st.integers(1, 6), st.data())
def test_the_checkers_minor_is_the_literal_matrix_and_both_rank_routes_agree(m, data):
    """The checker builds minors by byte operations; entry (x, z) must be the scaled h at
    level <x, z>, for all tokens and for drawn row/column subsets, and its rank over Z
    (fmpz route) must equal its rank modulo the prime (nmod route) here."""
    import flint

    from kernelbounds.checker.jsonread import Node
    from kernelbounds.checker.rules.rank import LevelKernel

    h = [data.draw(st.fractions(-5, 5, max_denominator=7)) for _ in range(m + 1)]
    kernel = LevelKernel(Node({"type": "level", "h": [str(x) for x in h]}), m)
    tokens = list(range(2**m))
    if data.draw(st.booleans()):  # the whole matrix ("all"): cols is the kernel's token list
        rows, cols = tokens, kernel.tokens
    else:
        size = data.draw(st.integers(1, 2**m))
        rows, cols = data.draw(st.permutations(tokens))[:size], data.draw(st.permutations(tokens))[:size]
    entries = kernel.minor(rows, cols, None)
    assert entries == [kernel.scaled[(x & z).bit_count()] for x in rows for z in cols]
    p = 2**31 - 1
    assert kernel.minor(rows, cols, p) == [v % p for v in entries]
    size = len(rows)
    assert flint.fmpz_mat(size, size, entries).rank() == flint.nmod_mat(size, size, [v % p for v in entries], p).rank()
