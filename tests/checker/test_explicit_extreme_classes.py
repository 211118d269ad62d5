"""Rule explicit-head, E2 (docs/certificate-format-v2.md, "explicit-head"; docs/exact-small.md
section 1): the extreme-class route accepts a query's integer rows (W, U) at error e exactly
when every input scored at that query, (q and a multiset of n - 1 other tokens), has
denominator sum W > 0 and |sum U / sum W - t| <= e, t its least level.  Checked against the
literal definition over every multiset, for rows of any sign (so both verdicts occur)."""

from fractions import Fraction
from itertools import combinations_with_replacement

from hypothesis import given, strategies as st

from kernelbounds.checker.errors import Invalid
from kernelbounds.checker.rules.explicit import _extreme_class_route


def literal(W: list[int], U: list[int], q: int, n: int, e: Fraction) -> bool:
    for others in combinations_with_replacement(range(len(W)), n - 1):
        tokens = (q, *others)
        den = sum(W[z] for z in tokens)
        t = min((q & z).bit_count() for z in others)
        if den <= 0 or abs(Fraction(sum(U[z] for z in tokens), den) - t) > e:
            return False
    return True


def route(W: list[int], U: list[int], q: int, n: int, e: Fraction) -> bool:
    try:
        _extreme_class_route(W, U, q, n, e, "/head/readout")
    except Invalid:
        return False
    return True


@st.composite
def rows(draw: st.DrawFn) -> tuple[list[int], list[int], int, int, Fraction]:
    m = draw(st.integers(1, 3))
    T = 2**m
    n = draw(st.integers(2, 4))
    W = draw(st.lists(st.integers(-2, 12), min_size=T, max_size=T))
    # U near t W for a level t, so the error is often close to e and both verdicts occur
    U = [w * draw(st.integers(0, m)) + draw(st.integers(-6, 6)) for w in W]
    e = Fraction(draw(st.integers(0, 40)), draw(st.integers(1, 20)))
    return W, U, draw(st.integers(0, T - 1)), n, e


@given(rows())
def test_the_extreme_class_route_decides_every_input_of_the_query(case):
    W, U, q, n, e = case
    assert route(W, U, q, n, e) == literal(W, U, q, n, e)


@given(rows())
def test_nonnegative_rows_accepted_at_their_literal_worst_error(case):
    """At e = the literal worst error of a row with positive weights the route accepts, and
    at any smaller e it refuses: the bound is tight, not merely sound."""
    W, U, q, n, _ = case
    W = [abs(w) + 1 for w in W]
    worst = max(abs(Fraction(sum(U[z] for z in (q, *o)), sum(W[z] for z in (q, *o))) - min((q & z).bit_count() for z in o))
                for o in combinations_with_replacement(range(len(W)), n - 1))
    assert route(W, U, q, n, worst)
    if worst > 0:
        assert not route(W, U, q, n, worst - Fraction(1, 10**6 * worst.denominator))
