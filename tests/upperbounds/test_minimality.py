"""Minimality of the complement-basis affine-readout family (THEORY U4', "Minimality"):
the reach L(k) of the full prefixes with exact Motzkin multipliers and witnesses, the chain
bound, and the `level-family-minimality` certificate."""

import copy
from fractions import Fraction
from itertools import pairwise
from math import comb

import pytest
from helpers import verdict
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.upperbounds.levelfamily import families as lf_families, supports as lf_supports
from kernelbounds.upperbounds import minimality as mn

SMALL_M = 24  # the tables below cover m <= 24: a few seconds


@pytest.fixture(scope="module")
def tables():
    return {nonneg: mn.table(3, nonneg, SMALL_M) for nonneg in (True, False)}


@pytest.fixture(scope="module")
def doc(tables):
    return mn.certificate(3, True, SMALL_M, tables[True])


# ------------------------------------------------------------ the rows


@given(st.integers(2, 8), st.integers(0, 30), st.data())
def test_x_coordinate_rows_are_the_extreme_class_rows(n, x, data):
    """The fast x-coordinate row g_0 (x - 1) - H(x) + (n - 2)(x - u - 1) H(u) is the generic
    affine row sum_l (l - t - 1) H(p - l) of the class (x; 0, x - u, ..., x - u)."""
    u = data.draw(st.integers(0, x))
    k = data.draw(st.integers(0, x + 2))
    p, levels = mn.extreme_class(n, x, u)
    fast = dict(mn.rows(n, k, x))[("class", p, levels)]
    assert list(fast) == mn.class_row(p, levels, k)


@given(st.integers(3, 7), st.integers(0, 20), st.data())
def test_every_class_row_is_the_average_of_extreme_rows(n, p, data):
    """U4' extreme classes: the row of (p; l_2..l_n) is (1/(n-2)) sum over the n-2 free keys of
    the extreme rows, so the extreme classes with p' = p - t carry every class."""
    levels = sorted(data.draw(st.lists(st.integers(0, p), min_size=n - 1, max_size=n - 1)))
    k = data.draw(st.integers(0, p))
    t = levels[0]
    x = p - t  # the largest x; the free keys sit at x_i = p - l_i
    free = [p - l for l in levels[1:]]
    average = [Fraction(sum(col), n - 2) for col in zip(*(mn.class_row(*mn.extreme_class(n, x, u), k) for u in free), strict=True)]
    assert mn.class_row(p, tuple(levels), k) == average


def test_prefix_zero_reaches_one_at_every_n():
    """g = (g_0): the row of (x; 0, ..., 0) is g_0 (x - 2 + (n - 2)(x - 1)), < 0 iff x <= 1."""
    for n in range(2, 9):
        assert mn.satisfies([Fraction(1)], n, 1)
        assert not mn.satisfies([Fraction(1)], n, 2)
        ref = mn.refute(n, 0, 2, n > 2)
        assert ref is not None and mn.combination(ref, 0) == [0]


# ------------------------------------------------------------ the reach table


def test_reach_table_n3(tables):
    """L(k) for n = 3, exact (witness and refutation meet), nondecreasing (prefixes nest)."""
    nonneg = [p.upper for p in tables[True]]
    assert nonneg == [1, 5, 9, 14, 18, 22]
    assert [p.upper for p in tables[False]] == [1, 5, 9, 15, 20]
    for table in tables.values():
        assert all(p.exact for p in table)
        assert [p.upper for p in table] == sorted(p.upper for p in table)


def test_refutations_are_motzkin_combinations_of_the_full_class_system(tables):
    """Each refutation, mapped to the rows of levelfamily's own system (every class, m = L(k) + 1),
    is accepted by levelfamily.verify_refutation: independent row code."""
    for nonneg, table in tables.items():
        fam = lf_families.LevelFamily("complement", "affine", nonneg)
        for p in table[:4]:
            m = p.upper + 1
            s = lf_supports.system(fam, m, 3)
            index = {lab: i for i, lab in enumerate(s.labels)}
            pairs = [(index[lab if lab[0] == "weight" else ("class", lab[1], lab[2], "upper")], y) for lab, y in p.refutation.multipliers]
            support = [j for j in range(p.k + 1) if j <= m]
            assert lf_supports.verify_refutation(s, lf_supports.columns(s, support), pairs, nonneg, len(support))


def test_witnesses_solve_at_their_reach(tables):
    """A witness with eps below its least slack is a level-family head that the exact class
    check of levelfamily accepts at m = L(k) (every class, not only the extreme ones)."""
    for nonneg, table in tables.items():
        fam = lf_families.LevelFamily("complement", "affine", nonneg)
        for p in table[:4]:
            m = p.lower
            g = {j: v for j, v in enumerate(p.witness) if v != 0 and j <= m}
            eps = lf_supports._eliminated_eps(fam, lf_families.weights(fam, g, m), m, 3)
            worst, _ = lf_families.exact_worst_error(fam, g, lf_families.readout_table(fam, eps, None, m), m, 3)
            assert worst < Fraction(1, 2)


