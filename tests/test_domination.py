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


from kernelbounds.domination import PositionalRow, positional_conclusion, positional_premise  # noqa: E402


@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow], max_examples=80)
@given(st.integers(3, 4), st.integers(0, 3), st.integers(1, 5), small, st.data())
def test_position_dependent_premise_implies_conclusion(n, s, d, k0, data):
    """THEORY L5: on the symmetrised family (every placement of a), random position-dependent
    rows meeting the premise satisfy D(a) > (n-2)(d-1) D(b), D(z) = K0 + sum_j K_j(z)."""
    keys = n - 1
    kb = tuple(data.draw(weights) for _ in range(keys))
    ka = tuple(b * data.draw(st.fractions(1, 2, max_denominator=30)) * 2 ** data.draw(st.integers(2, 9)) + data.draw(small) for b in kb)
    fa = tuple(s + data.draw(near) for _ in range(keys))
    fb = tuple(s + d + data.draw(near) for _ in range(keys))
    row = PositionalRow(s, s + d, k0, s + data.draw(near), ka, kb, fa, fb)
    assume(positional_premise(row))
    assert positional_conclusion(row)


def test_one_placement_is_not_enough():
    """THEORY L5: with position-dependent maps, one placement of the better key does not
    force the conclusion.  Here K_2(a) = 100, K_3(a) = 0, K_2(b) = 1000, K_3(b) = 1: the
    inputs S_A, S_B and (q, a, b) are all solved, yet D(a) = 100 < 3 * D(b) = 3003; the
    other placement (q, b, a) is what rules such heads out."""
    from kernelbounds.domination import positional_outputs

    s, d = 0, 4
    row = PositionalRow(s, s + d, Fraction(0), Fraction(0), (Fraction(100), Fraction(0)), (Fraction(1000), Fraction(1)), (Fraction(s), Fraction(s)), (Fraction(s + d), Fraction(s + d)))
    ya, yb, (a_at_2, a_at_3) = positional_outputs(row)
    half = Fraction(1, 2)
    assert abs(ya - s) < half and abs(yb - (s + d)) < half and abs(a_at_2 - s) < half
    assert not positional_conclusion(row)
    assert abs(a_at_3 - s) >= half and not positional_premise(row)
