"""L1 gap domination: random heads meeting the premise satisfy the conclusion; tightness."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.lowerbounds.domination import PositionalRow, Row, conclusion, factor, positional_conclusion, positional_outputs, positional_premise, premise, tight_row

HALF = Fraction(1, 2)
small = st.one_of(st.just(Fraction(0)), st.fractions(0, 1, max_denominator=40))
inside = st.fractions(Fraction(-49, 100), Fraction(49, 100), max_denominator=100)  # strictly within 1/2
anywhere = st.fractions(-3, 10, max_denominator=20)
slack = st.one_of(st.fractions(Fraction(1, 10**6), Fraction(1, 100), max_denominator=10**6), st.fractions(Fraction(1, 50), 20, max_denominator=50))


def least_weight(w: Fraction, u: Fraction, f: Fraction, t: int) -> Fraction:
    """The least k >= 0 beyond which adding a key of weight k and value f (|f - t| < 1/2)
    to the pairs with total weight w and weighted sum u puts the average strictly within
    1/2 of t: every k > least_weight works (THEORY L1's three inputs, solved for K)."""
    lo, hi = t - HALF, t + HALF
    return max(Fraction(0), (u - hi * w) / (hi - f), (lo * w - u) / (f - lo))


@given(st.integers(3, 7), st.integers(0, 4), st.integers(1, 6), st.integers(0, 2), small, anywhere, inside, inside, slack, slack, st.integers(0, 1))
def test_premise_implies_conclusion(n, s, d, extra, k0, fq, ja, jb, sb, sa, zero_self):
    """THEORY L1 on rows that meet the premise by construction: K0 >= 0 and F(q) free;
    K(b) just above (or well above) the least weight that solves S_B, then K(a) just above
    the least weight that solves S_A and S_M, so the rows crowd the critical ratio."""
    k0 = k0 * zero_self
    s2 = s + d
    fa, fb = s + ja, s2 + jb
    kb = least_weight(k0, k0 * fq, fb, s2) / (n - 1) + sb
    ka_a = least_weight(k0, k0 * fq, fa, s) / (n - 1)
    ka_m = least_weight(k0 + (n - 2) * kb, k0 * fq + (n - 2) * kb * fb, fa, s)
    row = Row(s2 + extra, s, s2, k0, max(ka_a, ka_m) + sa, kb, fq, fa, fb)
    assert premise(row, n)
    assert conclusion(row, n)


@given(st.integers(3, 7), st.integers(0, 4), st.integers(2, 6), st.integers(1, 400), st.integers(1, 400))
def test_premise_holds_exactly_above_the_critical_ratio(n, s, d, ratio_num, u_num):
    """With K0 = 0, S_A and S_B are solved and S_M is solved iff K(a)/K(b) is above the
    critical ratio; the conclusion holds on the solved side."""
    u = Fraction(u_num, 1000)
    fa, fb = s - HALF + u, s + d - HALF + u
    critical = (n - 2) * (fb - s - HALF) / (s + HALF - fa)
    ratio = Fraction(ratio_num, 200)
    row = Row(s + d, s, s + d, Fraction(0), critical * ratio, Fraction(1), Fraction(0), fa, fb)
    assert premise(row, n) == (ratio > 1)
    above = Row(s + d, s, s + d, Fraction(0), critical * (1 + ratio), Fraction(1), Fraction(0), fa, fb)
    assert premise(above, n) and conclusion(above, n)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("d", [2, 3, 5, 8])
def test_factor_is_tight_within_one_percent(n, d):
    row = tight_row(n, 1, d, Fraction(1, 100))
    assert premise(row, n) and conclusion(row, n)
    ratio = (row.k0 + (n - 1) * row.ka) / ((row.k0 + (n - 1) * row.kb) * factor(n, d))
    assert 1 < ratio < Fraction(101, 100)


@settings(max_examples=80)
@given(st.integers(3, 4), st.integers(0, 3), st.integers(1, 5), small, anywhere, st.data())
def test_position_dependent_premise_implies_conclusion(n, s, d, k0, fq, data):
    """THEORY L5: on the symmetrised family (every placement of a), position-dependent rows
    that meet the premise by construction satisfy D(a) > (n-2)(d-1) D(b), D(z) = K0 + sum_j K_j(z).
    K_j(b) = lam * beta_j with lam just above what S_B needs; K_j(a) = mu * alpha_j (alpha_j > 0)
    with mu just above what S_A and every placement of a need."""
    keys, s2 = n - 1, s + d
    positive = st.fractions(Fraction(1, 20), 5, max_denominator=20)
    beta = [data.draw(positive) for _ in range(keys)]
    alpha = [data.draw(positive) for _ in range(keys)]
    fa = [s + data.draw(inside) for _ in range(keys)]
    fb = [s2 + data.draw(inside) for _ in range(keys)]
    wb = sum(beta)
    lam = least_weight(k0, k0 * fq, sum(b * f for b, f in zip(beta, fb, strict=True)) / wb, s2) / wb + data.draw(slack)
    kb = [lam * b for b in beta]
    wa = sum(alpha)
    need = [least_weight(k0, k0 * fq, sum(a * f for a, f in zip(alpha, fa, strict=True)) / wa, s) / wa]
    for i in range(keys):
        w = k0 + sum(kb[j] for j in range(keys) if j != i)
        u = k0 * fq + sum(kb[j] * fb[j] for j in range(keys) if j != i)
        need.append(least_weight(w, u, fa[i], s) / alpha[i])
    mu = max(need) + data.draw(slack)
    row = PositionalRow(s, s2, k0, fq, tuple(mu * a for a in alpha), tuple(kb), tuple(fa), tuple(fb))
    assert positional_premise(row)
    assert positional_conclusion(row)


def test_one_placement_is_not_enough():
    """THEORY L5: with position-dependent maps, one placement of the better key does not
    force the conclusion.  Here K_2(a) = 100, K_3(a) = 0, K_2(b) = 1000, K_3(b) = 1: the
    inputs S_A, S_B and (q, a, b) are all solved, yet D(a) = 100 < 3 * D(b) = 3003; the
    other placement (q, b, a) is what rules such heads out."""
    s, d = 0, 4
    row = PositionalRow(s, s + d, Fraction(0), Fraction(0), (Fraction(100), Fraction(0)), (Fraction(1000), Fraction(1)), (Fraction(s), Fraction(s)), (Fraction(s + d), Fraction(s + d)))
    ya, yb, (a_at_2, a_at_3) = positional_outputs(row)
    assert abs(ya - s) < HALF and abs(yb - (s + d)) < HALF and abs(a_at_2 - s) < HALF
    assert not positional_conclusion(row)
    assert abs(a_at_3 - s) >= HALF and not positional_premise(row)
