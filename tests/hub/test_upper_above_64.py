"""The hub's upper sides above m = 64 (THEORY U4'): level-family files on a grid of m, closed
under restriction, so every 65 <= m <= 256, 3 <= n <= 8 is answered below 2^m."""

from math import comb

from kernelbounds.hub import answer as bounds


def test_m128_n3_is_below_2_to_the_80_and_the_chain_below_2_to_the_88():
    any_, nonneg = bounds.upper(128, 3), bounds.upper(128, 3, nonnegative=True)
    assert any_.value <= 2**80 and any_.certificate == "upper-any-m128-n3.json"
    assert nonneg.value == sum(comb(128, j) for j in (0, 1, 6, 25, 106)) <= 2**88


def test_every_cell_above_64_is_below_2_to_the_m_and_nondecreasing():
    for n in range(3, 9):
        last = bounds.upper(64, n).value
        for m in range(65, 257):
            side, nonneg = bounds.upper(m, n), bounds.upper(m, n, nonnegative=True)
            assert last <= side.value <= nonneg.value < 2**m, (m, n)
            assert side.certificate is not None and side.from_m >= m
            last = side.value
