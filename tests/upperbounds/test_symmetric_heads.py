"""Heads of the symmetry ansatz (THEORY U5, "Symmetry ansatz"): equivariant key features,
transport of a query's solution along its pi-orbit, the level-min decision against literal
enumeration, and the committed heads."""

import json
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import verdict
from kernelbounds.checker import check_file
from kernelbounds.model import min_ip_target
from kernelbounds.upperbounds import centralsearch
from kernelbounds.upperbounds import generalheads as gh
from kernelbounds.upperbounds import symmetric as sym

ROOT = Path(__file__).resolve().parents[2]


@st.composite
def ansatzes(draw, max_m=5):
    m = draw(st.integers(1, max_m))
    pi = tuple(draw(st.permutations(range(m))))
    return sym.Ansatz(m, pi, draw(st.integers(0, 2)))


@st.composite
def tables(draw, max_m=5, low=-5):
    a = draw(ansatzes(max_m))
    ints = st.integers(low, 5)
    g = [draw(ints) for _ in range(1 << a.m)]
    h = [[draw(ints) for _ in range(a.orbits)] for _ in range(a.t)]
    return a, g, h


@settings(max_examples=60)
@given(tables())
def test_psi_of_pi_z_is_the_cyclic_shift_of_psi_z(data):
    """psi(pi z)_i = psi(z)_(i-1) for i < k (cyclically) and the orbit coordinates agree."""
    a, g, h = data
    psi = a.features(g, h)
    for z in range(1 << a.m):
        assert psi[sym.act(a.pi, z)] == a.shifted(psi[z], 1)
    assert sym.act(a.pi, 0) == 0 and all(sym.act(a.pi, sym.act(sym.inverse(a.pi), z)) == z for z in range(1 << a.m))


@settings(max_examples=30)
@given(tables(max_m=4), st.randoms(use_true_random=False))
def test_expanded_tables_are_transported_along_each_orbit(data, rnd):
    """For x = pi^j q (q an orbit representative, j below the orbit's size):
    phi(x) = shift^j phi(q) and F(x, z) = F(q, pi^(-j) z), so w_x(z) = w_q(pi^(-j) z) and
    <x, z> = <q, pi^(-j) z>: every input scored at x is the image of one scored at q (same
    target, same output)."""
    a, g, h = data
    T = 1 << a.m
    phi = {q: tuple(rnd.randint(-3, 3) for _ in range(a.rank)) for q in a.reps}
    F = {q: tuple(Fraction(rnd.randint(-9, 9), 3) for _ in range(T)) for q in a.reps}
    head = sym.expand(a, 3, g, h, phi, F)
    for x in range(T):
        q, j = a.place[x]
        y = q
        for _ in range(j):
            y = sym.act(a.pi, y)
        assert y == x
        wx, wq = head.weights(x), head.weights(q)
        assert head.phi[x] == a.shifted(head.phi[q], j)
        for z in range(T):
            back = a.back[j][z]
            assert wx[z] == wq[back] and head.F[x][z] == head.F[q][back]
            assert (x & z).bit_count() == (q & back).bit_count()


def brute_worst(head: gh.ExplicitHead):
    """max |y - t| over every query and multiset of n-1 other tokens, literally; None when
    some kernel value is < 0 or some denominator is not > 0."""
    tokens = range(1 << head.m)
    if any(w < 0 for q in tokens for w in head.weights(q)):
        return None
    worst = Fraction(-1)
    for q in tokens:
        w = head.weights(q)
        for others in combinations_with_replacement(tokens, head.n - 1):
            if w[q] + sum(w[z] for z in others) <= 0:
                return None
            worst = max(worst, abs(head.output(q, others) - min_ip_target((q, *others), 0)))
    return worst


@st.composite
def rational_heads(draw):
    """Random integer tables of the ansatz at m <= 4 (phi >= 0 and psi >= 0 half the time, so
    that kernels are nonnegative; otherwise often negative: rejected by both routes)."""
    a, g, h = draw(tables(max_m=4, low=draw(st.sampled_from([0, -2]))))
    n = draw(st.integers(2, 4))
    small = st.integers(0 if min(g + sum(h, []), default=0) >= 0 else -2, 4)
    Phi = {q: [draw(small) for _ in range(a.rank)] for q in a.reps}
    fden = draw(st.sampled_from([1, 2, 7]))
    Fnum = {q: [draw(st.integers(-fden, (a.m + 1) * fden)) for _ in range(1 << a.m)] for q in a.reps}
    return a, n, g, h, Phi, Fnum, fden


