"""L1 gap domination: random heads meeting the premise satisfy the conclusion; tightness."""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kernelbounds.domination import Row, conclusion, factor, premise, tight_row

weights = st.one_of(st.just(Fraction(0)), st.fractions(0, 50, max_denominator=40))
near = st.fractions(Fraction(-1, 2), Fraction(1, 2), max_denominator=40)
small = st.one_of(st.just(Fraction(0)), st.fractions(0, 1, max_denominator=40))


@settings(suppress_health_check=[HealthCheck.filter_too_much], max_examples=300)
@given(st.integers(3, 7), st.integers(0, 4), st.integers(1, 6), st.integers(0, 2), small, weights, st.integers(0, 9), st.fractions(1, 2, max_denominator=50), near, near, near)
def test_premise_implies_conclusion(n, s, d, extra, k0, kb, e, scale, jq, ja, jb):
    """THEORY L1 on random rows: K >= 0, values within 1/2 of their levels, and K(a)/K(b)
    spread over 2^0..2^10 (the premise needs K(a) well above K(b))."""
    ka = kb * scale * 2**e
    row = Row(s + d + extra, s, s + d, k0, ka, kb, s + jq, s + ja, s + d + jb)
    assume(premise(row, n))
    assert conclusion(row, n)


@given(st.integers(3, 7), st.integers(0, 4), st.integers(2, 6), st.integers(1, 400), st.integers(1, 400))
def test_premise_implies_conclusion_near_the_boundary(n, s, d, ratio_num, u_num):
    """Rows built near the critical ratio K(a)/K(b), where random rows rarely land."""
    u = Fraction(u_num, 1000)
    fa, fb = s - Fraction(1, 2) + u, s + d - Fraction(1, 2) + u
    critical = (n - 2) * (fb - s - Fraction(1, 2)) / (s + Fraction(1, 2) - fa)
    row = Row(s + d, s, s + d, Fraction(0), critical * Fraction(ratio_num, 200), Fraction(1), Fraction(0), fa, fb)
    if premise(row, n):
        assert conclusion(row, n)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("d", [2, 3, 5, 8])
def test_factor_is_tight_within_one_percent(n, d):
    row = tight_row(n, 1, d, Fraction(1, 100))
    assert premise(row, n) and conclusion(row, n)
    ratio = (row.k0 + (n - 1) * row.ka) / ((row.k0 + (n - 1) * row.kb) * factor(n, d))
    assert 1 < ratio < Fraction(101, 100)
