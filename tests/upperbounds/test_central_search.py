"""The central-point, lazy-row search for heads of the symmetry ansatz
(upperbounds/centralsearch.py; THEORY U5 "Symmetry ansatz", U7+ "Upper side at m = 8"):
the one-dimensional interval test against the rows it summarises, lazy rows against the
full LP, and found heads against the checker."""

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import verdict
from kernelbounds.upperbounds import centralsearch as cs
from kernelbounds.upperbounds import symmetric as sym


@st.composite
def fixed_points(draw):
    """A query, every token active, and small integer values of every variable but one
    token's readout numerator: all the interval bounds are then halves of integers,
    exact in floating point."""
    m = draw(st.integers(2, 4))
    n = draw(st.integers(3, 4))
    T = 1 << m
    q = draw(st.integers(0, T - 1))
    rows = cs.QueryRows(q, m, n, range(T))
    ints = st.integers(-12, 12)
    w = np.array([draw(st.integers(1, 9)) for _ in range(T)], dtype=float)
    u = np.array([draw(ints) for _ in range(T)], dtype=float)
    s = np.array([draw(ints) for _ in range(rows.slacks)], dtype=float)
    mu = float(draw(st.integers(-6, 6)))
    z = draw(st.sampled_from([x for x in range(T) if x != q]))
    return rows, w, u, s, mu, z


def _rows_of(rows, w, u, s, mu, z):
    """Left-hand sides (<= 0 means satisfied) of every row that contains u(z)."""
    x = np.concatenate([w, u, s, [mu]])
    M = rows.M.tocsc()
    mine = M[:, rows.T + z].nonzero()[0]
    return M[mine] @ x


@settings(max_examples=150, deadline=None)
@given(fixed_points())
def test_the_interval_is_exactly_the_set_of_readouts_that_satisfy_a_tokens_rows(data):
    """With every other variable fixed, the rows of token z (as the key a at its level and
    as a key b at every lower level) hold iff low(z) <= u(z) <= high(z): at both ends they
    hold (when the interval is nonempty), half a unit outside either end one of them fails."""
    rows, w, u, s, mu, z = data
    low, high = cs._interval(w, rows.levels, rows.q, u[rows.q], s, mu, rows.p, rows.k)
    lo, hi = low[z], high[z]
    for value, inside in ((lo, lo <= hi), (hi, lo <= hi), (lo - 0.5, False), (hi + 0.5, False)):
        trial = u.copy()
        trial[z] = value
        assert (max(_rows_of(rows, w, trial, s, mu, z)) <= 0) == inside
    if lo <= hi:  # and every value in between
        trial = u.copy()
        trial[z] = (lo + hi) / 2
        assert max(_rows_of(rows, w, trial, s, mu, z)) <= 0


@settings(max_examples=8, deadline=None)
@given(st.integers(3, 4), st.integers(3, 4), st.integers(1, 3), st.integers(0, 2**16))
def test_lazy_rows_reach_the_optimum_of_the_full_lp(m, n, r, seed):
    """Row generation by the interval test ends at the optimum of the LP with every
    token's rows (the margin agrees to the solver's tolerance), for any key features."""
    rng = np.random.default_rng(seed)
    T = 1 << m
    Psi = 0.2 + rng.random((T, r))
    q = int(rng.integers(T))
    lazy = cs.QueryRows(q, m, n, [q])
    full = cs.QueryRows(q, m, n, range(T))
    mu_lazy, phi, u = cs.phi_step(lazy, Psi)
    mu_full, _, _ = cs.phi_step(full, Psi)
    assert phi is not None and abs(mu_lazy - mu_full) <= 1e-5 * max(1.0, abs(mu_full))
    assert len(lazy.active) <= T and np.all(Psi @ phi >= 1 - 1e-6)


def test_the_lift_gives_the_weights_of_the_ansatz():
    """lift(phi_q) @ [g; vec(h)] is <phi_q, psi(z)> for every token z (psi of the ansatz)."""
    rng = np.random.default_rng(3)
    a = sym.Ansatz(5, sym.from_cycles(5, [(0, 1, 2)]), 2)
    g, h = rng.random(32), rng.random((2, a.orbits))
    phi = rng.standard_normal(a.rank)
    w = cs.Lift(a)(phi) @ np.concatenate([g, h.ravel()])
    assert np.allclose(w, a.features(g, h) @ phi)


def test_a_found_head_is_certified_and_regenerates_from_its_data():
    """m = 4, rank 2 (identity permutation, one orbit feature: every psi of rank 2): the
    search reports its progress, finds a head, whose exact worst error is < 1/2, which the
    checker accepts, and whose stored data gives the same certificate."""
    a = sym.Ansatz(4, sym.from_cycles(4, []), 1)
    seen = []
    res = cs.search(a, 3, seconds=120, report=seen.append)
    assert res.found is not None and res.found.worst_error < sym.HALF
    assert seen and seen[0].iteration == 0 and "margin" in seen[-1].line() and "s left" in seen[-1].line()
    doc = res.found.certificate()
    assert verdict(doc).ok
    assert sym.from_data(json.loads(json.dumps(sym.to_data(res.found)))).certificate() == doc


def test_the_time_limit_stops_the_search_without_a_head():
    """A deadline already passed stops before the first LP: no head, timed out."""
    a = sym.Ansatz(5, sym.from_cycles(5, [(0, 1, 2, 3, 4)]), 0)
    ticks = iter(range(0, 10**6, 10))
    res = cs.search(a, 3, seconds=5, clock=lambda: next(ticks))
    assert res.found is None and res.timed_out and res.iterations == 0
