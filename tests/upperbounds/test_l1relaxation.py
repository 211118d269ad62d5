"""Heads by the L1 relaxation (THEORY U5, "Heads by the L1 relaxation"): the loss's gradient,
the exact L1 test against its definition, L1 as a necessary condition on every head found,
the search at small m decided exactly (and by the checker), and the stored heads."""

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import verdict
from kernelbounds.certificate import canonical_json
from kernelbounds.errors import InvalidArgument
from kernelbounds.upperbounds import l1relaxation as l1
from kernelbounds.upperbounds.generalheads import pack, readout_from_json, readout_layout, unpack


def l1_literal(K, m: int) -> bool:
    """L1 at n = 3 in the D-form, pair by pair from THEORY L1: K > 0 and for every q and
    keys a, b with <q,b> - <q,a> = d >= 2, K(q,q) + 2K(q,a) > (d - 1)(K(q,q) + 2K(q,b))."""
    T = 1 << m
    if any(K[q][z] <= 0 for q in range(T) for z in range(T)):
        return False
    for q, a, b in product(range(T), repeat=3):
        d = (q & b).bit_count() - (q & a).bit_count()
        if d >= 2 and not K[q][q] + 2 * K[q][a] > (d - 1) * (K[q][q] + 2 * K[q][b]):
            return False
    return True


@st.composite
def integer_kernels(draw, max_m=3):
    """Integer kernels of any sign on m <= 3 bits, half of them steep in the level (so that
    both verdicts occur): K(q, z) = base^(|q| - <q,z>) + noise."""
    m = draw(st.integers(1, max_m))
    T = 1 << m
    base = draw(st.integers(1, 5))
    lo = draw(st.integers(-3, 0))
    noise = st.integers(lo, 3)
    K = [[base ** ((q.bit_count()) - (q & z).bit_count()) * draw(st.integers(1, 3)) + draw(noise) for z in range(T)] for q in range(T)]
    return m, K


@settings(max_examples=120, deadline=None)
@given(integer_kernels())
def test_exact_l1_test_is_the_pairwise_definition(data):
    """l1_exact (per-level minima and maxima of D) decides exactly what the literal
    pair-by-pair statement of L1 at n = 3 does."""
    m, K = data
    assert l1.l1_exact(np.array(K, dtype=np.int64), m) == l1_literal(K, m)


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 5), st.integers(1, 4), st.integers(0, 2**16), st.sampled_from([(0, 1), (3, 0), (7, 2)]))
def test_loss_gradient_matches_central_differences(m, r, seed, where):
    """The analytic gradient of the L1 hinge loss equals the central difference quotient at
    points where the kernel is positive (the loss is smooth there almost everywhere)."""
    rng = np.random.default_rng(seed)
    T = 1 << m
    P, S = 0.5 + rng.random((T, r)), 0.5 + rng.random((T, r))
    f = l1.L1Loss(m, gamma=0.05, tau=0.05, delta=1e-3)
    _, gP, gS, K, _ = f(P, S)
    assert (K > 0).all()
    i, j = where[0] % T, where[1] % r
    e = 1e-6
    for X, G in ((P, gP), (S, gS)):
        hi, lo = X.copy(), X.copy()
        hi[i, j] += e
        lo[i, j] -= e
        fd = (f(*(hi, S) if X is P else (P, hi))[0] - f(*(lo, S) if X is P else (P, lo))[0]) / (2 * e)
        assert fd == pytest.approx(G[i, j], rel=1e-4, abs=1e-5)


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 5), st.integers(1, 4), st.integers(0, 2**16), st.data())
def test_loss_gradient_matches_central_differences_where_some_d_is_below_the_floor(m, r, seed, data):
    """Where a token's column makes D_q(z) = K(q,q) + 2K(q,z) negative in (almost) every row,
    the analytic gradient in that token's features still equals the central difference
    quotient: log D is taken of max(D, delta * max |K|), flat below the floor, so those
    entries carry no L1 gradient (the positivity hinge alone moves them).  The token z0 has
    psi(z0) = -3/4 psi(z1) with psi(z1) > every other psi entrywise, so every row's largest
    |K| stays at z1 and the threshold does not move with psi(z0)."""
    rng = np.random.default_rng(seed)
    T = 1 << m
    z0, z1 = data.draw(st.lists(st.integers(0, T - 1), min_size=2, max_size=2, unique=True))
    j = data.draw(st.integers(0, r - 1))
    P, S = 0.5 + rng.random((T, r)), 0.5 + rng.random((T, r))
    S[z1] = 2 + rng.random(r)
    S[z0] = -0.75 * S[z1]
    f = l1.L1Loss(m, gamma=0.05, tau=0.05, delta=1e-3)
    _, _, gS, K, _ = f(P, S)
    D = K.diagonal()[:, None] + 2 * K
    below = D[:, z0] < f.delta * np.abs(K).max(axis=1)
    assert below.sum() >= T - 2  # the premise: column z0 is below the floor but in rows z0, z1
    e = 1e-6
    hi, lo = S.copy(), S.copy()
    hi[z0, j] += e
    lo[z0, j] -= e
    fd = (f(P, hi)[0] - f(P, lo)[0]) / (2 * e)
    assert fd == pytest.approx(gS[z0, j], rel=1e-4, abs=1e-5)


