"""Level-kernel upper bounds below 2^m (THEORY §2, last paragraph; issue 8)."""

import copy
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from helpers import verdict
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.classes import LevelProfile, worst_error_by_classes
from kernelbounds.model import exhaustive_worst_error, feature_head
from kernelbounds.kernelrank import flint_rank, formula_rank
from kernelbounds.upperbound import EPS, certificate, restrict, search, worst_error


def explicit_head(g, m, eps):
    """phi_Q(x)_T = g_|T| [T within x], phi_K(z)_T = [T within z] over T with g_|T| != 0."""
    sets = [sum(1 << i for i in t) for j in sorted(g) for t in combinations(range(m), j)]
    phi_q = lambda x, i: tuple(g[t.bit_count()] if t & ~x == 0 else Fraction(0) for t in sets)  # noqa: E731
    phi_k = lambda z, j: tuple(Fraction(int(t & ~z == 0)) for t in sets)  # noqa: E731
    value = lambda z, j: tuple(Fraction((z >> i) & 1) for i in range(m))  # noqa: E731
    readout = lambda q, i: (tuple(Fraction((q >> k) & 1) for k in range(m)), eps - Fraction(1, 2))  # noqa: E731
    return feature_head(phi_q, phi_k, value, readout), len(sets)


@pytest.mark.parametrize("m", [4, 5])
def test_search_beats_2_to_the_m_and_the_explicit_features_agree(m):
    c = search(m, 3)
    assert c.rank < 2**m
    head, dim = explicit_head(c.g, m, c.eps)
    assert dim == c.rank
    literal = exhaustive_worst_error(head, m, 3).worst_error
    assert literal == worst_error(c.h, m, 3, c.eps) < Fraction(1, 2)
    table = [[head.weight(x, 0, z, 1) for z in range(2**m)] for x in range(2**m)]
    from math import lcm

    d = lcm(*(v.denominator for r in table for v in r))
    assert flint_rank([[int(v * d) for v in r] for r in table]) == c.rank == formula_rank(c.h, m)


def test_issue_examples_m12_and_m6():
    c = search(12, 3)
    assert c.rank < 4096
    v = verdict(certificate(c))
    assert v.code == 0
    six = verdict(certificate(search(6, 3)))
    assert six.code == 0 and any(r.startswith("exhaustive: all") for r in six.routes)


@given(st.integers(1, 6), st.integers(2, 4), st.data())
def test_class_criterion_matches_the_construction_route(m, n, data):
    """upperbound.worst_error equals classes.worst_error_by_classes for the same head."""
    h = [data.draw(st.fractions(Fraction(1, 20), 20, max_denominator=20)) for _ in range(m + 1)]
    profile = LevelProfile(lambda p, l: h[l], lambda p, l: l - Fraction(1, 2) + EPS)
    assert worst_error(h, m, n) == worst_error_by_classes(profile, m, n).worst_error


def test_restriction_keeps_a_solution():
    c = search(10, 3)
    for m in range(4, 10):
        r = restrict(c, m)
        assert r is not None and r.rank == sum(comb(m, j) for j in r.g) and worst_error(r.h, m, 3) < Fraction(1, 2)


def test_tampered_differences_rejected():
    doc = certificate(search(5, 3))
    for j in range(6):
        bad = copy.deepcopy(doc)
        bad["head"]["kernel"]["differences"][j] = str(Fraction(bad["head"]["kernel"]["differences"][j]) + 1)
        v = verdict(bad)
        assert v.code == 1 and v.pointer == "/claims/worst_error", v.render()  # h changes, so does the error
