"""The rank-one Farkas certificate (THEORY U5, last paragraph; lowerbounds/rankonefarkas.py):
exact sparse multipliers at m = 4, the checker's verdict on them and on their mutants, and the
checker's own combination against the generator's on random rows."""

import copy
import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.bits import to_str
from kernelbounds.certificate import header
from kernelbounds.lowerbounds import rankonefarkas
from helpers import verdict


@pytest.mark.parametrize("n", [3, 8, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)])
def test_rank_one_fails_at_m4_with_an_exact_sparse_farkas_certificate(n):
    cert = rankonefarkas.farkas(4, n)
    assert cert is not None and len(cert.multipliers) <= 16 + 256 + 1  # Caratheodory
    psi, u = rankonefarkas.combination(cert.multipliers)
    assert not any(u.values()) and all(c <= 0 for c in psi.values())
    v = verdict(rankonefarkas.certificate(cert))
    assert v.code == 0 and v.kind == "rank-one-infeasible", v.render()
    assert "r*(m', " in v.summary


def test_the_n3_farkas_certificate_is_the_two_token_argument():
    """q = 1010 and its complement c: query q needs psi(c) > psi(q), query c the reverse."""
    cert = rankonefarkas.farkas(4, 3)
    assert len(cert.multipliers) == 6
    assert {q for (q, _), _, _ in cert.multipliers} == {0b0101, 0b1010}


def _farkas_doc():
    return rankonefarkas.certificate(rankonefarkas.farkas(4, 3))


def test_every_change_to_a_farkas_multiplier_or_side_is_rejected():
    doc = _farkas_doc()
    for i, item in enumerate(doc["inequalities"]):
        bumped = copy.deepcopy(doc)
        bumped["inequalities"][i]["multiplier"] += 1
        assert verdict(bumped).code == 1
        flipped = copy.deepcopy(doc)
        flipped["inequalities"][i]["side"] = "upper" if item["side"] == "lower" else "lower"
        assert verdict(flipped).code == 1
        dropped = copy.deepcopy(doc)
        del dropped["inequalities"][i]
        v = verdict(dropped)
        assert v.code == 1 and v.pointer.startswith("/inequalities"), v.render()


def test_farkas_rejects_nonpositive_multipliers_duplicates_and_version_1():
    doc = _farkas_doc()
    zero = copy.deepcopy(doc)
    zero["inequalities"][0]["multiplier"] = 0
    assert verdict(zero).code == 2
    dup = copy.deepcopy(doc)
    dup["inequalities"].append(dup["inequalities"][0])
    assert verdict(dup).code == 1
    old = copy.deepcopy(doc)
    old["version"] = 1
    assert verdict(old).code == 2
    wrong = copy.deepcopy(doc)
    wrong["claims"]["lower_bound"] = 3
    assert verdict(wrong).code == 1


@functools.cache
def _m4_multipliers():
    return rankonefarkas.farkas(4, 3).multipliers


@st.composite
def farkas_rows(draw):
    """(m, n, rows (input, side, y)) for a rank-one-infeasible file: either random distinct
    rows at m <= 3 (each input on one side, or on both with one multiplier, so that every
    u cancels and F3 decides), or the m = 4, n = 3 Farkas rows scaled, one multiplier
    perhaps raised by one."""
    if draw(st.booleans()):
        rows = _m4_multipliers()
        scale, bump = draw(st.integers(1, 5)), draw(st.integers(-len(rows), len(rows) - 1))  # bump < 0: none
        rows = [(x, side, y * scale + (i == bump)) for i, (x, side, y) in enumerate(rows)]
        return 4, 3, rows
    m, n = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    token = st.integers(0, (1 << m) - 1)
    others = st.lists(token, min_size=n - 1, max_size=n - 1).map(lambda o: tuple(sorted(o)))
    inputs = draw(st.lists(st.tuples(token, others), min_size=1, max_size=6, unique=True))
    both = draw(st.booleans())
    rows = []
    for x in inputs:
        y = draw(st.integers(1, 4))
        rows += [(x, side, y) for side in (("lower", "upper") if both else (draw(st.sampled_from(("lower", "upper"))),))]
    return m, n, rows


@settings(max_examples=80, deadline=None)
@given(farkas_rows())
def test_checker_and_generator_combine_farkas_rows_alike(drawn):
    """The checker's rule (its own copy of the combination, kept independent) and
    farkas.combination agree on random rows: the file is valid iff the generator's
    combination is 0 on every u and <= 0 on every psi; otherwise the checker names the
    generator's first nonzero u coefficient, or else its first positive psi coefficient."""
    m, n, rows = drawn
    psi, u = rankonefarkas.combination(rows)
    tok = lambda z: to_str(z, m)  # noqa: E731
    lines = [{"query": tok(q), "others": [tok(z) for z in others], "side": side, "multiplier": y} for (q, others), side, y in rows]
    v = verdict(header("rank-one-infeasible", version=2) | {"m": m, "n": n, "positions": "all", "inequalities": lines, "claims": {"lower_bound": 2}})
    bad_u = sorted((key, c) for key, c in u.items() if c != 0)
    bad_psi = sorted((z, c) for z, c in psi.items() if c > 0)
    if bad_u:
        (q, z), c = bad_u[0]
        assert v.code == 1 and f"coefficient on u(q={q}, z={z}) is {c}, not 0" in v.reason, v.render()
    elif bad_psi:
        z, c = bad_psi[0]
        assert v.code == 1 and f"coefficient on psi(z={z}) is {c} > 0" in v.reason, v.render()
    else:
        assert v.code == 0, v.render()