def test_abandon_compares_the_loss_per_row():
    """abandon = (s, x) gives a start up at the first slack test from step s on whose loss
    over 2^m rows is above x, and only then: rank 2 at m = 6 never meets L1 (rho(6) = 4,
    THEORY U5), so the loss at step 250 is positive; a threshold just below it per row stops
    the same start there, one just above lets it run on (no slack stall is possible after
    three tests)."""
    m, T = 6, 64
    free = l1.kernel_search(m, 2, seed=0, steps=500)
    assert free.steps == 500
    loss = dict((step, x) for step, x, _ in free.history)[250]
    assert loss > 0
    assert l1.kernel_search(m, 2, seed=0, steps=500, abandon=(250, 0.99 * loss / T)).steps == 250
    assert l1.kernel_search(m, 2, seed=0, steps=500, abandon=(250, 1.01 * loss / T)).steps == 500


@pytest.mark.parametrize(("m", "rank", "seed"), [(4, 2, 0), (5, 3, 0), (6, 4, 1)])
def test_search_finds_a_head_at_the_exact_rank_and_the_checker_accepts_it(m, rank, seed):
    """r*(4, 3) = 2, r*(5, 3) = 3, r*(6, 3) = 4 (THEORY U5, U6, U7): the L1 relaxation finds a
    head of exactly that rank; its exact worst error (level-min engine) is < 1/2, its integer
    kernel meets L1 (necessary for any head, THEORY L1), and the independent checker accepts
    its explicit-head certificate."""
    res = l1.search(m, rank, seed=seed)
    assert res.found is not None, res.line()
    found = res.found
    assert found.rank == rank and found.worst_error < l1.HALF
    K = l1.kernel_rows(found.Phi, found.Psi)
    assert l1.l1_exact(K, m)
    if m <= 4:
        assert l1_literal(K.tolist(), m)
    assert max(abs(x) for row in found.Phi + found.Psi for x in row) <= l1.INT_TOP
    v = verdict(found.certificate())
    assert v.ok, v


def test_stored_data_round_trip_and_a_tampered_readout_is_refused(tmp_path):
    """to_data / write_data / from_data keep the head exactly; one readout entry moved far
    enough makes from_data refuse it (the worst error is recomputed, never read)."""
    res = l1.search(4, 2, seed=0)
    found = res.found
    path = l1.write_data(found, tmp_path)
    back = l1.from_data(json.loads(path.read_text()))
    assert back == found
    doc = l1.to_data(found)
    assert doc["readout"]["encoding"] in ("int16-le-base64", "int32-le-base64")  # the certificate's packed layout
    rows, fden = unpack(doc["readout"], 16)
    q = 0b1111
    rows[q][0] += 10 * fden  # F(q, 0000) off by 10: the input (q, 0000, 0000) has target 0
    doc["readout"] = pack([x for row in rows for x in row], fden)
    with pytest.raises(InvalidArgument):
        l1.from_data(doc)
    doc["readout"] = rows  # rows of integers (what to_data writes when 32 bits are too few): the same decision
    with pytest.raises(InvalidArgument):
        l1.from_data(doc)


def test_search_is_deterministic_per_seed():
    a, b = l1.search(4, 2, seed=3), l1.search(4, 2, seed=3)
    assert a.found is not None and a.found == b.found


# m >= 9: 40 s and more per head (the exact worst error over 2^(2m) pairs, a 4.5 MB certificate)
STORED = [pytest.param(*h, marks=[pytest.mark.slow] if h[0] >= 9 else [], id=h[3].name) for h in l1.stored()]


@pytest.mark.parametrize(("m", "n", "r", "path"), STORED)
def test_committed_certificate_is_the_stored_head(m, n, r, path):
    """Each stored head regenerates its committed explicit-head certificate byte for byte."""
    committed = Path(__file__).resolve().parents[2] / "certificates" / f"explicit-head-m{m:02d}-n{n}-r{r}.json"
    assert committed.read_text() == canonical_json(l1.certificate_from_file(path))


@pytest.mark.parametrize("m", [1, 2, 3])
def test_tiny_m_rank_one(m):
    """r*(m, 3) = 1 for m <= 3 (THEORY U5): the relaxation finds rank one there too."""
    res = l1.search(m, 1, seed=0)
    assert res.found is not None and res.found.worst_error < l1.HALF, res.line()


@given(st.integers(1, 3), st.sampled_from([15, 31]), st.data())
def test_the_packed_layout_round_trips_in_the_least_width(k, bits, data):
    """pack writes 16-bit numerators exactly when they fit, else 32-bit; unpack and
    readout_table give the table back (from m = 8 the certificate's readout is packed)."""
    T = 1 << k
    top = 2**bits
    nums = data.draw(st.lists(st.integers(-top, top - 1), min_size=T * T, max_size=T * T))
    nums[data.draw(st.integers(0, T * T - 1))] = data.draw(st.sampled_from([-top, top - 1]))  # the width's extreme
    d = data.draw(st.integers(1, 10**6))
    packed = pack(nums, d)
    assert packed["encoding"] == ("int16-le-base64" if bits == 15 else "int32-le-base64")
    rows, den = unpack(packed, T)
    assert den == d and [x for row in rows for x in row] == nums
    with pytest.raises(InvalidArgument):  # read as a table of another size: refused, never cut or padded
        unpack(packed, 2 * T)
    F = [[Fraction(x, d) for x in row] for row in rows]
    assert readout_from_json(readout_layout(F, 8), T) == tuple(map(tuple, F))  # over the lcm of F's denominators
    assert readout_layout(F, 7) == [[str(x) for x in row] for row in F]  # rows of rationals below m = 8
