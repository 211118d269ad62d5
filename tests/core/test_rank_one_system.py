"""The rank-one inequality system (kernelbounds/rankonesystem.py, THEORY U5): its two sides at
an input are the head's margins to the ends of the target interval, scaled by the
denominator, and the extreme-class inputs are exactly the distinct (q, a, b^(n-2))."""

from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.classes import extreme_class_inputs
from kernelbounds.model import min_ip_target
from kernelbounds.rankonesystem import inequality, matrix


@st.composite
def rank_one_heads(draw):
    """(m, psi > 0, F, q, others): a rank-one head phi = 1 and an input of length n."""
    m = draw(st.integers(1, 3))
    n = draw(st.integers(2, 5))
    T = 1 << m
    psi = [draw(st.fractions(Fraction(1, 8), 4, max_denominator=8)) for _ in range(T)]
    F = [[draw(st.fractions(-2, m + 2, max_denominator=6)) for _ in range(T)] for _ in range(T)]
    token = st.integers(0, T - 1)
    return m, psi, F, draw(token), tuple(draw(st.lists(token, min_size=n - 1, max_size=n - 1)))


@settings(max_examples=60)
@given(rank_one_heads())
def test_each_side_is_twice_the_denominator_times_the_margin_to_the_interval_end(drawn):
    """With u(q, z) = psi(z) F(q, z), lower(X) = 2 D (y - t + 1/2) and upper(X) = 2 D (t + 1/2 - y)
    for the output y and denominator D of the head at X: both > 0 iff |y - t| < 1/2."""
    _, psi, F, q, others = drawn
    xs = (q, *others)
    den = sum(psi[z] for z in xs)
    y = sum(psi[z] * F[q][z] for z in xs) / den
    t = min_ip_target(xs, 0)
    for side, margin in (("lower", y - t + Fraction(1, 2)), ("upper", t + Fraction(1, 2) - y)):
        pc, uc = inequality(q, tuple(sorted(others)), side)
        value = sum(c * psi[z] for z, c in pc.items()) + sum(c * psi[z] * F[qq][z] for (qq, z), c in uc.items())
        assert value == 2 * den * margin


def test_extreme_class_inputs_are_the_distinct_q_a_b_multisets_and_the_matrix_has_two_rows_each():
    for m, n in ((1, 2), (2, 3), (2, 4), (3, 3)):
        T = 1 << m
        listed = list(extreme_class_inputs(m, n))
        expected = {(q, tuple(sorted((a,) + (b,) * (n - 2)))) for q, a, b in product(range(T), repeat=3)}
        assert len(listed) == len(set(listed)) and set(listed) == expected
        A, labels = matrix(m, n)
        assert A.shape == (2 * len(listed), T + T * T)
        assert labels == [(x, side) for x in listed for side in ("lower", "upper")]