@settings(max_examples=60, deadline=None)
@given(rational_heads())
def test_level_min_worst_error_equals_literal_enumeration(data):
    """The level-min reduction (per least level t the worst input is (q, a, b^(n-2)), on the
    orbit representatives only) gives exactly the literal worst error over every input of
    the expanded head, or rejects exactly when the literal route finds a negative kernel
    value or a denominator <= 0; and the checker's verdict is the same with and without its
    exhaustive route."""
    a, n, g, h, Phi, Fnum, fden = data
    found = sym.exact_worst(a, n, g, h, Phi, Fnum, fden)
    head = sym.expand(a, n, [Fraction(x) for x in g], [[Fraction(x) for x in r] for r in h],
                      {q: tuple(Fraction(x) for x in r) for q, r in Phi.items()},
                      {q: tuple(Fraction(x, fden) for x in r) for q, r in Fnum.items()})
    literal = brute_worst(head)
    if literal is None:  # a negative kernel value or a denominator <= 0: both routes reject
        assert found is None
    else:
        assert found is not None and found[0] == literal
        q, others = found[1]
        assert abs(head.output(q, others) - min_ip_target((q, *others), 0)) == literal
        doc = gh.document(head, *found)
        both, level_min = verdict(doc), verdict(doc, exhaustive_inputs=0)
        assert (both.code, level_min.code) == ((0, 0) if literal < Fraction(1, 2) else (1, 1))
        assert any(r.startswith("exhaustive: all") for r in both.routes) or both.code


def test_cycle_types_and_orders():
    assert sym.cycle_types(4, 4) == [(), (2,), (2, 2), (3,), (4,)]
    assert all(sym.order(sym.cycle_type(p, 7)) <= 6 for p in sym.cycle_types(7, 6))
    assert sym.order(sym.from_cycles(7, [(0, 1, 2), (3, 4, 5)])) == 3
    assert sym.order(sym.cycle_type((3, 2), 6)) == 6


def test_committed_heads_are_stored_regenerated_and_valid():
    """Every stored head of the ansatz has its committed explicit-head certificate, which the
    checker accepts with the claimed rank within its default limits, and which its stored
    data regenerates byte-identically (no search is re-run)."""
    from kernelbounds.certificate import canonical_json

    stored = sym.stored()
    assert {(6, 3, 4), (8, 3, 7)} <= {(m, n, r) for m, n, r, _ in stored}
    for m, n, r, path in stored:
        cert = ROOT / "certificates" / f"explicit-head-m{m:02d}-n{n}-r{r}.json"
        v = check_file(str(cert))
        assert v.ok, v.render()
        doc = json.loads(cert.read_text())
        assert (doc["m"], doc["n"], doc["claims"]["feature_rank"]) == (m, n, r)
        assert Fraction(doc["claims"]["worst_error"]) < Fraction(1, 2)
        text = canonical_json(sym.certificate_from_file(path))
        assert text.encode("ascii") == cert.read_bytes()


def test_rank_four_at_m6_solves_every_input_and_a_perturbed_copy_is_rejected():
    doc = json.loads((ROOT / "certificates" / "explicit-head-m06-n3-r4.json").read_text())
    v = verdict(doc)
    assert v.ok and any(r.startswith("exhaustive: all") for r in v.routes)
    worst = Fraction(doc["claims"]["worst_error"])
    assert Fraction(2, 5) < worst < Fraction(1, 2)
    # push the readout at the worst input's query away from the target on its whole row
    q = int(doc["claims"]["worst_input"]["query"][::-1], 2)
    bad = json.loads(json.dumps(doc))
    bad["head"]["readout"][q] = [str(Fraction(x) + Fraction(1, 50)) for x in doc["head"]["readout"][q]]
    v = verdict(bad, exhaustive_inputs=0)
    assert v.code == 1 and v.pointer.startswith(f"/head/readout/{q}")
    # and a negative kernel value
    neg = json.loads(json.dumps(doc))
    neg["head"]["phi"][q] = [str(-Fraction(x)) for x in doc["head"]["phi"][q]]
    v = verdict(neg)
    assert v.code == 1 and v.pointer == f"/head/phi/{q}"


@pytest.mark.parametrize("m, cycles, t", [(3, [], 1), (4, [(0, 1, 2, 3)], 0)])
def test_found_heads_pass_both_routes_with_the_literal_worst_error(m, cycles, t):
    """Passing heads (the search's, small m): the level-min worst error is the literal one,
    below 1/2, and the checker accepts with and without its exhaustive route."""
    a = sym.Ansatz(m, sym.from_cycles(m, cycles), t)
    res = centralsearch.search(a, 3, seconds=60)
    assert res.found is not None
    head = res.found.head()
    assert res.found.worst_error == brute_worst(head) < Fraction(1, 2)
    doc = res.found.certificate()
    assert verdict(doc).ok and verdict(doc, exhaustive_inputs=0).ok
    assert sym.from_data(json.loads(json.dumps(sym.to_data(res.found)))).certificate() == doc


def test_the_hub_cites_the_stored_heads_of_the_ansatz():
    """Each stored head bounds the hub's upper side at its (m, n) by its rank, and the file
    the hub cites there is accepted by the checker (r*(8, 3) <= 7, r*(6, 4) <= 6, ...)."""
    import kernelbounds as kb

    for m, n, r, _ in sym.stored():
        b = kb.bound(m, n)
        assert b.upper <= r, (m, n)
        cited = b.sides["upper"]["certificate"]
        assert cited is not None and check_file(str(ROOT / "certificates" / cited)).ok
