"""The sharp ceiling of L3/L4 (kernelbounds.lowerbounds.ceiling, THEORY §3 "The ceiling of
L3/L4 (sharp form)"): each per-power value is the least rank the power cannot beat, decided
against an independent high-precision evaluation of the threshold (mpmath), and the values
THEORY states come out."""

from math import comb

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.lowerbounds import ceiling as ce


def _threshold(m: int, n: int, k: int) -> mpmath.mpf:
    """T_k = (2 / (1 + rho_n^k))^m, rho_n from its definition (max over d = 2..200), by mpmath."""
    with mpmath.workdps(120):
        best = max(mpmath.power((n - 2) * (d - 1), mpmath.mpf(1) / d) for d in range(2, 200))
        return (2 / (1 + best ** (-k))) ** m


def test_theory_values_at_n3():
    # THEORY: 3,864 (m = 64), 14,924,693 (m = 128), 222,746,448,765,397 (m = 256); m = 32: 65 at k = 2
    assert ce.ceiling(64, 3) == 3864 and ce.best_power(64, 3) == 1
    assert ce.ceiling(128, 3) == 14_924_693
    assert ce.ceiling(256, 3) == 222_746_448_765_397
    assert ce.ceiling(32, 3) == 65 and ce.best_power(32, 3) == 2
    assert ce.ceiling(64, 3, signed=True) == 3863  # L8: r + 1 >= the bound


def test_rho3_is_four_to_the_minus_fifth():
    assert ce.rho_base(3) == (4, 5)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 12), st.integers(2, 80))
def test_rho_base_maximises(n, other):
    c, d = ce.rho_base(n)
    # ((n-2)(other-1))^(1/other) <= c^(1/d)  <=>  ((n-2)(other-1))^d <= c^other
    assert ((n - 2) * (other - 1)) ** d <= c**other


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 256), st.integers(3, 8), st.integers(1, 8))
def test_each_power_is_the_least_rank_it_cannot_beat(m, n, k):
    r = ce.per_power(m, n)[k - 1]
    with mpmath.workdps(120):  # every comparison at the oracle's precision
        t = _threshold(m, n, k)
        assert comb(r + k - 1, k) > t
        assert r == 1 or comb(r + k - 2, k) < t
        assert ce.floor_threshold(m, n, k) == int(mpmath.floor(t))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 255), st.integers(3, 8))
def test_ceiling_grows_with_m_and_is_below_2_to_the_m_plus_one(m, n):
    assert ce.ceiling(m, n) <= ce.ceiling(m + 1, n)
    assert ce.ceiling(m, n) <= 2**m + 1


def test_the_theory_doc_table_states_the_sharp_ceiling():
    """docs/theory.md's direct-sum table: each row's ceiling is ceiling(m, 3), and the sum's
    bound lies below it (the method never exceeds its own ceiling)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "theory.md").read_text()
    rows = re.findall(r"^\| (\d+) \| [^|]+\| ([\d,]+)[^|]*\| [\d.]+ \| ([\d,]+) \([\d.]+\) \|", text, re.M)
    assert len(rows) == 9
    for m, bound, stated in rows:
        assert int(stated.replace(",", "")) == ce.ceiling(int(m), 3)
        assert int(bound.replace(",", "")) <= ce.ceiling(int(m), 3)