# ------------------------------------------------------------ the chain bound


def test_chain_bound_meets_the_least_nonnegative_family(tables):
    """THEORY U4': for g >= 0 the chain bound met the explicit family; the least ranks of the
    committed nonnegative level-family files (m = 10..19), 4886 at m = 20 and 42,553 at m = 24."""
    uppers = [p.upper for p in tables[True]]
    expected = {10: 47, 11: 67, 12: 133, 13: 300, 14: 379, 15: 472, 16: 593, 17: 834, 18: 1651, 19: 3897, 20: 4886, 24: 42553}
    assert {m: mn.chain_bound(uppers, m)[0] for m in expected} == expected
    assert mn.chain_bound(uppers, 16)[1] == (0, 1, 3, 15)


def test_signed_chain_bound_is_below_the_signed_least_rank(tables):
    """Signed g: 593 at m = 16 and 14,951 at m = 24 (THEORY U4') are above the chain bound."""
    uppers = [p.upper for p in tables[False]]
    assert mn.chain_bound(uppers, 16)[0] <= 593
    assert mn.chain_bound(uppers, 24)[0] <= 14951


@given(st.lists(st.integers(0, 12), min_size=1, max_size=10), st.integers(1, 10))
def test_chain_bound_is_the_least_cost_valid_chain(reach, m):
    """The dynamic program against brute force over every chain (subsets of 1..m, m small)."""
    reach = [max(r, j) for j, r in enumerate(sorted(reach))]  # a nondecreasing table with L(j) >= j

    def L(j):
        return reach[j] if j < len(reach) else 10**9

    best = None
    for mask in range(2**m):  # every chain: 0 and a subset of 1..m
        chain = (0, *(j for j in range(1, m + 1) if mask >> (j - 1) & 1))
        if all(b <= L(a) + 1 for a, b in pairwise(chain)) and L(chain[-1]) >= m:
            cost = sum(comb(m, j) for j in chain)
            best = cost if best is None else min(best, cost)
    assert mn.chain_bound(reach, m)[0] == best


# ------------------------------------------------------------ the certificate


def test_certificate_is_valid(doc):
    v = verdict(doc)
    assert v.ok, v.render()
    assert "for every m = 1..24" in v.summary
    assert doc["claims"]["chain_bounds"][15] == {"m": 16, "bound": 593, "chain": [0, 1, 3, 15]}


def _edit(doc, fn):
    out = copy.deepcopy(doc)
    fn(out)
    return out


def _bump_multiplier(d):
    entry = d["prefixes"][3]["refutation"][0]
    entry["y"] = str(int(entry["y"]) + 1)


@pytest.mark.parametrize(
    "fn, code, pointer",
    [
        (_bump_multiplier, 1, "/prefixes/3/refutation"),
        (lambda d: d["prefixes"][2].update(reach=d["prefixes"][2]["reach"] - 1), 1, "/prefixes/2/refutation/2/class/0"),
        (lambda d: d["claims"]["chain_bounds"][15].update(bound=594), 1, "/claims/chain_bounds/15/bound"),
        (lambda d: d["claims"]["chain_bounds"][15].update(chain=[0, 1, 3, 16]), 1, "/claims/chain_bounds/15/chain/3"),
        (lambda d: d["prefixes"][1]["witness"].__setitem__(1, "-1"), 1, "/prefixes/1/witness/1"),
        (lambda d: d["prefixes"][3]["witness"].__setitem__(0, "1000000000"), 1, "/prefixes/3/witness"),
        (lambda d: d["prefixes"][1].update(refutation=[e for e in d["prefixes"][1]["refutation"] if "weight" in e]), 1, "/prefixes/1/refutation"),
        (lambda d: d.update(version=1), 2, "/kind"),
        (lambda d: d.update(basis="subset"), 2, "/basis"),
        (lambda d: d["prefixes"][3]["refutation"][2].update({"class": [7, 5, 0]}), 2, "/prefixes/3/refutation/2/class"),
    ],
)
def test_tampered_certificates_are_rejected(doc, fn, code, pointer):
    v = verdict(_edit(doc, fn))
    assert (v.code, v.pointer) == (code, pointer), v.render()


def test_dropping_prefixes_only_weakens(doc):
    """A prefix left out has no bound (L = infinity): the claimed bounds must then drop."""
    shorter = _edit(doc, lambda d: d["prefixes"].pop())
    v = verdict(shorter)
    assert (v.code, v.pointer) == (1, "/claims/chain_bounds/23/bound")  # L(5) = 22 only matters from m = 24 on
    uppers = [p["reach"] for p in shorter["prefixes"]]
    fixed = _edit(shorter, lambda d: d["claims"].update(chain_bounds=[{"m": m, "bound": mn.chain_bound(uppers, m)[0], "chain": list(mn.chain_bound(uppers, m)[1])} for m in range(1, SMALL_M + 1)]))
    assert verdict(fixed).ok


def test_work_limit_refuses_before_checking(doc):
    v = verdict(doc, work_budget=1000)
    assert v.code == 3
