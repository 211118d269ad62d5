"""U1-U3 (THEORY §2) against brute force, and the two verification routes."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.classes import LevelProfile, class_count, level_classes, worst_error_by_classes
from kernelbounds.upperbounds.constructions import CONSTRUCTIONS, ConstructionFails, certificate, rank1, softmax, tensor
from kernelbounds.model import KernelHead, all_inputs, exhaustive_worst_error


def brute_force_worst(head, m, n):
    """Literal outputs at every position of every input in ({0,1}^m)^n."""
    worst = Fraction(0)
    for tokens in all_inputs(m, n):
        for i in range(n):
            err = head.error(tokens, i)
            assert err is not None, f"undefined output on {tokens} at {i}"
            worst = max(worst, err)
    return worst


@pytest.mark.parametrize("build", [tensor, softmax])
@pytest.mark.parametrize("m", [1, 2, 3, 4])
def test_u2_u3_solve_length_3_by_brute_force(build, m):
    c = build(m, 3)
    worst = brute_force_worst(c.head(), m, 3)
    assert worst < Fraction(1, 2)
    assert worst == worst_error_by_classes(c.profile(), m, 3).worst_error
    assert worst == Fraction(2, 7)  # THEORY U2: (n-1)c/(1+(n-1)c) = 2/7 (softmax: the same weights)


@pytest.mark.parametrize("m", range(1, 7))
def test_u1_exact_on_length_2_by_brute_force(m):
    assert brute_force_worst(rank1(m, 2).head(), m, 2) == 0


@pytest.mark.parametrize("m", [3, 5])
def test_u2_u3_length_2_by_brute_force(m):
    for build in (tensor, softmax):
        assert brute_force_worst(build(m, 2).head(), m, 2) == Fraction(1, 4)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_u2_exact_worst_case_formula(n):
    """THEORY U2: the exact worst case is (n-1)c / (1 + (n-1)c) with c = 1/(2n-1)."""
    c = Fraction(1, 2 * n - 1)
    assert worst_error_by_classes(tensor(12, n).profile(), 12, n).worst_error == (n - 1) * c / (1 + (n - 1) * c)


def test_u1_fails_at_length_3_and_no_certificate_is_written():
    assert worst_error_by_classes(rank1(2, 3).profile(), 2, 3).worst_error >= Fraction(1, 2)
    with pytest.raises(ConstructionFails, match="does not solve length 3"):
        certificate(rank1(2, 3))


def test_u2_at_m64_by_level_classes():
    result = worst_error_by_classes(tensor(64, 3).profile(), 64, 3)
    assert result.worst_error == Fraction(2, 7) and result.classes == class_count(64, 3) == 47905


def test_level_classes_are_all_level_multisets():
    for m, n in [(3, 2), (4, 3), (5, 4)]:
        classes = list(level_classes(m, n))
        assert len(classes) == len(set(classes)) == class_count(m, n)
        assert all(all(0 <= l <= p for l in ls) for p, ls in classes)


def _level_head(h, alpha, beta, gamma, m):
    return KernelHead(
        lambda q, i, z, j: h[(q & z).bit_count()],
        lambda z, j: tuple(Fraction((z >> k) & 1) for k in range(m)),
        lambda q, i: (tuple(alpha if (q >> k) & 1 else 0 for k in range(m)), beta * q.bit_count() + gamma),
    )


rationals = st.fractions(min_value=Fraction(1, 12), max_value=5, max_denominator=12)


@given(st.integers(1, 4), st.integers(1, 3), st.data())
def test_level_class_error_equals_exhaustive_error(m, n, data):
    """For any level-determined head, the class route and the exhaustive route agree."""
    h = data.draw(st.lists(rationals, min_size=m + 1, max_size=m + 1))
    alpha, beta, gamma = (data.draw(st.fractions(-2, 2, max_denominator=4)) for _ in range(3))
    profile = LevelProfile(lambda p, l: h[l], lambda p, l: alpha * l + beta * p + gamma)
    by_class = worst_error_by_classes(profile, m, n).worst_error
    literal = exhaustive_worst_error(_level_head(h, alpha, beta, gamma, m), m, n).worst_error
    assert by_class == literal


@given(st.integers(1, 3), st.integers(2, 3), st.data())
def test_exhaustive_reduction_matches_literal_outputs(m, n, data):
    """The multiset reduction of exhaustive_worst_error equals literal per-position outputs."""
    h = data.draw(st.lists(rationals, min_size=m + 1, max_size=m + 1))
    head = _level_head(h, Fraction(1), Fraction(0), Fraction(0), m)
    assert exhaustive_worst_error(head, m, n).worst_error == brute_force_worst(head, m, n)


@pytest.mark.parametrize("name", ["rank1", "tensor"])
def test_tensor_factor_identity_and_rank(name):
    """<f(a), g(b)> = c^(ab), and the explicit Kronecker features give a(x, z) = c^<x,z>."""
    c = CONSTRUCTIONS[name](4, 3)
    g = c.kernel.gram()
    assert g[0][0] == g[0][1] == g[1][0] == 1 and g[1][1] == c.kernel.c
    for x in range(16):
        for z in range(16):
            phi_q, phi_k = c.kernel.feature(x, 4, "q"), c.kernel.feature(z, 4, "k")
            assert len(phi_q) == c.kernel.feature_rank(4)
            assert sum(a * b for a, b in zip(phi_q, phi_k, strict=True)) == c.kernel.c ** (x & z).bit_count()
