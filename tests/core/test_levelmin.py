"""The level-min engine (kernelbounds/levelmin.py) against a literal evaluation of every
input: a query q and every multiset of n - 1 other tokens, y = sum U / sum W, the target
the least level min <q, z> over the others."""

from fractions import Fraction
from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds import levelmin
from kernelbounds.bits import inner


@st.composite
def rows(draw, positive: bool = True):
    """(m, n, [(q, W, U)]) for every query q of m bits: W > 0 (or >= an arbitrary floor) and U
    any integers."""
    m = draw(st.integers(1, 3))
    n = draw(st.integers(2, 4))
    T = 1 << m
    low = 1 if positive else -2
    out = []
    for q in range(T):
        W = draw(st.lists(st.integers(low, 9), min_size=T, max_size=T))
        U = draw(st.lists(st.integers(-20, 40), min_size=T, max_size=T))
        out.append((q, W, U))
    return m, n, out


def literal(m: int, n: int, table) -> tuple[Fraction, set] | None:
    """The worst |y - t| over every (q, multiset) and every input attaining it; None if some
    kernel value is negative or some denominator is not > 0."""
    worst, at = Fraction(-1), set()
    for q, W, U in table:
        if min(W) < 0:
            return None
        for others in combinations_with_replacement(range(1 << m), n - 1):
            den = W[q] + sum(W[z] for z in others)
            if den <= 0:
                return None
            err = abs(Fraction(U[q] + sum(U[z] for z in others), den) - min(inner(q, z) for z in others))
            if err > worst:
                worst, at = err, {(q, others)}
            elif err == worst:
                at.add((q, others))
    return worst, at


@settings(max_examples=60, deadline=None)
@given(rows())
def test_the_engine_finds_the_exact_worst_error_over_every_input_and_an_input_attaining_it(case):
    m, n, table = case
    err, found = levelmin.worst_error(table, n)
    worst, attaining = literal(m, n, table)
    assert err == worst
    assert (found.q, found.others) in attaining
    assert found.input == (found.q, *found.others)


@settings(max_examples=60, deadline=None)
@given(rows(positive=False))
def test_a_negative_kernel_value_or_a_denominator_at_most_zero_is_none_exactly_when_the_literal_says_so(case):
    """W drawn from -2..9: every kind of row (negative values, zero denominators, all positive)."""
    m, n, table = case
    got = levelmin.worst_error(table, n)
    want = literal(m, n, table)
    assert (got is None) == (want is None)
    if got is not None:
        assert got[0] == want[0]


@settings(max_examples=60, deadline=None)
@given(rows(), st.fractions(0, 3, max_denominator=7), st.sampled_from([1, -1]), st.booleans())
def test_a_violation_is_reported_exactly_when_some_input_of_the_class_violates(case, e, side, strict):
    """QueryClasses.violation(t, e, s, strict): an input with s (y - t) > e (>= e when strict)
    exists in the class (q, t) iff one is returned, and the one returned violates."""
    m, n, table = case
    for q, W, U in table:
        classes = levelmin.QueryClasses(q, W, U, n)
        for t in range(q.bit_count() + 1):
            bad = []
            for others in combinations_with_replacement(range(1 << m), n - 1):
                if min(inner(q, z) for z in others) != t:
                    continue
                d = side * (Fraction(U[q] + sum(U[z] for z in others), W[q] + sum(W[z] for z in others)) - t)
                if d > e or (strict and d == e):
                    bad.append(others)
            got = classes.violation(t, e, side, strict)
            assert (got is None) == (not bad)
            if got is not None:
                assert got.others in bad
