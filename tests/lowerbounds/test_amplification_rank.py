"""L2 (R_n, chain schedules) and L3 (the approximate-identity rank bound)."""

from fractions import Fraction
from math import comb, prod

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.lowerbounds.amplification import R, best_schedule, chain_levels, chain_product
from kernelbounds.checker.binomial import least_rank_closed_form
from kernelbounds.checker.rules.chains import least_rank as checker_least_rank
from kernelbounds.lowerbounds.rankbound import best_rank_bound, least_rank, threshold, uniform_bound


def compositions(g):
    """All compositions of g into parts >= 2."""
    if g == 0:
        yield ()
        return
    for d in range(2, g + 1):
        for rest in compositions(g - d):
            yield (d, *rest)


def test_r3_values_from_theory():
    assert [R(3, g) for g in range(2, 13)] == [1, 2, 3, 4, 5, 6, 9, 12, 16, 20, 27]


@pytest.mark.parametrize("n", [3, 4, 5, 7])
def test_r_is_the_best_composition_by_brute_force(n):
    for g in range(2, 16):
        assert R(n, g) == max(prod((n - 2) * (d - 1) for d in c) for c in compositions(g))
        value, parts = best_schedule(n, g)
        assert sum(parts) == g and chain_product(n, chain_levels(parts)) == value


@given(st.integers(3, 9), st.integers(2, 40), st.integers(2, 40))
def test_r_supermultiplicative_and_increasing(n, a, b):
    assert R(n, a + b) >= R(n, a) * R(n, b)
    assert R(n, a + 1) > R(n, a) or (n == 3 and a < 2)


@given(st.integers(2, 80))
def test_r3_against_4_to_the_g_over_5(g):
    """R_3(g) <= 4^(g/5), with equality iff 5 | g (compared as R^5 <= 4^g)."""
    r = R(3, g)
    assert r**5 <= 4**g
    assert (r**5 == 4**g) == (g % 5 == 0)


def test_r1_undefined():
    with pytest.raises(ValueError):
        R(3, 1)


@given(st.integers(1, 8), st.fractions(0, 10**6, max_denominator=1000))
def test_least_rank_is_least(k, x):
    r = least_rank(k, x)
    assert comb(r + k - 1, k) > x
    assert r == 1 or comb(r + k - 2, k) <= x


def test_theory_worked_example():
    """Ten words, one-link chains with P = R_3(6) = 5: rank > 10/(1 + 9/25) = 7.35, r >= 8."""
    assert threshold(10, {5: 90}, 1) == Fraction(125, 17)
    assert uniform_bound(10, 5, 1) == 8 == best_rank_bound(10, {5: 90}).bound


def _products(m):
    """{P: count}: for each i != j the largest integer P_ij (capped) with M_ij < 1/P_ij.
    The premise of L3 (0 <= M_ij < 1) holds by construction in the tests below."""
    counts = {}
    for i, row in enumerate(m):
        assert row[i] == 1
        for j, x in enumerate(row):
            if i != j:
                assert 0 <= x < 1
                p = 10**6 if x == 0 else min(10**6, -(-x.denominator // x.numerator) - 1)  # ceil(1/x) - 1
                assert x < Fraction(1, p)
                counts[p] = counts.get(p, 0) + 1
    return counts


def _rank(m):
    return flint.fmpq_mat(len(m), len(m), [flint.fmpq(x.numerator, x.denominator) for row in m for x in row]).rank()


points = st.integers(1, 2).flatmap(lambda d: st.lists(st.tuples(*[st.integers(-6, 6)] * d), min_size=2, max_size=9, unique=True))


@given(points, st.integers(1, 3), st.integers(1, 30))
def test_rank_bound_never_exceeds_the_rank_of_a_low_rank_approximate_identity(u, k, c0):
    """L3 on M_ij = K_ij / K_ii with K_ij = (C - |u_i - u_j|^2)^k, C = c0 + max |u_i - u_j|^2:
    K has rank <= C(d + k + 1, k) (a polynomial of degree k in d + 2 functions of u_i and of
    u_j), its rows peak strictly on the diagonal, so 0 < M_ij < 1 = M_ii by construction.
    The bound from M's own entry bounds is <= rank(M)."""
    dist = [[sum((a - b) ** 2 for a, b in zip(x, y, strict=True)) for y in u] for x in u]
    big = c0 + max(map(max, dist))
    m = [[Fraction(big - dij, big) ** k for dij in row] for row in dist]
    rank = _rank(m)
    assert rank <= comb(len(u[0]) + k + 1, k)
    assert best_rank_bound(len(u), _products(m), max_k=8).bound <= rank


@given(st.integers(2, 8).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.fractions(0, Fraction(49, 50), max_denominator=50), min_size=n * n, max_size=n * n))), st.integers(1, 4))
def test_rank_bound_never_exceeds_the_rank_of_a_perturbed_identity(nm, shrink):
    """L3 on M = I + off-diagonal entries drawn in [0, 1) (scaled down by `shrink`)."""
    n, xs = nm
    m = [[Fraction(1) if i == j else xs[i * n + j] / shrink for j in range(n)] for i in range(n)]
    assert best_rank_bound(n, _products(m), max_k=8).bound <= _rank(m)


def test_rank_bound_is_attained_by_the_identity():
    """M = I (all off-diagonal 0 < 1/P for any P) has rank N; large P gives bound N."""
    for size in (2, 5, 9):
        assert best_rank_bound(size, {10**6: size * (size - 1)}).bound == size


@given(st.integers(1, 64), st.one_of(st.fractions(0, 10**7, max_denominator=1000), st.integers(0, 2**80).map(Fraction)))
def test_checker_and_generator_least_rank_agree(k, x):
    """The checker's bisection, its closed-form second route and the generator's least_rank
    give the same least r, and r is least by definition."""
    r = checker_least_rank(k, x)
    assert r == least_rank(k, x) == least_rank_closed_form(k, x)
    assert comb(r + k - 1, k) > x and (r == 1 or comb(r + k - 2, k) <= x)


def test_least_rank_closed_form_by_a_direct_scan():
    """Every (k, x) on a grid near the jumps of C(r + k - 1, k): the scan from r = 1."""
    for k in range(1, 7):
        for r in range(1, 40):
            c = comb(r + k - 1, k)
            for x in (c - 1, c - Fraction(1, 3), c, c + Fraction(1, 2)):
                scan = next(s for s in range(1, 10**4) if comb(s + k - 1, k) > x)
                assert least_rank_closed_form(k, Fraction(x)) == scan == checker_least_rank(k, Fraction(x))
