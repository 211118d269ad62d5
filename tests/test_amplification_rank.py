"""L2 (R_n, chain schedules) and L3 (the approximate-identity rank bound)."""

from fractions import Fraction
from math import comb, prod

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.amplification import R, best_schedule, chain_levels, chain_product
from kernelbounds.rankbound import best_rank_bound, least_rank, threshold, uniform_bound


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
    """The largest integer P_ij with M_ij < 1/P_ij (capped), or None if some M_ij >= 1."""
    counts = {}
    for i, row in enumerate(m):
        for j, x in enumerate(row):
            if i == j:
                continue
            if x >= 1:
                return None
            p = 10**6 if x == 0 else min(10**6, (x.denominator + x.numerator - 1) // x.numerator - 1)  # ceil(1/x) - 1
            assert x < Fraction(1, p)
            counts[p] = counts.get(p, 0) + 1
    return counts


@given(st.integers(2, 8), st.integers(1, 4), st.data())
def test_rank_bound_never_exceeds_the_rank_of_a_low_rank_approximate_identity(size, r, data):
    """L3 on M_ij = <a_i, b_j>/<a_i, b_i> with nonnegative a, b of dimension r:
    the certified bound computed from M's own entry bounds is <= rank(M) <= r."""
    ints = st.integers(0, 9)
    a = [[data.draw(ints) for _ in range(r)] for _ in range(size)]
    b = [[data.draw(ints) for _ in range(r)] for _ in range(size)]
    diag = [sum(x * y for x, y in zip(a[i], b[i])) for i in range(size)]
    if 0 in diag:
        return
    m = [[Fraction(sum(x * y for x, y in zip(a[i], b[j])), diag[i]) for j in range(size)] for i in range(size)]
    counts = _products(m)
    if counts is None:
        return
    rank = flint.fmpq_mat(size, size, [flint.fmpq(x.numerator, x.denominator) for row in m for x in row]).rank()
    assert rank <= r
    assert best_rank_bound(size, counts, max_k=8).bound <= rank


def test_rank_bound_is_attained_by_the_identity():
    """M = I (all off-diagonal 0 < 1/P for any P) has rank N; large P gives bound N."""
    for size in (2, 5, 9):
        assert best_rank_bound(size, {10**6: size * (size - 1)}).bound == size


@given(st.integers(1, 8), st.fractions(0, 10**7, max_denominator=1000))
def test_checker_and_generator_least_rank_agree(k, x):
    """The checker's own least_rank (independent code) gives the same least r."""
    from kernelbounds.checker.rules.lowerbound import least_rank as checker_least_rank

    r = checker_least_rank(k, x)
    assert r == least_rank(k, x)
    assert comb(r + k - 1, k) > x and (r == 1 or comb(r + k - 2, k) <= x)
