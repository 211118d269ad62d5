"""Heads whose kernel may be negative (THEORY §3 L8): evaluate accepts them, reports the
exact least denominator and its sign, and the all-inputs route says whether its extreme-class
reduction holds (it needs positive denominators, not a nonnegative kernel)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from kernelbounds.heads.evaluate import evaluate, evaluate_family, exact_output
from kernelbounds.heads.inputs import Family
from kernelbounds.heads.tables import HeadError, TableHead
from kernelbounds.model import min_ip_target

HALF = Fraction(1, 2)


# ------------------------------------------------------------ THEORY L8's three-input example


def three_input_head(k_a: Fraction, k_b: Fraction, k0: Fraction, f_a: Fraction, f_b: Fraction) -> TableHead:
    """m = 3, query q = 011, keys a = 100 (level 0) and b = 111 (level 2): a rank-3 head with
    K(q, q) = k0, K(q, a) = k_a, K(q, b) = k_b (phi_Q(q) = (1, 1, 1), phi_K one coordinate
    each) and readout F(q, a) = f_a, F(q, b) = f_b, F(q, q) = 0 (values one-hot)."""
    q, a, b = 0b110, 0b001, 0b111  # bit i = character i: "011", "100", "111"
    tokens = [q, a, b]
    phi_q = {q: (Fraction(1),) * 3, a: (Fraction(0),) * 3, b: (Fraction(0),) * 3}
    phi_k = {q: (k0, 0, 0), a: (0, k_a, 0), b: (0, 0, k_b)}
    head = TableHead(3, {}, {}, {}, {})
    for x in tokens:
        head.phi_q[x] = phi_q[x]
        head.phi_k[x] = tuple(Fraction(v) for v in phi_k[x])
        head.value[x] = tuple(Fraction(int(x == y)) for y in tokens)
        head.readout[x] = ((Fraction(0), f_a, f_b) if x == q else (Fraction(0),) * 3, Fraction(0))
    return head


def test_theory_l8_three_input_example_the_sign_is_not_forced():
    """K(q, a) = -1/2 < K(q, b) = 9/40 although <q, a> = 0 < <q, b> = 2: with positive
    denominators L1 would force D(a) > (n-2)(d-1) D(b) = D(b), i.e. K(q, a) > K(q, b).
    With denominators of either sign (THEORY L8 (b)) every error is below 1/2 on
    S_A = (q, a, a), S_B = (q, b, b), S_M = (q, a, b): so at m <= 8 the kernel class
    signed-any-denominator gets no sign-rank bound (L7, U6, U7 all need forced signs)."""
    k_a, k_b = Fraction(-1, 2), Fraction(9, 40)
    head = three_input_head(k_a, k_b, Fraction(0), Fraction(9, 20), Fraction(31, 20))
    q, a, b = 0b110, 0b001, 0b111
    kh = head.kernel_head()
    inputs = [(q, a, a), (q, b, b), (q, a, b)]
    dens, errors = [], []
    for inp in inputs:
        den, y = exact_output(kh, inp, 0, nonzero=True)
        dens.append(den)
        errors.append(abs(y - min_ip_target(inp, 0)))
    assert [min_ip_target(inp, 0) for inp in inputs] == [0, 2, 0]
    assert dens == [-1, Fraction(9, 20), Fraction(-11, 40)]  # D(a) = -1 < 0, the mixed input's denominator < 0
    assert all(e < HALF for e in errors) and errors == [Fraction(9, 20), Fraction(9, 20), Fraction(9, 20)]
    assert k_a < k_b  # not the forced sign K(q, a) > K(q, b)
    # |D(b)| < |D(a)| / ((n-2)(d-1)) still holds (L8 (b)): 9/20 < 1
    assert abs(dens[1]) < abs(dens[0])
    # the evaluation says the same: it solves the three inputs only when nonzero denominators count
    result = evaluate(head, inputs, denominators="nonzero")
    assert result.solves and result.least_denominator == -1 and result.denominator_sign == -1
    assert result.negative_weights == 1
    positive = evaluate(head, inputs)
    assert positive.failures == 2 and positive.worst_error is None  # S_A and S_M are undefined there


@given(st.fractions(Fraction(-2), Fraction(2), max_denominator=20), st.fractions(Fraction(-2), Fraction(2), max_denominator=20),
       st.fractions(Fraction(0), Fraction(2), max_denominator=20), st.fractions(Fraction(-3), Fraction(3), max_denominator=20),
       st.fractions(Fraction(-3), Fraction(3), max_denominator=20))
def test_l1_in_d_ratio_form_holds_for_signed_kernels(k_a, k_b, k0, f_a, f_b):
    """THEORY L8 on the three inputs (n = 3, d = 2): if every error is < 1/2 then
    |D(b)| < |D(a)| (either sign), and with positive denominators D(a) > D(b) > 0."""
    head = three_input_head(k_a, k_b, k0, f_a, f_b)
    q, a, b = 0b110, 0b001, 0b111
    kh = head.kernel_head()
    d_a, d_b = k0 + 2 * k_a, k0 + 2 * k_b
    outs = [exact_output(kh, inp, 0, nonzero=True) for inp in [(q, a, a), (q, b, b), (q, a, b)]]
    assert [o[0] for o in outs] == [d_a, d_b, k0 + k_a + k_b]
    solved = all(y is not None and abs(y - t) < HALF for (_, y), t in zip(outs, [0, 2, 0], strict=True))
    if solved:
        assert abs(d_b) < abs(d_a)
        if all(o[0] > 0 for o in outs):
            assert d_a > d_b > 0


# ------------------------------------------------------------ least denominator, every input


def random_head(m: int, r: int, seed: int, self_weight: float) -> TableHead:
    """Signed features with T more coordinates giving K(q, q) an extra `self_weight`:
    a large one makes every denominator positive although many K(q, z) are negative."""
    rng = np.random.default_rng(seed)
    T = 2**m
    phi_q = np.hstack([rng.integers(-3, 4, size=(T, r)), self_weight * np.eye(T)]).astype(float)
    phi_k = np.hstack([rng.integers(-3, 4, size=(T, r)), np.eye(T)]).astype(float)
    values = rng.integers(-2, 3, size=(T, 2)).astype(float)
    w, b = rng.integers(-2, 3, size=(T, 2)).astype(float), rng.integers(-2, 3, size=T).astype(float)
    return TableHead.from_arrays(phi_q, phi_k, values, (w, b), m=m)


def brute_least_denominator(head: TableHead, m: int, n: int) -> Fraction:
    from itertools import product

    kh = head.kernel_head()
    return min(exact_output(kh, inp, i)[0] for inp in product(range(2**m), repeat=n) for i in range(n))


@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize("self_weight,sign", [(100.0, 1), (0.0, -1)])
def test_every_input_reports_the_least_denominator_and_whether_the_reduction_holds(exact, self_weight, sign):
    m, n = 3, 3
    head = random_head(m, 4, 7, self_weight)
    result = evaluate_family(head, Family.all(m, n), exact=exact)
    assert result.least_denominator == brute_least_denominator(head, m, n)
    assert result.denominator_sign == sign and result.negative_weights > 0
    assert result.to_json()["least_denominator_sign"] == sign
    if sign == 1:
        assert result.reduction.startswith("holds") and result.worst_error is not None
    else:
        assert result.reduction.startswith("does not hold") and not result.solves
        with pytest.raises(HeadError, match="needs positive denominators"):
            evaluate_family(head, Family.all(m, n), exact=exact, denominators="nonzero")


def test_a_listed_family_reports_the_least_denominator_on_both_routes():
    m, n = 4, 3
    head = random_head(m, 5, 3, 0.0)
    rng = np.random.default_rng(1)
    inputs = [tuple(int(x) for x in rng.integers(0, 2**m, size=n)) for _ in range(300)]
    kh = head.kernel_head()
    truth = min(exact_output(kh, inp, 0)[0] for inp in inputs)
    exact = evaluate(head, inputs, exact=True)
    floats = evaluate(head, inputs, exact=False)
    assert exact.least_denominator == floats.least_denominator == truth
    assert floats.method == "float+exact"
    nonzero = evaluate(head, inputs, denominators="nonzero")
    assert nonzero.least_denominator == truth and nonzero.denominators == "nonzero"
    assert nonzero.failures <= exact.failures  # defined on more inputs, never fewer
