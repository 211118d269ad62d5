from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.bits import comp, from_str, inner, low_bits, popcount, to_str, tokens_of_weight


@given(st.integers(1, 64).flatmap(lambda m: st.tuples(st.just(m), st.integers(0, 2**m - 1))))
def test_string_roundtrip_and_bit_order(mx):
    m, x = mx
    s = to_str(x, m)
    assert len(s) == m and from_str(s) == x
    assert all((s[i] == "1") == bool((x >> i) & 1) for i in range(m))


@given(st.integers(1, 40).flatmap(lambda m: st.tuples(st.just(m), st.integers(0, 2**m - 1), st.integers(0, 2**m - 1))))
def test_inner_and_complement(mxz):
    m, x, z = mxz
    assert inner(x, z) == sum(((x >> i) & 1) * ((z >> i) & 1) for i in range(m))
    assert inner(x, comp(x, m)) == 0 and popcount(x) + popcount(comp(x, m)) == m


@given(st.integers(0, 2**20 - 1), st.data())
def test_low_bits_has_the_requested_level(q, data):
    level = data.draw(st.integers(0, popcount(q)))
    z = low_bits(q, level)
    assert inner(q, z) == level == popcount(z) and z & ~q == 0


def test_tokens_of_weight_counts():
    assert len(list(tokens_of_weight(8, 3))) == 56
    assert all(popcount(x) == 3 for x in tokens_of_weight(8, 3))
